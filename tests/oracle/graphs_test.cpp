// Functional graphs saved by real Keras 3.15 (tools/keras_oracle/graphs.py): nested Functional
// and Sequential models, layers with several outputs, per-node call arguments (initial_state,
// use_causal_mask, return_attention_scores, mask) and keras.ops nodes. Each file loads in
// keras-cpp, predicts what Keras predicted, and gives back the file's own config key for key;
// the compiled one resumes training as Keras did. The other direction (keras-cpp's files opened
// by Keras) is the live round trip, scripts/interop.sh.

#include <gtest/gtest.h>

#include "../../examples/functional_graph_model.h"
#include "golden.h"
#include "resume_training.h"
#include "assertions.h"
#include "json_diff.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/save_model.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

std::string graph_file(const std::string& kind) {
  return std::string(KERAS_ORACLE_DIR) + "/graphs/" + kind + ".keras";
}

// The model's config as Keras wrote it in the file's config.json.
Config keras_config(const std::string& kind) {
  auto members = saving::read_zip_members(saving::read_file_bytes(graph_file(kind)), kind);
  const auto& bytes = members.at("config.json");
  return Config::parse(std::string(bytes.begin(), bytes.end()))["config"];
}

TensorList predict(Model& model, const TensorList& in) {
  TensorStruct inputs = in.size() == 1 ? TensorStruct(in[0]) : TensorStruct(in);
  return model.predict(inputs, {.verbose = 0}).flat();
}

GoldenOps graph_ops() {
  GoldenOps ops;
  ops["predict_keras"] = [](const TensorList& in, const json& kw) {
    backend::clear_session();
    const std::string kind = kw["file"].get<std::string>();
    auto model = saving::load_model(graph_file(kind));
    // The graph keras-cpp rebuilt is the one Keras wrote: layers, nodes, call arguments.
    if (kw.contains("config_differs")) {
      std::cout << "[differs] graphs/" << kind << " config: "
                << kw["config_differs"].get<std::string>() << "\n";
      return predict(*model, in);
    }
    auto differences =
        json_differences(model->get_config(), comparable_keras_config(keras_config(kind)));
    EXPECT_TRUE(differences.empty()) << kind << ": the config differs from Keras's:\n"
                                     << testing::PrintToString(differences);
    return predict(*model, in);
  };
  add_resume_training_ops(ops, graph_file);
  return ops;
}

TEST(KerasGraphs, KerasFunctionalGraphsLoadPredictAndResumeTraining) {
  auto exercised = run_oracle("graphs", graph_ops());
  EXPECT_EQ(exercised.size(), 3u);
}

TEST(KerasGraphs, NestedFunctionalInSummaryAndWeights) {
  backend::clear_session();
  auto model = saving::load_model(graph_file("siamese"));
  std::string flat = model->summary_string();
  std::string expanded = model->summary_string({.expand_nested = true});
  EXPECT_NE(flat.find("tower (Functional)"), std::string::npos) << flat;
  EXPECT_EQ(flat.find("tower_dense"), std::string::npos) << flat;
  // Expanded, the tower's own layers (and the inner model's, a level deeper) are listed too.
  EXPECT_NE(expanded.find("\u2514 tower_dense"), std::string::npos) << expanded;
  EXPECT_NE(expanded.find("      \u2514 inner_dense"), std::string::npos) << expanded;
  // The shared tower's weights appear once in the model's weights.
  int64_t params = 0;
  for (const Variable& w : model->weights()) params += w.value().shape().numel();
  EXPECT_EQ(params, model->count_params());
  EXPECT_EQ(model->count_params(), (4 * 5 + 5) + (5 * 3 + 3) + (6 * 4 + 4) + (4 * 1 + 1));
}

// The example's model built in C++ (Input, nested model, RNN states, keras::ops on
// KerasTensors) has the config Keras writes for the same graph built in Python (graphs.py's
// example_graph): the same layers and op nodes, in the same order, with the same arguments.
TEST(KerasGraphs, GraphBuiltInCppHasKerasConfig) {
  backend::clear_session();
  auto model = functional_graph_model();
  auto differences = json_differences(model->get_config(),
                                      comparable_keras_config(keras_config("example_graph")));
  EXPECT_TRUE(differences.empty()) << testing::PrintToString(differences);
}

// An op config without its axis takes Keras's default (-1 for softmax and sort), while an
// explicit null is Keras's None (every axis, or the flattened input).
TEST(KerasGraphs, AbsentOpArgumentTakesKerasDefault) {
  Tensor x = ops::convert_to_tensor(std::vector<float>{3, 1, 2, 6, 5, 4}, Shape{2, 3});
  auto run = [&](const std::string& op, Config config) {
    auto layer = make_layer<layers::OperationLayer>(op, std::move(config),
                                                    Config::array({{{"__tensor__", 0}}}));
    return (*layer)(TensorList{x})[0];
  };
  // Softmax over the last axis: each row sums to 1.
  Tensor by_default = run("Softmax", Config::object());
  EXPECT_TRUE(test::tensors_near(ops::sum(by_default, 1), ops::ones({2}), 1e-6, 1e-6));
  // axis None: the whole tensor sums to 1.
  Tensor all = run("Softmax", {{"axis", nullptr}});
  EXPECT_NEAR(ops::sum(all).item<double>(), 1.0, 1e-6);
  // Sort along the last axis by default; None sorts the flattened input.
  EXPECT_EQ(run("Sort", Config::object()).to_vector<float>(),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(run("Sort", Config::object()).shape(), (Shape{2, 3}));
  EXPECT_EQ(run("Sort", {{"axis", nullptr}}).shape(), (Shape{6}));
}

TEST(KerasGraphs, UnknownOpClassIsAClearError) {
  Config config = keras_config("masked_ops");
  for (Config& layer : config["layers"])
    if (layer["class_name"] == "Mean") layer["class_name"] = "NoSuchOp";
  try {
    FunctionalModel::from_config(config);
    FAIL() << "expected a keras::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("NoSuchOp"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keras

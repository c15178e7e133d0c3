// ReversibleEmbedding against Keras 3.15 (tools/keras_oracle/multi_optimizer.py): for tied and
// untied weights, logit_soft_cap, reverse_dtype and mask_zero, the forward and reverse outputs,
// the gradients of both calls (by the hidden states and by each weight), the int8 variables
// and outputs after quantize("int8"), the config, and Keras's saved file (weights
// "embeddings", "reverse_embeddings").

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "assertions.h"
#include "oracle_fixture.h"
#include "keras/keras.h"
#include "keras/layers/core/reversible_embedding.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"

namespace keras {
namespace {

using json = nlohmann::json;
namespace L = keras::layers;

const Tensor& fixture(const std::string& key) {
  return test::oracle_array("multi_optimizer", key);
}

const json& configs() { return test::oracle_json("multi_optimizer").at("reversible_embedding"); }

double worst_diff = 0;

void expect_close(const Tensor& actual, const Tensor& expected, double atol,
                  const std::string& what, bool same_dtype = true) {
  ASSERT_EQ(actual.shape(), expected.shape()) << what;
  if (same_dtype) {
    EXPECT_EQ(actual.dtype(), expected.dtype()) << what;
  }
  auto a = ops::cast(actual, DType::Float64).to_vector<double>();
  auto e = ops::cast(expected, DType::Float64).to_vector<double>();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - e[i]));
  worst_diff = std::max(worst_diff, worst);
  EXPECT_LE(worst, atol) << what;
}

L::ReversibleEmbeddingOptions options_of(const json& c) {
  L::ReversibleEmbeddingOptions o;
  o.tie_weights = c["tie_weights"];
  o.mask_zero = c["mask_zero"];
  if (!c["reverse_dtype"].is_null()) o.reverse_dtype = c["reverse_dtype"];
  if (!c["logit_soft_cap"].is_null()) o.logit_soft_cap = c["logit_soft_cap"].get<double>();
  o.name = c["name"];
  return o;
}

const char* const kCases[] = {"tied", "untied", "tied_cap", "untied_cap_f64", "mask_zero"};

TEST(ReversibleEmbeddingOracle, OutputsAndGradientsAreKeras) {
  for (const std::string c : kCases) {
    SCOPED_TRACE(c);
    const std::string p = "re." + c + ".";
    auto layer = L::ReversibleEmbedding(7, 4, options_of(configs()[c]));
    Tensor ids = fixture("re.ids");
    layer->ensure_built({ids.shape()}, /*list_input=*/false);
    std::vector<Tensor> values = {fixture(p + "embeddings")};
    if (!layer->tie_weights()) values.push_back(fixture(p + "reverse_embeddings"));
    layer->set_weights(values);
    ASSERT_EQ(layer->weights().size(), values.size());
    EXPECT_EQ(layer->weights()[0].path(), "rev_emb/embeddings");
    if (!layer->tie_weights()) {
      EXPECT_EQ(layer->weights()[1].path(), "rev_emb/reverse_embeddings");
    }

    expect_close(layer(ids), fixture(p + "forward"), 1e-6, "forward");
    Tensor h = fixture("re.h");
    // Known difference: with reverse_dtype="float64" and a soft cap, Keras 3.15's ops.tanh
    // returns float32 logits (its JAX tanh casts float64 down); keras-cpp's stay float64. The
    // values agree.
    const bool f64_cap = c == "untied_cap_f64";
    Tensor logits = layer->reverse(h);
    if (f64_cap) {
      EXPECT_EQ(logits.dtype(), DType::Float64);
    }
    expect_close(logits, fixture(p + "reverse"), 1e-5, "reverse", !f64_cap);

    // Gradients of sum(reverse(h) * r) by h and every weight.
    {
      GradientTape tape(/*persistent=*/true);
      tape.watch(h);
      Tensor loss = ops::sum(ops::multiply(layer->reverse(h), fixture("re.r_rev")));
      expect_close(tape.gradient(loss, h), fixture(p + "grad_h"), 1e-5, "grad_h");
      auto vars = layer->trainable_weights();
      auto grads = tape.gradient(loss, vars);
      for (size_t i = 0; i < vars.size(); ++i)
        expect_close(grads[i], fixture(p + "grad_" + vars[i].name()), 1e-5,
                     "grad " + vars[i].name());
    }
    {
      GradientTape tape;
      Tensor loss = ops::sum(ops::multiply(layer(ids), fixture("re.r_fwd")));
      auto vars = layer->trainable_weights();
      auto grads = tape.gradient(loss, vars);
      for (size_t i = 0; i < vars.size(); ++i)
        expect_close(grads[i], fixture(p + "fwd_grad_" + vars[i].name()), 1e-6,
                     "forward grad " + vars[i].name());
    }

    // Keras's config (the initializer aside: the layer here keeps the default one).
    json ours = layer->get_config();
    for (const char* key : {"input_dim", "output_dim", "tie_weights", "reverse_dtype",
                            "logit_soft_cap", "mask_zero", "name", "trainable",
                            "quantization_config"})
      EXPECT_EQ(ours[key], configs()[c][key]) << key;
    EXPECT_EQ(ours.size(), configs()[c].size()) << ours.dump();

    // int8: Keras's variables and outputs.
    layer->quantize("int8");
    for (const Variable& v : layer->weights())
      expect_close(v.value(), fixture(p + "int8.var." + v.name()), 1e-6, "int8 " + v.name());
    EXPECT_EQ(layer->weights().size(), layer->tie_weights() ? 2u : 4u);
    expect_close(layer(ids), fixture(p + "int8.forward"), 1e-6, "int8 forward");
    expect_close(layer->reverse(h), fixture(p + "int8.reverse"), 1e-5, "int8 reverse");
    json q = layer->get_config();
    EXPECT_EQ(q["quantization_config"], configs()[c + ".int8"]["quantization_config"]);
    EXPECT_EQ(q["dtype"]["config"], configs()[c + ".int8"]["dtype"]["config"]);
  }
  std::cout << "[ ReversibleEmbedding ] largest difference from Keras: " << worst_diff << "\n";
}

TEST(ReversibleEmbeddingOracle, KerasFileLoadsAndSavesAlike) {
  const std::string path = std::string(KERAS_ORACLE_DIR) + "/multi_optimizer/reversible_embedding.keras";
  backend::clear_session();
  auto model = saving::load_model(path);
  auto weights = model->weights();
  ASSERT_EQ(weights.size(), 2u);
  expect_close(weights[0].value(), fixture("re.file.embeddings"), 0, "embeddings");
  expect_close(weights[1].value(), fixture("re.file.reverse_embeddings"), 0, "reverse");
  expect_close(model->predict(TensorStruct(fixture("re.ids")), {.verbose = 0}).flat().at(0),
               fixture("re.file.forward"), 1e-6, "predict");
  const std::string ours =
      (std::filesystem::temp_directory_path() / "reversible_embedding_cpp.keras").string();
  model->save(ours);
  auto h5 = [](const std::string& p) {
    auto members = saving::read_zip_members(saving::read_file_bytes(p), p);
    return saving::H5File::open_image(members.at("model.weights.h5"), p);
  };
  saving::H5File mine = h5(ours), theirs = h5(path);
  const std::string vars = "layers/reversible_embedding/vars";
  ASSERT_EQ(mine.children(vars), theirs.children(vars));
  for (const std::string& i : theirs.children(vars))
    expect_close(mine.read(vars + "/" + i), theirs.read(vars + "/" + i), 0, vars + "/" + i);
  std::filesystem::remove(ours);
}

TEST(ReversibleEmbedding, BadInputsAndSymbolicReverse) {
  auto layer = L::ReversibleEmbedding(5, 3, {.tie_weights = false});
  EXPECT_THROW(layer->reverse(ops::ones({2, 4})), ValueError);  // last axis must be 3
  EXPECT_EQ(layer->reverse(ops::ones({2, 3})).shape(), (Shape{2, 5}));
  EXPECT_THROW(L::ReversibleEmbedding(5, 3, {.reverse_dtype = "floaty"}), ValueError);
  auto input = Input({4}, {.dtype = DType::Float32});
  EXPECT_THROW(layer->reverse(input), NotImplementedError);
  auto tied = L::ReversibleEmbedding(5, 3);
  tied->ensure_built({Shape{2}}, /*list_input=*/false);
  EXPECT_THROW(tied->quantize("int4"), NotImplementedError);
  // The forward call keeps Embedding's id check.
  EXPECT_THROW(tied(ops::convert_to_tensor(std::vector<int32_t>{7}, {1})), ValueError);
}

}  // namespace
}  // namespace keras

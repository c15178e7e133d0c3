// The legacy Keras 2 .h5 format: config translation to the Keras 3 schema (KERAS_REFERENCE
// 1.4-1.6) on the real churn file's model_config and on hand-written Keras 2 configs, and
// weights loading from files h5py wrote in Keras 2's layout (tools/golden/legacy_h5_files.py).

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/legacy_h5.h"
#include "keras/saving/save_model.h"

namespace keras {
namespace {

namespace legacy = saving::legacy;

std::string legacy_dir() {
  return std::string(KERAS_GOLDEN_DIR) + "/legacy_h5/";
}
std::string churn_path() {
  return std::string(KERAS_SHARED_DIR) + "/models/churn_functional_keras2.h5";
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

Config churn_model_config() {
  auto file = saving::H5File::open(churn_path());
  return Config::parse(*file.string_attribute("", "model_config"));
}

std::set<std::string> keys_of(const Config& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

TEST(LegacyConfig, ChurnFunctionalHasTheKeras3Shape) {
  if (!std::filesystem::exists(churn_path())) GTEST_SKIP() << churn_path() << " is not here";
  Config record = legacy::translate_model_config(churn_model_config());
  // KERAS_REFERENCE 1.3/1.5: the Functional record and its config.
  EXPECT_EQ(record["module"], "keras.src.models.functional");
  EXPECT_EQ(record["class_name"], "Functional");
  EXPECT_EQ(record["registered_name"], "Functional");
  const Config& config = record["config"];
  EXPECT_EQ(keys_of(config), (std::set<std::string>{"name", "trainable", "layers", "input_layers",
                                                    "output_layers"}));
  EXPECT_EQ(config["name"], "model");
  EXPECT_EQ(config["input_layers"], Config::parse(R"([["input_1", 0, 0]])"));
  EXPECT_EQ(config["output_layers"], Config::parse(R"([["dense_3", 0, 0]])"));
  ASSERT_EQ(config["layers"].size(), 7u);
  for (const auto& layer : config["layers"])
    EXPECT_EQ(keys_of(layer), (std::set<std::string>{"module", "class_name", "config",
                                                     "registered_name", "name", "inbound_nodes"}))
        << layer.dump();
  // The InputLayer: batch_shape instead of batch_input_shape, no inbound nodes.
  const Config& input = config["layers"][0];
  EXPECT_EQ(input["module"], "keras.layers");
  EXPECT_EQ(input["config"]["batch_shape"], Config::parse("[null, 30]"));
  EXPECT_FALSE(input["config"].contains("batch_input_shape"));
  EXPECT_EQ(input["config"]["dtype"], "float32");
  EXPECT_EQ(input["inbound_nodes"], Config::array());
  // A Dense: one input -> args: [kt]; the string dtype and the initializer module stay.
  const Config& dense = config["layers"][1];
  EXPECT_EQ(dense["name"], "dense");
  EXPECT_EQ(dense["registered_name"], nullptr);
  EXPECT_EQ(dense["config"]["dtype"], "float32");
  EXPECT_EQ(dense["config"]["activation"], "relu");
  EXPECT_EQ(dense["config"]["kernel_initializer"]["module"], "keras.initializers");
  ASSERT_EQ(dense["inbound_nodes"].size(), 1u);
  const Config& node = dense["inbound_nodes"][0];
  EXPECT_EQ(keys_of(node), (std::set<std::string>{"args", "kwargs"}));
  EXPECT_EQ(node["kwargs"], Config::object());
  ASSERT_EQ(node["args"].size(), 1u);
  const Config& kt = node["args"][0];
  EXPECT_EQ(kt["class_name"], "__keras_tensor__");
  EXPECT_EQ(kt["config"]["keras_history"], Config::parse(R"(["input_1", 0, 0])"));
  EXPECT_EQ(kt["config"]["dtype"], "float32");
  // A Concatenate: several inputs -> args: [[kt1, kt2]].
  const Config& concat = config["layers"][3];
  EXPECT_EQ(concat["class_name"], "Concatenate");
  const Config& args = concat["inbound_nodes"][0]["args"];
  ASSERT_EQ(args.size(), 1u);
  ASSERT_TRUE(args[0].is_array());
  ASSERT_EQ(args[0].size(), 2u);
  EXPECT_EQ(args[0][0]["config"]["keras_history"], Config::parse(R"(["dense", 0, 0])"));
  EXPECT_EQ(args[0][1]["config"]["keras_history"], Config::parse(R"(["dense_1", 0, 0])"));
}

TEST(LegacyConfig, ChurnLayersDeserializeFromTheTranslatedRecords) {
  if (!std::filesystem::exists(churn_path())) GTEST_SKIP() << churn_path() << " is not here";
  Config record = legacy::translate_model_config(churn_model_config());
  std::vector<std::string> classes;
  for (const auto& layer_record : record["config"]["layers"]) {
    if (layer_record["class_name"] == "InputLayer") continue;
    auto layer = layers::deserialize(layer_record);
    EXPECT_EQ(layer->name(), layer_record["name"]);
    EXPECT_FALSE(layer->trainable()) << layer->name();  // the file froze every layer
    classes.push_back(layer->class_name());
  }
  EXPECT_EQ(classes, (std::vector<std::string>{"Dense", "Dense", "Concatenate", "Dense",
                                               "Concatenate", "Dense"}));
}

TEST(LegacyConfig, Keras2SequentialGetsAnInputLayerAndModules) {
  // Keras 2.0-2.3: the first layer holds batch_input_shape; a mixed-precision policy record;
  // a one-element axis list; initializer/regularizer/constraint records without module.
  Config keras2 = Config::parse(R"({"class_name": "Sequential", "config": {"name": "seq",
    "layers": [
      {"class_name": "Dense", "config": {"name": "dense", "trainable": true,
        "batch_input_shape": [null, 8], "dtype": "float32", "units": 4, "activation": "relu",
        "kernel_initializer": {"class_name": "VarianceScaling",
                               "config": {"scale": 1.0, "mode": "fan_avg"}},
        "kernel_regularizer": {"class_name": "L1L2", "config": {"l1": 0.0, "l2": 0.01}},
        "kernel_constraint": {"class_name": "MaxNorm", "config": {"max_value": 2, "axis": 0}}}},
      {"class_name": "BatchNormalization", "config": {"name": "bn", "axis": [1],
        "dtype": {"class_name": "Policy", "config": {"name": "mixed_float16"}}}},
      {"class_name": "Dense", "config": {"name": "out", "units": 1, "activation": "linear"}}
    ]}})");
  Config record = legacy::translate_model_config(keras2);
  EXPECT_EQ(record["module"], "keras");
  EXPECT_EQ(record["class_name"], "Sequential");
  EXPECT_EQ(record["registered_name"], nullptr);
  const Config& config = record["config"];
  EXPECT_EQ(config["name"], "seq");
  EXPECT_EQ(config["build_input_shape"], Config::parse("[null, 8]"));
  const Config& layers = config["layers"];
  ASSERT_EQ(layers.size(), 4u);
  EXPECT_EQ(layers[0], Config::parse(R"({"module": "keras.layers", "class_name": "InputLayer",
    "config": {"batch_shape": [null, 8], "dtype": "float32", "sparse": false, "ragged": false,
               "name": "dense_input"}, "registered_name": null})"));
  const Config& dense = layers[1]["config"];
  EXPECT_FALSE(dense.contains("batch_input_shape"));
  EXPECT_EQ(dense["kernel_initializer"]["module"], "keras.initializers");
  EXPECT_EQ(dense["kernel_initializer"]["registered_name"], nullptr);
  EXPECT_EQ(dense["kernel_regularizer"]["module"], "keras.regularizers");
  EXPECT_EQ(dense["kernel_constraint"]["module"], "keras.constraints");
  EXPECT_EQ(dense["activation"], "relu");
  const Config& bn = layers[2]["config"];
  EXPECT_EQ(bn["axis"], 1);
  EXPECT_EQ(bn["dtype"], Config::parse(R"({"module": "keras", "class_name": "DTypePolicy",
    "config": {"name": "mixed_float16"}, "registered_name": null})"));
}

TEST(LegacyConfig, OldModelClassAndNodeKwargs) {
  Config keras2 = Config::parse(R"({"class_name": "Model", "config": {"name": "m",
    "layers": [
      {"class_name": "InputLayer", "name": "x", "inbound_nodes": [],
       "config": {"batch_input_shape": [null, 3], "dtype": "float32", "name": "x"}},
      {"class_name": "Dropout", "name": "drop", "config": {"name": "drop", "rate": 0.5},
       "inbound_nodes": [[["x", 0, 0, {"training": true}]]]}],
    "input_layers": [["x", 0, 0]], "output_layers": [["drop", 0, 0]]}})");
  Config record = legacy::translate_model_config(keras2);
  EXPECT_EQ(record["class_name"], "Functional");
  EXPECT_TRUE(record["config"]["trainable"].get<bool>());
  const Config& node = record["config"]["layers"][1]["inbound_nodes"][0];
  EXPECT_EQ(node["kwargs"], Config::parse(R"({"training": true})"));
  EXPECT_EQ(node["args"][0]["config"]["keras_history"], Config::parse(R"(["x", 0, 0])"));
}

TEST(LegacyConfig, RenamedArgumentsAndKeras3WrittenH5) {
  // Keras 2 arguments Keras 3 renamed or dropped.
  Config keras2 = Config::parse(R"({"class_name": "Sequential", "config": {"name": "s",
    "layers": [
      {"class_name": "Embedding", "config": {"name": "e", "input_dim": 10, "output_dim": 4,
        "input_length": 7, "batch_input_shape": [null, 7]}},
      {"class_name": "LSTM", "config": {"name": "l", "units": 2, "implementation": 2,
        "time_major": false}},
      {"class_name": "LeakyReLU", "config": {"name": "r", "alpha": 0.3}}]}})");
  const Config layers = legacy::translate_model_config(keras2)["config"]["layers"];
  ASSERT_EQ(layers.size(), 4u);
  EXPECT_EQ(layers[0]["config"]["name"], "e_input");
  EXPECT_FALSE(layers[1]["config"].contains("input_length"));
  EXPECT_EQ(keys_of(layers[2]["config"]), (std::set<std::string>{"name", "units"}));
  EXPECT_EQ(layers[3]["config"], Config::parse(R"({"name": "r", "negative_slope": 0.3})"));
  // model.save("x.h5") in Keras 3: records already have module/registered_name (a custom
  // class keeps its own), nodes are already {"args", "kwargs"}.
  Config keras3 = Config::parse(R"({"module": "keras.src.models.functional",
    "class_name": "Functional", "registered_name": "Functional", "config": {"name": "f",
    "trainable": true, "layers": [
      {"module": "keras.layers", "class_name": "InputLayer", "registered_name": null,
       "name": "in", "inbound_nodes": [],
       "config": {"batch_shape": [null, 2], "dtype": "float32", "name": "in"}},
      {"module": "my_pkg", "class_name": "Scale", "registered_name": "pkg>Scale",
       "name": "s", "build_config": {"input_shape": [null, 2]},
       "config": {"name": "s", "dtype": {"module": "keras", "class_name": "DTypePolicy",
                  "config": {"name": "float32"}, "registered_name": null}},
       "inbound_nodes": [{"args": [{"class_name": "__keras_tensor__", "config":
          {"shape": [null, 2], "dtype": "float32", "keras_history": ["in", 0, 0]}}],
          "kwargs": {}}]}],
    "input_layers": [["in", 0, 0]], "output_layers": [["s", 0, 0]]}})");
  Config again = legacy::translate_model_config(keras3);
  EXPECT_EQ(again["config"], keras3["config"]);
}

TEST(LegacyConfig, MalformedConfigsAreClearErrors) {
  EXPECT_CONTAINS(error_of([] { legacy::translate_model_config(Config::parse("[1, 2]")); }),
                  "expected {\"class_name\"");
  Config unknown_input = Config::parse(R"({"class_name": "Functional", "config": {"name": "m",
    "layers": [{"class_name": "Dense", "name": "d", "config": {"name": "d", "units": 1},
                "inbound_nodes": [[["nowhere", 0, 0, {}]]]}],
    "input_layers": [], "output_layers": []}})");
  EXPECT_CONTAINS(error_of([&] { legacy::translate_model_config(unknown_input); }),
                  "takes its input from 'nowhere'");
  Config bad_entry = unknown_input;
  bad_entry["config"]["layers"][0]["inbound_nodes"] = Config::parse(R"([[["d", 0]]])");
  EXPECT_CONTAINS(error_of([&] { legacy::translate_model_config(bad_entry); }),
                  "expected [layer_name, node_index, tensor_index, kwargs]");
  Config wrong_type = unknown_input;
  wrong_type["config"]["layers"][0]["inbound_nodes"] = Config::array();
  wrong_type["config"]["name"] = 5;
  EXPECT_CONTAINS(error_of([&] { legacy::translate_model_config(wrong_type); }), "malformed");
}

TEST(LegacyTrainingConfig, ChurnBecomesAKeras3CompileConfig) {
  if (!std::filesystem::exists(churn_path())) GTEST_SKIP() << churn_path() << " is not here";
  auto file = saving::H5File::open(churn_path());
  Config compile = legacy::translate_training_config(
      Config::parse(*file.string_attribute("", "training_config")));
  EXPECT_EQ(keys_of(compile), (std::set<std::string>{"optimizer", "loss", "loss_weights", "metrics",
                                                     "weighted_metrics", "run_eagerly",
                                                     "steps_per_execution", "jit_compile"}));
  const Config& optimizer = compile["optimizer"];
  EXPECT_EQ(optimizer["module"], "keras.optimizers");
  EXPECT_EQ(optimizer["class_name"], "Adam");  // was "Custom>Adam"
  EXPECT_EQ(optimizer["registered_name"], nullptr);
  // KERAS_REFERENCE 1.6's Adam keys, no Keras 2 leftovers.
  EXPECT_EQ(keys_of(optimizer["config"]),
            (std::set<std::string>{
                "name", "learning_rate", "weight_decay", "clipnorm", "global_clipnorm", "clipvalue",
                "use_ema", "ema_momentum", "ema_overwrite_frequency", "loss_scale_factor",
                "gradient_accumulation_steps", "beta_1", "beta_2", "epsilon", "amsgrad"}));
  EXPECT_DOUBLE_EQ(optimizer["config"]["learning_rate"].get<double>(), 0.00020000000949949026);
  // The record is one the optimizer registry reads.
  auto adam = optimizers::deserialize(optimizer);
  EXPECT_EQ(adam->class_name(), "Adam");
  EXPECT_NEAR(adam->learning_rate(), 0.0002, 1e-9);
  EXPECT_EQ(compile["loss"], "binary_crossentropy");
  EXPECT_EQ(compile["metrics"], Config::parse(R"(["binary_accuracy"])"));
  EXPECT_EQ(compile["weighted_metrics"], nullptr);
  EXPECT_EQ(compile["loss_weights"], nullptr);
}

TEST(LegacyTrainingConfig, OldOptimizerKeysAndLossRecords) {
  Config compile = legacy::translate_training_config(Config::parse(R"({
    "optimizer_config": {"class_name": "SGD", "config": {"name": "SGD", "lr": 0.01,
                         "decay": 0.0, "momentum": 0.9, "nesterov": false}},
    "loss": {"out": {"class_name": "CategoricalCrossentropy",
                     "config": {"reduction": "auto", "name": "cce", "from_logits": true}}},
    "metrics": {"out": ["acc", {"class_name": "AUC", "config": {"name": "auc"}}]},
    "loss_weights": {"out": 0.5}})"));
  const Config& sgd = compile["optimizer"]["config"];
  EXPECT_EQ(compile["optimizer"]["class_name"], "SGD");
  EXPECT_DOUBLE_EQ(sgd["learning_rate"].get<double>(), 0.01);
  EXPECT_FALSE(sgd.contains("lr"));
  EXPECT_FALSE(sgd.contains("decay"));
  EXPECT_EQ(sgd["momentum"], 0.9);
  EXPECT_NEAR(optimizers::deserialize(compile["optimizer"])->learning_rate(), 0.01, 1e-9);
  const Config& loss = compile["loss"]["out"];
  EXPECT_EQ(loss["module"], "keras.losses");
  EXPECT_EQ(loss["config"]["reduction"], "sum_over_batch_size");
  EXPECT_EQ(compile["metrics"]["out"][0], "acc");
  EXPECT_EQ(compile["metrics"]["out"][1]["module"], "keras.metrics");
  EXPECT_EQ(compile["loss_weights"]["out"], 0.5);
  EXPECT_CONTAINS(error_of([] { legacy::translate_training_config(Config::parse("{}")); }),
                  "no optimizer_config");
}

// Input(4) -> Dense(3) -> BatchNormalization -> Dropout -> Dense(2), as the fixtures hold.
ModelPtr<SequentialModel> small_model(int last_units = 2) {
  backend::clear_session();
  return Sequential({Input({4}), layers::Dense(3, {.activation = "relu"}),
                     layers::BatchNormalization(), layers::Dropout(0.5),
                     layers::Dense(last_units, {.activation = "softmax"})});
}

void expect_weights_of(Model& model, const std::string& file_name, const std::string& group) {
  auto file = saving::H5File::open(legacy_dir() + file_name);
  auto at = [&](const std::string& layer, const std::string& weight) {
    return file.read((group.empty() ? "" : group + "/") + layer + "/" + layer + "/" + weight);
  };
  // Sequential's layers() leaves out the InputLayer, as in Keras.
  auto dense = model.get_layer(0), bn = model.get_layer(1), dense_1 = model.get_layer(3);
  EXPECT_TENSOR_EQ(dense->weights()[0].value(), at("dense", "kernel:0"));
  EXPECT_TENSOR_EQ(dense->weights()[1].value(), at("dense", "bias:0"));
  // BatchNormalization: gamma, beta trainable, then moving_mean, moving_variance.
  EXPECT_TENSOR_EQ(bn->weights()[0].value(), at("batch_normalization", "gamma:0"));
  EXPECT_TENSOR_EQ(bn->weights()[1].value(), at("batch_normalization", "beta:0"));
  EXPECT_TENSOR_EQ(bn->weights()[2].value(), at("batch_normalization", "moving_mean:0"));
  EXPECT_TENSOR_EQ(bn->weights()[3].value(), at("batch_normalization", "moving_variance:0"));
  EXPECT_TENSOR_EQ(dense_1->weights()[0].value(), at("dense_1", "kernel:0"));
  EXPECT_TENSOR_EQ(dense_1->weights()[1].value(), at("dense_1", "bias:0"));
}

TEST(LegacyWeights, WeightsOnlyFileByOrderAndByName) {
  auto model = small_model();
  EXPECT_EQ(model->get_layer(1)->class_name(), "BatchNormalization");
  legacy::load_legacy_weights(*model, legacy_dir() + "weights_only.h5");
  expect_weights_of(*model, "weights_only.h5", "");
  // By name: the layers keep their auto names (dense, batch_normalization, dropout, dense_1).
  auto again = small_model();
  legacy::load_legacy_weights(*again, legacy_dir() + "weights_only.h5", /*by_name=*/true);
  expect_weights_of(*again, "weights_only.h5", "");
}

TEST(LegacyWeights, FullModelFileWeightsAndConfig) {
  auto file = legacy::read_legacy_h5(legacy_dir() + "sequential_full.h5");
  EXPECT_EQ(file.keras_version, "2.9.0");
  const Config& layers = file.model_config["config"]["layers"];
  ASSERT_EQ(layers.size(), 5u);
  EXPECT_EQ(layers[0]["config"]["name"], "dense_input");
  EXPECT_EQ(layers[0]["config"]["batch_shape"], Config::parse("[null, 4]"));
  EXPECT_EQ(layers[2]["config"]["axis"], 1);
  // Every translated layer record deserializes (initializer, regularizer, constraint records).
  for (size_t i = 1; i < layers.size(); ++i)
    EXPECT_EQ(layers::deserialize(layers[i])->name(), layers[i]["config"]["name"]);
  EXPECT_EQ(file.compile_config["optimizer"]["config"]["learning_rate"], 0.0020000000949949026);
  EXPECT_EQ(file.compile_config["metrics"], Config::parse(R"(["sparse_categorical_accuracy"])"));
  auto model = small_model();
  file.load_weights(*model, false);
  expect_weights_of(*model, "sequential_full.h5", "model_weights");
}

TEST(LegacyWeights, LoadModelOnAKeras2Sequential) {
  backend::clear_session();
  auto model = saving::load_model(legacy_dir() + "sequential_full.h5");
  EXPECT_EQ(model->class_name(), "Sequential");
  EXPECT_EQ(model->name(), "sequential");
  auto* sequential = dynamic_cast<SequentialModel*>(model.get());
  ASSERT_NE(sequential, nullptr);
  std::vector<std::string> names;
  for (const auto& layer : model->layers()) names.push_back(layer->name());
  EXPECT_EQ(names,
            (std::vector<std::string>{"dense", "batch_normalization", "dropout", "dense_1"}));
  expect_weights_of(*model, "sequential_full.h5", "model_weights");
  EXPECT_TRUE(model->compiled());
  EXPECT_NEAR(model->optimizer()->learning_rate(), 0.002, 1e-9);
  // A weights-only file is not a model.
  EXPECT_CONTAINS(error_of([] { saving::load_model(legacy_dir() + "weights_only.h5"); }),
                  "weights-only .h5 file");
}

TEST(LegacyWeights, BadFilesAreClearErrors) {
  // A weight count mismatch names both layers and the counts.
  auto model = small_model();
  std::string count =
      error_of([&] { legacy::load_legacy_weights(*model, legacy_dir() + "bad_weight_count.h5"); });
  EXPECT_CONTAINS(count, "Weight count mismatch for layer #2");  // #0 dense, #1 batch_norm
  EXPECT_CONTAINS(count, "named 'dense_1' in the model, 'dense_1' in");
  EXPECT_CONTAINS(count, "expects 2 weight(s), the file holds 1 [dense_1/kernel:0]");
  // Nothing was assigned: the first Dense's kernel is not the file's.
  auto file = saving::H5File::open(legacy_dir() + "bad_weight_count.h5");
  EXPECT_FALSE(ops::all(ops::equal(model->get_layer(0)->weights()[0].value(),
                                   file.read("dense/dense/kernel:0")))
                   .item<bool>());
  // A layer count mismatch.
  backend::clear_session();
  auto shorter = Sequential({Input({4}), layers::Dense(2)});
  EXPECT_CONTAINS(
      error_of([&] { legacy::load_legacy_weights(*shorter, legacy_dir() + "weights_only.h5"); }),
      "Layer count mismatch");
  // A shape mismatch names the layer, the weight and both shapes; skip_mismatch skips it.
  auto wider = small_model(5);
  std::string shape =
      error_of([&] { legacy::load_legacy_weights(*wider, legacy_dir() + "weights_only.h5"); });
  EXPECT_CONTAINS(shape, "Shape mismatch in layer #2 (named 'dense_1')");
  EXPECT_CONTAINS(shape, "(3, 5)");
  EXPECT_CONTAINS(shape, "(3, 2)");
  legacy::load_legacy_weights(*wider, legacy_dir() + "weights_only.h5", false,
                              /*skip_mismatch=*/true);
  EXPECT_TENSOR_EQ(wider->get_layer(0)->weights()[0].value(), file.read("dense/dense/kernel:0"));
  // A file without model_config; a weights-only file given to the model reader.
  EXPECT_CONTAINS(error_of([] { legacy::read_legacy_h5(legacy_dir() + "no_model_config.h5"); }),
                  "No model config found");
  EXPECT_CONTAINS(error_of([] { legacy::read_legacy_h5(legacy_dir() + "weights_only.h5"); }),
                  "weights-only .h5 file");
  // Hostile JSON: nested far deeper than any model.
  EXPECT_CONTAINS(error_of([] { legacy::read_legacy_h5(legacy_dir() + "deep_config.h5"); }),
                  "nests deeper than 256 levels");
  // Not HDF5 at all.
  EXPECT_CONTAINS(error_of([] {
                    legacy::read_legacy_h5(std::vector<uint8_t>{'P', 'K', 3, 4}, "x.h5");
                  }),
                  "not an HDF5 file");
}

}  // namespace
}  // namespace keras

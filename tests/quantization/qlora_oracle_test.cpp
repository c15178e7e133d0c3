// LoRA on quantized layers (QLoRA) against Keras 3.15 (tools/keras_oracle/qlora.py): per case
// (Dense, EinsumDense, Embedding; int8, int4 per channel, int4 in blocks; quantize then
// enable_lora, and enable_lora then quantize) the variables, the kernel property, the outputs
// and the gradients of the adapters, bias and inputs for Keras's weights; the saved file (the
// merged kernel requantized: int values bit-equal, scales to 1e-6) and its configs; Keras's
// file loaded and predicting the same; one SGD step moving only the adapters and the bias.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "assertions.h"
#include "json_diff.h"
#include "keras/keras.h"
#include "keras/layers/registry.h"
#include "keras_quantized_files.h"

namespace keras {
namespace {

using test::json;

const test::KerasQuantizedFiles& keras_files() {
  static const auto* f = new test::KerasQuantizedFiles("qlora");
  return *f;
}

const json& meta() {
  static const json m = [] {
    std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/qlora.json");
    return json::parse(in);
  }();
  return m;
}

const std::vector<std::string> kCases = {"dense_int8",  "dense_int4_pc",  "dense_int4_b4",
                                         "einsum_int8", "einsum_int4",    "embedding_int8",
                                         "embedding_int4"};
const std::vector<std::string> kOrders = {"q_then_l", "l_then_q"};

std::string class_of(const std::string& name) {
  if (name.rfind("einsum", 0) == 0) return "EinsumDense";
  return name.rfind("embedding", 0) == 0 ? "Embedding" : "Dense";
}

Tensor merged_weight(const Layer& layer) {
  if (auto* e = dynamic_cast<const layers::EmbeddingLayer*>(&layer)) return e->embeddings();
  if (auto* d = dynamic_cast<const layers::DenseLayer*>(&layer)) return d->kernel();
  return dynamic_cast<const layers::EinsumDenseLayer&>(layer).kernel();
}

struct QloraCase {
  std::string name, key;  ///< "dense_int8", "dense_int8.q_then_l"
  std::shared_ptr<Model> model;
  std::shared_ptr<layers::LoraLayer> layer;
  Tensor x;
};

// The case's model as qlora.py made it: Keras's float layer and weights, quantize() and
// enable_lora() in the case's order, then Keras's (non-zero) adapters.
QloraCase keras_case(const std::string& name, const std::string& order) {
  backend::clear_session();
  const std::string key = name + "." + order;
  const json& c = meta().at(key);
  QloraCase out;
  out.name = name;
  out.key = key;
  out.x = keras_files().at(key + ".x");
  out.layer = std::dynamic_pointer_cast<layers::LoraLayer>(
      layers::from_config(class_of(name), c.at("config")));
  Shape input_shape(out.x.shape().begin() + 1, out.x.shape().end());
  out.model = Sequential({Input(input_shape, {.dtype = out.x.dtype()}), out.layer}, {.name = name});
  for (const Variable& v : out.layer->weights())
    Variable(v).assign(keras_files().at(key + ".float." + v.name()));
  auto quantize = [&] {
    quantizers::QuantizationConfigPtr config;
    if (c.at("mode") == "int4")
      config = quantizers::Int4QuantizationConfig({.block_size = c.at("block_size").get<int64_t>()});
    out.model->quantize(c.at("mode").get<std::string>(), config);
  };
  auto enable = [&] {
    layers::LoraOptions options;
    if (!c.at("lora_alpha").is_null())
      options.lora_alpha = c.at("lora_alpha").is_number_integer()
                               ? Scalar(c.at("lora_alpha").get<int64_t>())
                               : Scalar(c.at("lora_alpha").get<double>());
    out.layer->enable_lora(c.at("rank").get<int64_t>(), options);
  };
  if (order == "q_then_l") {
    quantize();
    enable();
  } else {
    enable();
    quantize();
  }
  for (const Variable& v : out.layer->weights())
    if (v.name().rfind("lora_", 0) == 0)
      Variable(v).assign(keras_files().at(key + ".var." + v.name()));
  return out;
}

// Each variable of the layer against Keras's <prefix><name>: ints bit-equal, floats close.
void expect_keras_variables(const Layer& layer, const std::string& prefix, double rtol,
                            double atol) {
  for (const Variable& v : layer.weights()) {
    const Tensor& expected = keras_files().at(prefix + v.name());
    EXPECT_EQ(v.dtype(), expected.dtype()) << v.path();
    if (is_integer(expected.dtype())) EXPECT_TENSOR_EQ(v.value(), expected) << v.path();
    else EXPECT_TENSOR_NEAR(v.value(), expected, rtol, atol) << v.path();
  }
}

// `check` on every case in both orders, each built afresh.
template <typename Check>
void for_each_case(const Check& check) {
  for (const std::string& name : kCases)
    for (const std::string& order : kOrders) {
      SCOPED_TRACE(name + "." + order);
      check(keras_case(name, order));
    }
}

std::string temp_file(const std::string& stem) {
  return (std::filesystem::temp_directory_path() / ("qlora_" + stem + ".keras")).string();
}

TEST(QloraOracle, VariablesOutputsAndGradientsAreKeras) {
  for_each_case([](const QloraCase& c) {
    const std::string& key = c.key;
    // Keras's variables (the quantized base bit-equal), names, order and trainable flags.
    expect_keras_variables(*c.layer, key + ".var.", 1e-6, 0);
    const json& weights = meta().at(key).at("weights");
    ASSERT_EQ(c.layer->weights().size(), weights.size());
    for (size_t i = 0; i < weights.size(); ++i) {
      EXPECT_EQ(c.layer->weights()[i].name(), weights[i].at("name").get<std::string>());
      EXPECT_EQ(c.layer->weights()[i].trainable(), weights[i].at("trainable").get<bool>());
    }
    EXPECT_EQ(c.layer->dtype_policy().name, meta().at(key).at("policy").get<std::string>());
    EXPECT_TENSOR_NEAR(merged_weight(*c.layer), keras_files().at(key + ".kernel"), 1e-5, 1e-6);
    EXPECT_TENSOR_NEAR((*c.layer)(c.x), keras_files().at(key + ".y"), 1e-5, 1e-6);

    // d sum(y * probe) / d (trainable variables, inputs), against JAX's.
    const Tensor probe = keras_files().at(key + ".probe");
    std::vector<Variable> trainable = c.layer->trainable_weights();
    auto [loss, grads] = value_and_grad(
        [&] { return ops::sum(ops::multiply((*c.layer)(c.x), probe)); }, trainable);
    for (size_t i = 0; i < trainable.size(); ++i)
      EXPECT_TENSOR_NEAR(grads[i], keras_files().at(key + ".grad." + trainable[i].name()),
                         1e-5, 1e-6)
          << trainable[i].name();
    if (!is_integer(c.x.dtype())) {
      GradientTape tape;
      Tensor x = c.x;
      tape.watch(x);
      Tensor g = tape.gradient(ops::sum(ops::multiply((*c.layer)(x), probe)), x);
      EXPECT_TENSOR_NEAR(g, keras_files().at(key + ".grad_x"), 1e-5, 1e-6);
    }
  });
}

TEST(QloraOracle, SavedFileIsKerassMergedRequantizedFile) {
  for_each_case([](const QloraCase& c) {
    const std::string& key = c.key;
    const std::string ours = temp_file(key), keras = keras_files().file(c.name);
    c.model->save(ours);
    // dtype and quantization_config, and the weights: kernel, bias, kernel_scale (and
    // kernel_zero, g_idx) in Keras's order, ints bit-equal, floats to 1e-6.
    test::expect_same_quantized_file(ours, keras, key);
    const json mine = test::layer_configs(ours).at(c.layer->name());
    const json theirs = test::layer_configs(keras).at(c.layer->name());
    EXPECT_EQ(test::json_differences(mine, test::comparable_keras_config(theirs)),
              std::vector<std::string>{});
    std::filesystem::remove(ours);
  });
}

TEST(QloraOracle, KerasFilesLoadWithZeroAdaptersAndPredictTheSame) {
  for (const std::string& name : kCases) {
    SCOPED_TRACE(name);
    backend::clear_session();
    auto model = saving::load_model(keras_files().file(name));
    const std::string key = name + ".q_then_l";
    Tensor y = model->predict(TensorStruct(keras_files().at(key + ".x")), {.verbose = 0})
                   .flat()
                   .at(0);
    EXPECT_TENSOR_NEAR(y, keras_files().at(key + ".loaded_y"), 1e-5, 1e-6);
    auto* layer = dynamic_cast<layers::LoraLayer*>(model->layers().back().get());
    ASSERT_TRUE(layer);
    EXPECT_TRUE(layer->lora_enabled());
    EXPECT_FALSE(layer->quantization_mode().empty());
    for (const Variable& v : layer->trainable_weights())
      if (v.name().rfind("lora_", 0) == 0) {
        EXPECT_EQ(ops::max(ops::absolute(v.value())).item<double>(), 0.0) << v.path();
      }
  }
}

TEST(QloraOracle, SgdStepMovesOnlyAdaptersAndBiasAsKeras) {
  for_each_case([](const QloraCase& c) {
    const std::string& key = c.key;
    c.model->compile({.optimizer = optimizers::SGD(0.1), .loss = "mse"});
    c.model->train_on_batch(TensorStruct(c.x), TensorStruct(keras_files().at(key + ".target")));
    expect_keras_variables(*c.layer, key + ".fit.var.", 1e-5, 1e-6);
    for (const Variable& v : c.layer->weights())
      if (v.name().rfind("lora_", 0) == 0) {  // moved, as Keras's
        EXPECT_FALSE(test::tensors_near(v.value(), keras_files().at(key + ".var." + v.name()),
                                        0, 1e-7))
            << v.path();
      }
  });
}

}  // namespace
}  // namespace keras

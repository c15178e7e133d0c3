// LoRA against Keras 3.15 (tools/keras_oracle/lora.py): per layer case the config, the weights
// (names, paths, shapes, order, trainable split), the merged kernel, the outputs and the
// gradients of the trainable weights for the same weights and inputs; and the .keras files Keras
// saved with LoRA enabled, loaded here.

#include <gtest/gtest.h>

#include <fstream>

#include "assertions.h"
#include "golden.h"
#include "json_diff.h"
#include "keras/keras.h"
#include "keras/layers/core/lora.h"
#include "keras/layers/registry.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

using test::json;

const json& meta() {
  static const json m = [] {
    std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/lora.json");
    return json::parse(in);
  }();
  return m;
}

const std::map<std::string, Tensor>& arrays() {
  static const std::map<std::string, Tensor> a = utils::load_npz(test::oracle_path("lora"));
  return a;
}

const Tensor& array(const std::string& key) {
  auto it = arrays().find(key);
  if (it == arrays().end()) throw std::runtime_error("lora.npz has no " + key);
  return it->second;
}

std::string differences(const json& actual, const json& expected) {
  std::string out;
  for (const std::string& d : test::json_differences(actual, test::comparable_keras_config(expected)))
    out += "  " + d + "\n";
  return out;
}

// The Keras class a case's config is of (lora.py records configs, not class names).
std::string class_of(const json& config) {
  if (config.contains("equation")) return "EinsumDense";
  if (config.contains("filters"))
    return "Conv" + std::to_string(config.at("kernel_size").size()) + "D";
  return config.contains("input_dim") ? "Embedding" : "Dense";
}

// The case's layer as Keras had it: built from Keras's config without the LoRA keys, built on
// the input's shape, enable_lora as lora.py called it, Keras's weights set.
std::shared_ptr<layers::LoraLayer> keras_layer(const std::string& name) {
  const json& c = meta().at(name);
  json config = c.at("config");
  config.erase("lora_rank");
  config.erase("lora_alpha");
  auto layer = std::dynamic_pointer_cast<layers::LoraLayer>(
      layers::from_config(class_of(c.at("config")), config));
  EXPECT_TRUE(layer) << name;
  layer->ensure_built({array(name + ".x").shape()}, false);
  layers::LoraOptions options;
  const json& alpha = c.at("enable").at("lora_alpha");
  if (alpha.is_number_integer()) options.lora_alpha = Scalar(alpha.get<int64_t>());
  else if (alpha.is_number()) options.lora_alpha = Scalar(alpha.get<double>());
  layer->enable_lora(c.at("enable").at("rank").get<int64_t>(), options);
  std::vector<Tensor> values;
  for (size_t i = 0; i < c.at("weights").size(); ++i)
    values.push_back(array(name + ".w" + std::to_string(i)));
  layer->set_weights(values);
  return layer;
}

std::vector<std::string> names(const std::vector<Variable>& vars) {
  std::vector<std::string> out;
  for (const Variable& v : vars) out.push_back(v.name());
  return out;
}

Tensor merged_weight(const layers::LoraLayer& layer) {
  if (auto* e = dynamic_cast<const layers::EmbeddingLayer*>(&layer)) return e->embeddings();
  if (auto* d = dynamic_cast<const layers::DenseLayer*>(&layer)) return d->kernel();
  if (auto* d = dynamic_cast<const layers::EinsumDenseLayer*>(&layer)) return d->kernel();
  return dynamic_cast<const layers::BaseConvLayer&>(layer).kernel();
}

TEST(LoraOracle, EveryLayerCaseMatchesKeras) {
  ASSERT_EQ(meta().size(), 8u);
  for (const auto& [name, c] : meta().items()) {
    SCOPED_TRACE(name);
    auto layer = keras_layer(name);
    // Config, weights and the trainable split.
    EXPECT_EQ(differences(layer->get_config(), c.at("config")), "");
    std::vector<Variable> weights = layer->weights();
    ASSERT_EQ(weights.size(), c.at("weights").size());
    for (size_t i = 0; i < weights.size(); ++i) {
      const json& w = c.at("weights")[i];
      EXPECT_EQ(weights[i].name(), w.at("name").get<std::string>());
      EXPECT_EQ(weights[i].path(), w.at("path").get<std::string>());
      EXPECT_EQ(weights[i].shape(), Shape(w.at("shape").get<std::vector<int64_t>>()));
      EXPECT_EQ(weights[i].trainable(), w.at("trainable").get<bool>());
    }
    EXPECT_EQ(names(layer->trainable_weights()), c.at("trainable").get<std::vector<std::string>>());
    EXPECT_EQ(names(layer->non_trainable_weights()),
              c.at("non_trainable").get<std::vector<std::string>>());
    // The merged kernel and the outputs.
    EXPECT_TENSOR_NEAR(merged_weight(*layer), array(name + ".kernel"), 1e-5, 1e-5);
    const Tensor& x = array(name + ".x");
    Tensor y = (*layer)(x);
    EXPECT_TENSOR_NEAR(y, array(name + ".y"), 1e-5, 1e-5);
    // Gradients of sum(layer(x) * probe): the trainable weights get JAX's; the frozen base none.
    std::vector<Variable> all = layer->weights();
    auto [loss, grads] = value_and_grad(
        [&] { return ops::sum(ops::multiply((*layer)(x), array(name + ".probe"))); }, all);
    size_t t = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      if (!all[i].trainable()) {
        EXPECT_TRUE(!grads[i].defined() || ops::max(ops::absolute(grads[i])).item<double>() == 0)
            << all[i].path() << " is frozen but got a gradient";
        continue;
      }
      SCOPED_TRACE(all[i].path());
      EXPECT_TENSOR_NEAR(grads[i], array(name + ".g" + std::to_string(t++)), 1e-4, 1e-5);
    }
  }
}

TEST(LoraOracle, FromConfigEnablesLoraAsKerasDoes) {
  for (const auto& [name, c] : meta().items()) {
    SCOPED_TRACE(name);
    auto layer = std::dynamic_pointer_cast<layers::LoraLayer>(
        layers::from_config(class_of(c.at("config")), c.at("config")));
    ASSERT_TRUE(layer);
    EXPECT_FALSE(layer->lora_enabled());  // enabled by build, as Keras
    layer->ensure_built({array(name + ".x").shape()}, false);
    EXPECT_EQ(layer->lora_enabled(), c.at("reloaded_lora_enabled").get<bool>());
    // Dense and Embedding call enable_lora(rank) in build: lora_alpha falls back to the rank.
    EXPECT_EQ(differences(layer->get_config(), c.at("reloaded_config")), "");
    EXPECT_THROW(layer->enable_lora(2), ValueError);  // once per layer
  }
}

TEST(LoraOracle, KerasFilesWithLoraLoadAndPredictTheSame) {
  for (const std::string name : {"lora_mlp", "lora_mixed"}) {
    SCOPED_TRACE(name);
    auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) + "/lora/" + name + ".keras");
    Tensor y = model->predict(array(name + ".x"), {.verbose = 0}).single();
    EXPECT_TENSOR_NEAR(y, array(name + ".y"), 1e-5, 1e-6);
    int lora_layers = 0;
    for (const auto& layer : model->layers()) {
      auto* l = dynamic_cast<layers::LoraLayer*>(layer.get());
      if (!l) continue;
      ++lora_layers;
      EXPECT_TRUE(l->lora_enabled()) << layer->name();
      // load_own_variables zeroes both adapters: the file's kernel is already merged.
      for (const Variable& v : l->trainable_weights()) {
        if (v.name().rfind("lora_", 0) == 0) {
          EXPECT_EQ(ops::max(ops::absolute(v.value())).item<double>(), 0.0) << v.path();
        }
      }
    }
    EXPECT_EQ(lora_layers, name == std::string("lora_mlp") ? 2 : 3);
  }
}

TEST(LoraErrors, KerasChecksBecomeValueErrors) {
  auto unbuilt = layers::Dense(3);
  EXPECT_THROW(unbuilt->enable_lora(2), ValueError);  // not built
  auto constrained = layers::Dense(3, {.kernel_constraint = "non_neg"});
  constrained(ops::ones({1, 2}));
  try {
    constrained->enable_lora(2);
    ADD_FAILURE() << "a kernel constraint must be refused";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel_constraint"), std::string::npos) << e.what();
  }
  auto dense = layers::Dense(3);
  dense(ops::ones({1, 2}));
  EXPECT_THROW(dense->enable_lora(0), ValueError);
  dense->enable_lora(1);
  EXPECT_THROW(dense->enable_lora(1), ValueError);  // already enabled
  auto embed = layers::Embedding(5, 2, {.embeddings_constraint = "non_neg"});
  embed(ops::zeros({1, 1}, DType::Int32));
  EXPECT_THROW(embed->enable_lora(1), ValueError);
}

}  // namespace
}  // namespace keras

// Every registered layer class against Keras 3.15 itself (tools/keras_oracle/layers.py): Keras
// builds the layer from a seeded non-default configuration and writes its
// serialize_keras_object record; keras-cpp builds the layer from that record through the
// registry (no hand-written C++ per layer), loads Keras's weights, and must give Keras's
// outputs and the gradients of sum(output * upstream) with respect to the inputs and the
// trainable weights. (Their configs are compared key for key in configs_test.cpp, which reads
// the same records through configs.json.)
//
// Case layout (layers.py's docstring has the details): the call inputs ("mask": the last one is
// a boolean mask; "mask_arg" says which), the weights in layer.weights order, one upstream
// gradient per output. "call_args" holds use_causal_mask / return_attention_scores.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "golden.h"
#include "keras/keras.h"
#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/multi_head_attention_base.h"
#include "layer_harness.h"

namespace keras {
namespace {

using test::json;

std::vector<std::string> layer_fixtures() {
  std::vector<std::string> names;
  for (auto& entry : std::filesystem::directory_iterator(KERAS_ORACLE_DIR)) {
    std::string file = entry.path().filename().string();
    if (file.rfind("layers_", 0) == 0 && entry.path().extension() == ".npz")
      names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Calls the layer as Keras's case did: attention layers with their call arguments, others with
// the mask in the context and a list call when there are several inputs or outputs.
TensorList call_like_keras(Layer& layer, const TensorList& watched, const Tensor& mask,
                           const json& kw, const CallContext& ctx) {
  json call_args = kw.value("call_args", json::object());
  const bool scores = call_args.value("return_attention_scores", false);
  const bool causal = call_args.value("use_causal_mask", false);
  if (auto* mha = dynamic_cast<layers::MultiHeadAttentionBase*>(&layer)) {
    layers::MultiHeadAttentionCall a;
    if (watched.size() > 2) a.key = watched[2];
    if (watched.size() > 3) a.attention_mask = watched[3];
    a.return_attention_scores = scores;
    a.use_causal_mask = causal;
    a.training = ctx.training;
    return mha->call_with(watched[0], watched[1], a);
  }
  if (auto* attention = dynamic_cast<layers::AttentionLayer*>(&layer)) {
    layers::AttentionCall a;
    if (mask.defined()) a.mask = {Tensor(), mask};  // mask=[None, value_mask]
    a.return_attention_scores = scores;
    a.use_causal_mask = causal;
    a.training = ctx.training;
    return attention->call_with(watched, a);
  }
  CallContext with_mask = ctx;
  if (mask.defined()) with_mask.mask = mask;
  const bool several = kw.value("list_call", false) || kw.value("n_outputs", 1) > 1;
  return several ? layer(watched, with_mask) : TensorList{layer(watched[0], with_mask)};
}

TensorList replay(const TensorList& in, const json& kw) {
  auto layer = saving::deserialize_keras_object(kw.at("record"));
  const size_t n_inputs = kw.at("n_inputs"), n_weights = kw.value("n_weights", 0);
  TensorList inputs(in.begin(), in.begin() + n_inputs);
  TensorList weights(in.begin() + n_inputs, in.begin() + n_inputs + n_weights);
  TensorList upstream(in.begin() + n_inputs + n_weights, in.end());
  Tensor mask;
  if (kw.value("mask", false) && kw.value("mask_arg", std::string()) != "attention_mask") {
    mask = ops::cast(inputs.back(), DType::Bool);
    inputs.pop_back();
  }
  std::vector<Shape> shapes;
  for (const Tensor& x : inputs) shapes.push_back(x.shape());
  layer->ensure_built(shapes, kw.value("list_call", false));
  if (n_weights) layer->set_weights(weights);

  CallContext ctx;
  ctx.training = kw.value("training", false);
  GradientTape tape;
  TensorList watched;
  for (const Tensor& x : inputs) {
    watched.push_back(ops::stop_gradient(x));
    tape.watch(watched.back());
  }
  TensorList outputs = call_like_keras(*layer, watched, mask, kw, ctx);
  return test::outputs_and_gradients(*layer, tape, watched, outputs, upstream,
                                     kw.value("updated_weights", false));
}

TEST(LayersOracle, OutputsAndGradientsMatchKeras) {
  std::set<std::string> classes;
  test::GoldenOps ops = {{"layer", [&](const TensorList& in, const json& kw) {
                            classes.insert(kw.at("record").at("class_name").get<std::string>());
                            return replay(in, kw);
                          }}};
  auto fixtures = layer_fixtures();
  ASSERT_FALSE(fixtures.empty()) << "no layers_*.npz in " << KERAS_ORACLE_DIR;
  for (const std::string& name : fixtures) test::run_oracle(name, ops);
  std::cout << "[oracle] layers: " << classes.size() << " classes checked against Keras 3.15\n";
}

}  // namespace
}  // namespace keras

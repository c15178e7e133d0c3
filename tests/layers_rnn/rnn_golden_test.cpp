// The recurrent layers against PyTorch (tools/golden/layers_rnn.py): LSTM, GRU, SimpleRNN,
// RNN over cells and stacked cells, the cells alone, Bidirectional and TimeDistributed;
// outputs, final states and the gradients with respect to the inputs, the initial states and
// every weight. Each case is replayed on the fused recurrent steps and on their decomposition
// into separate ops.

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::json;

// Like tests/support/layer_harness.h, with a mask: the layer comes from the case's Keras
// record; a bool input (after the sequence, when "has_mask") is passed as CallContext::mask.
TensorList run_rnn_case(const TensorList& arrays, const json& kw) {
  auto layer = layers::deserialize(kw.at("layer"));
  const size_t n_inputs = kw.at("n_inputs").get<size_t>();
  const size_t n_weights = kw.at("n_weights").get<size_t>();
  const bool has_mask = kw.value("has_mask", false);
  const bool list_call = kw.value("list_call", false);
  TensorList inputs(arrays.begin(), arrays.begin() + static_cast<std::ptrdiff_t>(n_inputs));
  TensorList weights(arrays.begin() + static_cast<std::ptrdiff_t>(n_inputs),
                     arrays.begin() + static_cast<std::ptrdiff_t>(n_inputs + n_weights));
  TensorList upstream(arrays.begin() + static_cast<std::ptrdiff_t>(n_inputs + n_weights),
                      arrays.end());
  CallContext ctx;
  if (has_mask) {
    ctx.mask = inputs[1];
    inputs.erase(inputs.begin() + 1);
  }
  std::vector<Shape> shapes;
  for (const Tensor& x : inputs) shapes.push_back(x.shape());
  layer->ensure_built(shapes, list_call);
  layer->set_weights(weights);

  GradientTape tape;
  TensorList watched;
  for (const Tensor& x : inputs) {
    watched.push_back(ops::stop_gradient(x));
    tape.watch(watched.back());
  }
  TensorList outputs = list_call ? (*layer)(watched, ctx) : TensorList{(*layer)(watched[0], ctx)};
  check(outputs.size() == upstream.size(), "rnn fixture: ", outputs.size(), " outputs for ",
        upstream.size(), " upstream gradients.");
  Tensor loss = ops::zeros({}, DType::Float64);
  for (size_t i = 0; i < outputs.size(); ++i)
    loss = ops::add(loss, ops::sum(ops::multiply(ops::cast(outputs[i], DType::Float64),
                                                 ops::cast(upstream[i], DType::Float64))));
  TensorList sources = watched;
  for (const Variable& v : layer->trainable_weights()) sources.push_back(v.value());
  TensorList grads = tape.gradient(loss, sources);
  TensorList result = outputs;
  result.insert(result.end(), grads.begin(), grads.end());
  return result;
}

test::GoldenOps rnn_ops() { return {{"rnn_layer", run_rnn_case}}; }

TEST(RnnGolden, RecurrentLayersMatchTorch) { test::run_golden("layers_rnn", rnn_ops()); }

TEST(RnnGolden, CellsAndWrappersMatchTorch) {
  test::run_golden("layers_rnn_wrappers", rnn_ops());
}

TEST(RnnGolden, DecomposedStepsMatchTorch) {
  backend::DecomposeScope decompose;
  test::run_golden("layers_rnn", rnn_ops());
  test::run_golden("layers_rnn_wrappers", rnn_ops());
}

}  // namespace
}  // namespace keras

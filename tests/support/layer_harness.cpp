#include "layer_harness.h"

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"

namespace keras::test {

TensorList run_layer_fixture(Layer& layer, const TensorList& fixture_inputs, const json& kwargs) {
  const size_t n_inputs = kwargs.value("n_inputs", 1);
  const size_t n_weights = kwargs.value("n_weights", 0);
  const bool list_call = kwargs.value("list_call", false);
  check(fixture_inputs.size() >= n_inputs + n_weights, "layer fixture: ",
        fixture_inputs.size(), " arrays for ", n_inputs, " inputs and ", n_weights, " weights.");
  TensorList inputs(fixture_inputs.begin(), fixture_inputs.begin() + n_inputs);
  TensorList weights(fixture_inputs.begin() + n_inputs,
                     fixture_inputs.begin() + n_inputs + n_weights);
  TensorList upstream(fixture_inputs.begin() + n_inputs + n_weights, fixture_inputs.end());

  std::vector<Shape> shapes;
  for (const Tensor& x : inputs) shapes.push_back(x.shape());
  layer.ensure_built(shapes, list_call);
  if (n_weights) layer.set_weights(weights);

  CallContext ctx;
  if (kwargs.contains("training")) ctx.training = kwargs["training"].get<bool>();
  GradientTape tape;
  TensorList watched;
  for (const Tensor& x : inputs) {
    watched.push_back(ops::stop_gradient(x));
    tape.watch(watched.back());
  }
  TensorList outputs = list_call ? layer(watched, ctx) : TensorList{layer(watched[0], ctx)};
  return outputs_and_gradients(layer, tape, watched, outputs, upstream,
                               kwargs.value("updated_weights", false));
}

TensorList outputs_and_gradients(Layer& layer, GradientTape& tape, const TensorList& watched,
                                 const TensorList& outputs, const TensorList& upstream,
                                 bool updated_weights) {
  check(upstream.size() == outputs.size(), "layer fixture: ", upstream.size(),
        " upstream gradients for ", outputs.size(), " outputs.");
  Tensor loss = ops::zeros({}, DType::Float64);
  for (size_t i = 0; i < outputs.size(); ++i)
    if (is_floating(outputs[i].dtype()))
      loss = ops::add(loss, ops::sum(ops::multiply(ops::cast(outputs[i], DType::Float64),
                                                   ops::cast(upstream[i], DType::Float64))));
  TensorList sources;
  for (const Tensor& x : watched)
    if (is_floating(x.dtype())) sources.push_back(x);
  std::vector<Variable> trainable = layer.trainable_weights();
  for (const Variable& v : trainable) sources.push_back(v.value());
  TensorList grads = tape.gradient(loss, sources);

  TensorList result = outputs;
  for (size_t i = 0; i < grads.size(); ++i) {
    // Gradients come back in the dtype of what they are taken with respect to.
    result.push_back(grads[i]);
  }
  // Weights the call changed (BatchNormalization's moving statistics), when asked for.
  if (updated_weights)
    for (const Tensor& w : layer.get_weights()) result.push_back(w);
  return result;
}

}  // namespace keras::test

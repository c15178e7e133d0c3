#include "layers/quantization/float8_layer.h"

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"

namespace keras::layers::detail {
namespace {

constexpr const char* kForward = "float8_e4m3fn";   // inputs and kernel
constexpr const char* kBackward = "float8_e5m2";    // the outputs' gradient

Tensor format_max(const char* format) {
  return ops::full({}, quantizers::float8_max(format), DType::Float32);
}

// The delayed-scaling update of one (scale, amax_history) pair from a tensor x: the new scale
// from the history as it was, and the history with max|x| written in.
TensorList scale_update(const Tensor& x, const Tensor& scale, const Tensor& history,
                        const char* format) {
  return {quantizers::compute_float8_scale(ops::max(history, 0), scale, format_max(format)),
          quantizers::compute_float8_amax_history(x, history)};
}

// Keras's quantized_dequantize_inputs: x quantize-dequantized in e4m3fn with the stored scale;
// the gradient passes x's straight through and, when training, gives the scale and the history
// their new values.
Tensor qdq_inputs(const Tensor& x, const Variable& scale, const Variable& history, bool training,
                  DType dtype) {
  auto f = [training, dtype](const TensorList& a) {
    TensorList updates;
    Tensor y;
    {
      NoGradScope no_grad;  // the rule below replaces these ops' gradient
      if (training) updates = scale_update(a[0], a[1], a[2], kForward);
      y = quantizers::quantize_and_dequantize(a[0], a[1], kForward, dtype);
    }
    ops::GradFn grad = [updates](const TensorList& up) {
      if (updates.empty()) return TensorList{up[0], Tensor(), Tensor()};
      return TensorList{up[0], updates[0], updates[1]};
    };
    return std::pair{TensorList{y}, grad};
  };
  return ops::custom_gradient(f)({x, scale.value(), history.value()})[0];
}

// Keras's quantized_dequantize_outputs: the outputs unchanged; their gradient quantize-
// dequantized in e5m2 with the stored scale, and the scale and history updated from it.
Tensor qdq_outputs_gradient(const Tensor& y, const Variable& scale, const Variable& history,
                            DType dtype) {
  auto f = [dtype](const TensorList& a) {
    ops::GradFn grad = [scale = a[1], history = a[2], dtype](const TensorList& up) {
      TensorList updates = scale_update(up[0], scale, history, kBackward);
      return TensorList{quantizers::quantize_and_dequantize(up[0], scale, kBackward, dtype),
                        updates[0], updates[1]};
    };
    return std::pair{TensorList{a[0]}, grad};
  };
  return ops::custom_gradient(f)({y, scale.value(), history.value()})[0];
}

}  // namespace

quantizers::Float8Variables add_float8_variables(Layer& layer) {
  const int64_t length = layer.dtype_policy().quantization_mode == "float8"
                             ? layer.dtype_policy().amax_history_length
                             : DTypePolicy{}.amax_history_length;
  auto add = [&](const char* name, Shape shape, const char* initializer) {
    return layer.add_weight({.shape = std::move(shape),
                             .initializer = initializer,
                             .trainable = true,  // their "gradients" are their new values
                             .dtype = DType::Float32,
                             .name = name,
                             .autocast = false,
                             .overwrite_with_gradient = true});
  };
  quantizers::Float8Variables v;
  v.inputs_scale = add("inputs_scale", {}, "ones");
  v.inputs_amax_history = add("inputs_amax_history", {length}, "zeros");
  v.kernel_scale = add("kernel_scale", {}, "ones");
  v.kernel_amax_history = add("kernel_amax_history", {length}, "zeros");
  v.outputs_grad_scale = add("outputs_grad_scale", {}, "ones");
  v.outputs_grad_amax_history = add("outputs_grad_amax_history", {length}, "zeros");
  return v;
}

Tensor float8_product(const Layer& layer, const quantizers::Float8Variables& v,
                      const Tensor& inputs, const Tensor& kernel, bool training,
                      bool lora_enabled,
                      const std::function<Tensor(const Tensor&, const Tensor&)>& product) {
  if (lora_enabled)
    throw NotImplementedError(layer.class_name() + " '" + layer.name() +
                              "': Currently, `_float8_call` doesn't support LoRA (as Keras "
                              "3.15); quantize to float8 a layer without LoRA.");
  const DType dtype = layer.compute_dtype();
  Tensor x = qdq_inputs(inputs, v.inputs_scale, v.inputs_amax_history, training, dtype);
  Tensor k = qdq_inputs(kernel, v.kernel_scale, v.kernel_amax_history, training, dtype);
  return qdq_outputs_gradient(product(x, k), v.outputs_grad_scale, v.outputs_grad_amax_history,
                              dtype);
}

Tensor float8_bias(const Layer& layer, const Variable& bias) {
  Tensor b = bias.value();
  if (layer.compute_dtype() != DType::Float32) return b;
  return ops::cast(ops::cast(b, DType::BFloat16), b.dtype());
}

std::vector<Variable> float8_saved_variables(const Variable& kernel, const Variable& bias,
                                             const quantizers::Float8Variables& v) {
  std::vector<Variable> out{kernel};
  if (bias.defined()) out.push_back(bias);
  for (const Variable& q : {v.inputs_scale, v.inputs_amax_history, v.kernel_scale,
                            v.kernel_amax_history, v.outputs_grad_scale,
                            v.outputs_grad_amax_history})
    out.push_back(q);
  return out;
}

}  // namespace keras::layers::detail

// The quantized modes of EinsumDense (keras/src/layers/core/einsum_dense.py: quantize,
// _int8_build, _int8_call), kept apart from the float layer.

#include "keras/layers/core/einsum_dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/einsum_quantization_info.h"
#include "layers/quantization/float8_layer.h"
#include "layers/quantization/quantized_layer.h"
#include "quantizers/calibration_state.h"

namespace keras::layers {

void EinsumDenseLayer::quantized_build(const Shape& kernel_shape) {
  if (quantization_mode() == "float8") return void(float8_ = detail::add_float8_variables(*this));
  if (quantization_mode() == "gptq" || quantization_mode() == "awq") {
    // Built from a GPTQ/AWQ policy (a loaded file): the calibrated kernel, filled by the load.
    calibrated_build(kernel_shape);
    kernel_ = quantized_kernel_;
    calibrated_ = true;
    return;
  }
  detail::require_implemented_mode(*this, quantization_mode());
  if (quantization_mode() == "int4") return int4_build(kernel_shape);
  auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  kernel_ = add_weight({.shape = kernel_shape,
                        .initializer = "zeros",
                        .trainable = false,
                        .dtype = DType::Int8,
                        .name = "kernel"});
  kernel_scale_ = add_weight({.shape = detail::kernel_scale_shape(kernel_shape, info.kernel),
                              .initializer = "ones",
                              .trainable = false,
                              .name = "kernel_scale"});
}

Tensor EinsumDenseLayer::quantized_call(const Tensor& inputs) {
  if (quantization_mode() == "int4") return int4_call(inputs);
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const Tensor x = autocast(inputs);
  const Tensor kernel = kernel_.value(), kernel_scale = kernel_scale_.value();
  const std::optional<quantizers::AbsMaxQuantizer> inputs_quantizer =
      detail::inputs_quantizer(options_.quantization_config, quantization_mode());
  const DType dtype = compute_dtype();
  auto forward = [&](const Tensor& in) {
    if (!inputs_quantizer)  // weight-only: the float inputs times the int8 kernel
      return ops::cast(ops::einsum(equation_, in, kernel), dtype) / kernel_scale;
    quantizers::Quantized qi = (*inputs_quantizer)(in, ops::Axes(info.input.reduced));
    Tensor inputs_scale = detail::scale_for_output(qi.scale, info.input);
    return ops::cast(ops::einsum(equation_, qi.values, kernel), dtype) /
           (inputs_scale * kernel_scale);
  };
  Tensor y = detail::with_inputs_gradient(x, forward, [&] {
    return [kernel, kernel_scale, dtype, info](const Tensor& upstream) {
      Tensor float_kernel =
          ops::cast(kernel, dtype) / detail::scale_for_kernel(kernel_scale, info.kernel);
      return ops::einsum(info.gradient_equation, upstream, float_kernel);
    };
  });
  return quantized_output(y, x);
}

Tensor EinsumDenseLayer::quantized_output(Tensor y, const Tensor& x) const {
  // Keras's order: the LoRA term (einsum(equation, x, A) @ B), then the bias and activation.
  if (lora_enabled()) y = add_lora_output(y, ops::einsum(equation_, x, lora_kernel_a()));
  if (bias_.defined()) y = y + bias_.value();
  return options_.activation(y);
}

std::vector<std::pair<Variable, Tensor>> EinsumDenseLayer::lora_requantized() const {
  if (quantization_mode() == "int4") return int4_lora_requantized();
  // Keras: kernel / the scale laid back onto the kernel's axes, plus the update, then
  // abs_max_quantize over the reduced axes and the scale laid out for the output again.
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const Tensor merged =
      kernel_.value() / detail::scale_for_kernel(kernel_scale_.value(), info.kernel) +
      lora_update();
  const quantizers::Quantized q =
      quantizers::AbsMaxQuantizer{.axis = info.kernel.reduced}(merged);
  return {{kernel_, q.values}, {kernel_scale_, detail::scale_for_output(q.scale, info.kernel)}};
}

void EinsumDenseLayer::quantize_weights(const std::string& mode,
                                        const quantizers::QuantizationConfigPtr& config) {
  detail::require_exact_class(*this, "EinsumDense");
  if (mode == "float8") return float8_quantize(config);
  if (mode == "gptq" || mode == "awq") {
    // As Dense: the calibrated variables beside the float kernel until calibration.
    options_.quantization_config = quantizers::detail::without_calibration_inputs(config);
    set_dtype_policy(detail::quantized_policy(
        dtype_policy(), quantizers::detail::calibrated_policy_mode(config)));
    calibrated_build(kernel_.shape());
    calibrated_ = false;
    return;
  }
  detail::require_implemented_mode(*this, mode);
  if (mode == "int4") return int4_quantize(config);
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const Shape kernel_shape = kernel_.shape();
  quantizers::AbsMaxQuantizer weight_quantizer = config->weight_quantizer.value_or(
      quantizers::AbsMaxQuantizer{.axis = info.kernel.reduced});
  quantizers::Quantized q = weight_quantizer(kernel_.value());
  remove_weight(kernel_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), mode));
  quantized_build(kernel_shape);
  kernel_.assign(q.values);
  kernel_scale_.assign(detail::scale_for_output(q.scale, info.kernel));
}

std::vector<Variable> EinsumDenseLayer::variables_to_load() const {
  if (quantization_mode().empty()) return LoraLayer::variables_to_load();
  if (quantization_mode() == "float8") return detail::float8_saved_variables(kernel_, bias_, float8_);
  if (quantization_mode() == "gptq" || quantization_mode() == "awq") {
    // Keras's variable_serialization_spec (see DenseLayer::variables_to_load).
    std::vector<Variable> vars;
    if (bias_.defined()) vars.push_back(bias_);
    vars.insert(vars.end(), {quantized_kernel_, kernel_scale_, kernel_zero_});
    if (quantization_mode() == "awq") vars.push_back(awq_scales_);
    vars.push_back(g_idx_);
    return vars;
  }
  std::vector<Variable> vars{kernel_};
  if (bias_.defined()) vars.push_back(bias_);
  vars.push_back(kernel_scale_);
  for (const Variable* v : {&kernel_zero_, &g_idx_})  // int4 with blocks only
    if (v->defined()) vars.push_back(*v);
  return vars;
}

}  // namespace keras::layers

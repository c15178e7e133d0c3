// The quantized modes of Dense (keras/src/layers/core/dense.py: quantize, _int8_build,
// _int8_call, variable_serialization_spec), kept apart from the float layer.

#include "keras/layers/core/dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/float8_layer.h"
#include "layers/quantization/int4_layer.h"
#include "layers/quantization/lora_requantize.h"
#include "layers/quantization/quantized_layer.h"
#include "ops/nn/quantized_linear.h"
#include "quantizers/calibration_state.h"

namespace keras::layers {

void DenseLayer::quantized_build(const Shape& kernel_shape) {
  const std::string& mode = quantization_mode();
  if (mode == "float8") return void(float8_ = detail::add_float8_variables(*this));
  if (mode == "gptq" || mode == "awq") {
    // Built from a GPTQ/AWQ policy (a loaded file): the calibrated kernel, filled by the load.
    calibrated_build(kernel_shape);
    kernel_ = quantized_kernel_;
    calibrated_ = true;
    return;
  }
  detail::require_implemented_mode(*this, mode);
  if (mode == "int4") return int4_build(kernel_shape);
  kernel_ = add_weight({.shape = kernel_shape,
                        .initializer = "zeros",
                        .trainable = false,
                        .dtype = DType::Int8,
                        .name = "kernel"});
  kernel_scale_ = add_weight(
      {.shape = {units_}, .initializer = "ones", .trainable = false, .name = "kernel_scale"});
}

Tensor DenseLayer::quantized_call(const Tensor& inputs) {
  if (quantization_mode() == "int4") return int4_call(inputs);
  const Tensor x = autocast(inputs);
  const Tensor kernel = kernel_.value(), kernel_scale = kernel_scale_.value();
  const std::optional<quantizers::AbsMaxQuantizer> inputs_quantizer =
      detail::inputs_quantizer(options_.quantization_config, quantization_mode());
  const DType dtype = compute_dtype();
  // The backend's fused kernels, where they apply; they add the bias and activation
  // themselves, so with LoRA (whose term comes before the bias) the unfused path runs.
  if (inputs_quantizer && !lora_enabled()) {
    Tensor y = ops::detail::quantized_linear(
        x, kernel, kernel_scale, options_.use_bias ? bias_.value() : Tensor(),
        options_.activation,
        ops::detail::Int8QuantizerSpec::of(inputs_quantizer->value_range,
                                           inputs_quantizer->epsilon));
    if (y.defined()) return y;
  }
  // Keras's int8 forward: inputs quantized per row of the last axis, an int8 @ int8 product
  // accumulated in int32, then divided by kernel_scale * inputs_scale.
  auto forward = [&](const Tensor& in) {
    Tensor q = in, output_scale = kernel_scale;
    if (inputs_quantizer) {
      quantizers::Quantized qi = (*inputs_quantizer)(in, -1);
      q = qi.values;
      output_scale = kernel_scale * qi.scale;
    }
    return ops::cast(ops::matmul(q, kernel), dtype) / output_scale;
  };
  Tensor y = detail::with_inputs_gradient(x, forward, [&] {
    return [kernel, kernel_scale, dtype](const Tensor& upstream) {
      return ops::matmul(upstream, ops::transpose(ops::cast(kernel, dtype) / kernel_scale));
    };
  });
  return quantized_output(y, x);
}

Tensor DenseLayer::quantized_output(Tensor y, const Tensor& x) const {
  // Keras's order: the LoRA term (adapters trained over the frozen base), then the bias and
  // the activation.
  if (lora_enabled()) y = add_lora_output(y, ops::matmul(x, lora_kernel_a()));
  if (options_.use_bias) y = y + bias_.value();
  return options_.activation(y);
}

Tensor DenseLayer::dequantized_kernel() const {
  const DType dtype = compute_dtype();
  if (quantization_mode() == "int8") return ops::cast(kernel_.value(), dtype) / kernel_scale_.value();
  return detail::dequantize_int4_kernel(
      kernel_.value(), units_, kernel_scale_.value(),
      kernel_zero_.defined() ? kernel_zero_.value() : Tensor(),
      kernel_zero_.defined() ? g_idx_.value() : Tensor(), dtype);
}

std::vector<std::pair<Variable, Tensor>> DenseLayer::lora_requantized() const {
  const detail::RequantizedKernel q = detail::requantize_merged_kernel(
      dequantized_kernel() + lora_update(), quantization_mode(),
      detail::int4_block_size(*this, options_.quantization_config));
  std::vector<std::pair<Variable, Tensor>> out{{kernel_, q.values}, {kernel_scale_, q.scale}};
  if (q.zero.defined()) out.emplace_back(kernel_zero_, q.zero);
  return out;
}

void DenseLayer::quantize_weights(const std::string& mode,
                                  const quantizers::QuantizationConfigPtr& config) {
  detail::require_exact_class(*this, "Dense");
  if (mode == "float8") return float8_quantize(config);
  if (mode == "gptq" || mode == "awq") {
    // Keras: the calibrated variables are built beside the float kernel, which serves calls
    // until Model::quantize's calibration installs the quantized one (set_calibrated_kernel).
    options_.quantization_config = quantizers::detail::without_calibration_inputs(config);
    set_dtype_policy(detail::quantized_policy(dtype_policy(), quantizers::detail::calibrated_policy_mode(config)));
    calibrated_build(kernel_.shape());
    calibrated_ = false;
    return;
  }
  detail::require_implemented_mode(*this, mode);
  if (mode == "int4") return int4_quantize(config);
  const Shape kernel_shape = kernel_.shape();
  quantizers::AbsMaxQuantizer weight_quantizer =
      config->weight_quantizer.value_or(quantizers::AbsMaxQuantizer{.axis = std::vector{0}});
  quantizers::Quantized q = weight_quantizer(kernel_.value());
  remove_weight(kernel_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), mode));
  quantized_build(kernel_shape);
  kernel_.assign(q.values);
  kernel_scale_.assign(ops::squeeze(q.scale, 0));
}

std::vector<Variable> DenseLayer::variables_to_load() const {
  if (quantization_mode().empty()) return LoraLayer::variables_to_load();
  if (quantization_mode() == "float8") return detail::float8_saved_variables(kernel_, bias_, float8_);
  if (quantization_mode() == "gptq" || quantization_mode() == "awq") {
    // Keras's variable_serialization_spec (Keras 3.15's own writer leaves kernel_zero out, so
    // its loader cannot read its files back; keras-cpp writes what the loader expects).
    std::vector<Variable> vars;
    if (options_.use_bias) vars.push_back(bias_);
    vars.insert(vars.end(), {quantized_kernel_, kernel_scale_, kernel_zero_});
    if (quantization_mode() == "awq") vars.push_back(awq_scales_);
    vars.push_back(g_idx_);
    return vars;
  }
  std::vector<Variable> vars{kernel_};
  if (options_.use_bias) vars.push_back(bias_);
  vars.push_back(kernel_scale_);
  for (const Variable* v : {&kernel_zero_, &g_idx_})  // int4 with blocks only
    if (v->defined()) vars.push_back(*v);
  return vars;
}

}  // namespace keras::layers

// GPTQ and AWQ Dense (keras/src/layers/core/dense.py: _gptq_build, _gptq_call, _awq_build,
// _awq_call, the kernel property): until calibration the float kernel serves calls; then
// Keras's quantized_kernel holds the integer values in (units, input_dim) layout, packed two
// 4-bit values per uint8 byte along the units axis, with
//   kernel_scale, kernel_zero (units, groups), g_idx (input_dim,): w ~ (q - zero[g]) * scale[g]
//   AWQ also awq_scales (input_dim,): the kernel is that divided by awq_scales per input row.

#include <iostream>

#include "keras/layers/core/dense.h"
#include "keras/ops/ops.h"
#include "keras/quantizers/int4.h"
#include "quantizers/calibration_state.h"
#include "quantizers/calibrate.h"

namespace keras::layers {

Tensor DenseLayer::kernel() const {
  const std::string& mode = quantization_mode();
  if (mode == "gptq" || mode == "awq") {
    if (!calibrated_) return kernel_.value();
    if (quantizers::detail::calibrated_weight_bits(dtype_policy()) == 4)
      return quantizers::unpack_int4(quantized_kernel_.value(), units_, 0, DType::UInt8);
    return quantized_kernel_.value();
  }
  return lora_merged(mode == "int4" ? int4_kernel() : kernel_.value());
}

void DenseLayer::calibrated_build(const Shape& kernel_shape) {
  const int64_t input_dim = kernel_shape[0];
  const int bits = quantizers::detail::calibrated_weight_bits(dtype_policy());
  const int64_t groups = quantizers::detail::calibrated_groups(input_dim, dtype_policy());
  quantized_kernel_ = add_weight({.shape = {bits == 4 ? (units_ + 1) / 2 : units_, input_dim},
                                  .initializer = "zeros",
                                  .trainable = false,
                                  .dtype = DType::UInt8,
                                  .name = "kernel"});
  kernel_scale_ = add_weight({.shape = {units_, groups},
                              .initializer = "ones",
                              .trainable = false,
                              .name = "kernel_scale"});
  kernel_zero_ = add_weight({.shape = {units_, groups},
                             .initializer = "zeros",
                             .trainable = false,
                             .dtype = DType::UInt8,
                             .name = "kernel_zero"});
  if (quantization_mode() == "awq")
    awq_scales_ = add_weight({.shape = {input_dim},
                              .initializer = "ones",
                              .trainable = false,
                              .name = "awq_scales"});
  g_idx_ = add_weight({.shape = {input_dim},
                       .initializer = "zeros",
                       .trainable = false,
                       .dtype = DType::Float32,
                       .name = "g_idx"});
}

Tensor DenseLayer::calibrated_dequantized_kernel() const {
  // Keras: dequantize_with_sz_map on the (units, input_dim) values, transposed; AWQ divides
  // each input row by its scale.
  Tensor w = ops::transpose(quantizers::dequantize_with_sz_map(
      kernel(), kernel_scale_.value(), kernel_zero_.value(), g_idx_.value(), /*group_axis=*/-1));
  if (quantization_mode() == "awq") w = w / ops::expand_dims(awq_scales_.value(), -1);
  return ops::cast(w, compute_dtype());
}

Tensor DenseLayer::calibrated_call(const Tensor& inputs) {
  const int64_t input_dim = g_idx_.shape()[0];
  check(inputs.ndim() >= 1 && inputs.shape().back() == input_dim, "Dense '", name(),
        "': expected inputs with last axis ", input_dim, "; got shape ", inputs.shape(), ".");
  const Tensor x = autocast(inputs);
  Tensor w;
  if (calibrated_) {
    w = calibrated_dequantized_kernel();
  } else {
    // Calibration streams this layer's inputs into its Hessian / activation statistics.
    quantizers::detail::observe_calibration_inputs(*this, x);
    w = kernel_.value();
  }
  Tensor y = ops::matmul(x, w);
  if (options_.use_bias) y = y + bias_.value();
  return options_.activation(y);
}

void DenseLayer::set_calibrated_kernel(const Tensor& quantized, const Tensor& scale,
                                       const Tensor& zero, const Tensor& g_idx,
                                       const Tensor& awq_scales) {
  const std::string& mode = quantization_mode();
  check(mode == "gptq" || mode == "awq", "Dense '", name(),
        "': set_calibrated_kernel needs a layer in the 'gptq' or 'awq' mode (quantize it with "
        "Model::quantize and a GPTQConfig or AWQConfig); its mode is '", mode, "'.");
  check(!calibrated_, "Dense '", name(), "' is already calibrated.");
  check(quantized.shape() == Shape{units_, g_idx_.shape()[0]}, "Dense '", name(),
        "': expected calibrated values of shape (", units_, ", ", g_idx_.shape()[0], "); got ",
        quantized.shape(), ".");
  check(mode != "awq" || awq_scales.defined(), "Dense '", name(), "': AWQ needs awq_scales.");
  const Tensor values = ops::cast(quantized, DType::UInt8);
  quantized_kernel_.assign(quantizers::detail::calibrated_weight_bits(dtype_policy()) == 4
                               ? quantizers::pack_int4(values, 0, DType::UInt8)
                               : values);
  kernel_scale_.assign(scale);
  kernel_zero_.assign(zero);
  g_idx_.assign(g_idx);
  if (mode == "awq") awq_scales_.assign(awq_scales);
  // Keras's `del self._kernel`: the float kernel is gone; the stored kernel is the packed one.
  remove_weight(kernel_);
  kernel_ = quantized_kernel_;
  calibrated_ = true;
}

}  // namespace keras::layers

namespace keras::layers {

std::vector<Variable> DenseLayer::variables_to_save() const {
  const std::string& mode = quantization_mode();
  if ((mode != "gptq" && mode != "awq") || calibrated_) return LoraLayer::variables_to_save();
  // Never calibrated (in no block of the structure): Keras 3.15 writes the zeros its
  // quantized_kernel was built with, losing the kernel. keras-cpp writes the float kernel
  // rounded to the nearest level instead (GPTQ without error correction, AWQ with unit
  // scales), so the file loads into a layer that computes nearly what this one does.
  std::cerr << "UserWarning: Dense '" << name() << "' is in mode '" << mode
            << "' but was never calibrated (it is in no block of the quantization structure); "
               "it is saved rounded to the nearest level.\n";
  const quantizers::detail::CalibratedMatrix q = quantizers::detail::round_to_nearest(
      quantizers::detail::HostMatrix::of(kernel_.value()).transposed(),
      options_.quantization_config);
  const Tensor values = quantizers::detail::calibrated_weight_bits(dtype_policy()) == 4
                            ? quantizers::pack_int4(q.quantized, 0, DType::UInt8)
                            : q.quantized;
  std::vector<Variable> vars;
  if (options_.use_bias) vars.push_back(bias_);
  for (const Tensor& t : {values, q.scale, q.zero}) vars.emplace_back(t);
  if (mode == "awq") vars.emplace_back(q.awq_scales);
  vars.emplace_back(q.g_idx);
  return vars;
}

void DenseLayer::variables_loaded() {
  LoraLayer::variables_loaded();
  const std::string& mode = quantization_mode();
  if ((mode != "gptq" && mode != "awq") || calibrated_) return;
  // Loaded into a layer quantize() had put in the mode: the file's kernel is calibrated (as
  // Keras's load_own_variables marks it).
  remove_weight(kernel_);
  kernel_ = quantized_kernel_;
  calibrated_ = true;
}

}  // namespace keras::layers

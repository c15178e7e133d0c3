// GPTQ and AWQ Dense (keras/src/layers/core/dense.py: _gptq_build, _gptq_call, _awq_build,
// _awq_call, the kernel property): until calibration the float kernel serves calls; then
// Keras's quantized_kernel holds the integer levels in (units, input_dim) layout, packed two
// 4-bit values per uint8 byte along the units axis, with
//   kernel_scale, kernel_zero (units, groups), g_idx (input_dim,): w ~ (q - zero[g]) * scale[g]
//   AWQ also awq_scales (input_dim,): the kernel is that divided by awq_scales per input row.

#include "keras/layers/core/dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/calibrated_layer.h"
#include "quantizers/calibration_state.h"

namespace keras::layers {

Tensor DenseLayer::kernel() const {
  const std::string& mode = quantization_mode();
  if (mode == "gptq" || mode == "awq")
    return calibrated_ ? detail::unpacked_levels(quantized_kernel_, units_, dtype_policy())
                       : kernel_.value();
  return lora_merged(mode == "int4" ? int4_kernel() : kernel_.value());
}

void DenseLayer::calibrated_build(const Shape& kernel_shape) {
  const detail::CalibratedVariables v =
      detail::add_calibrated_variables(*this, kernel_shape[0], units_, "kernel_zero");
  quantized_kernel_ = v.quantized_kernel;
  kernel_scale_ = v.kernel_scale;
  kernel_zero_ = v.kernel_zero;
  awq_scales_ = v.awq_scales;
  g_idx_ = v.g_idx;
}

Tensor DenseLayer::calibrated_dequantized_kernel() const {
  return ops::cast(detail::dequantized_levels(
                       kernel(), {quantized_kernel_, kernel_scale_, kernel_zero_, awq_scales_, g_idx_},
                       quantization_mode()),
                   compute_dtype());
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
  check(!calibrated_, "Dense '", name(), "' is already calibrated.");
  detail::assign_calibrated({quantized_kernel_, kernel_scale_, kernel_zero_, awq_scales_, g_idx_},
                            quantized, scale, zero, g_idx, awq_scales, dtype_policy(),
                            "Dense '" + name() + "'");
  // Keras's `del self._kernel`: the float kernel is gone; the stored kernel is the packed one.
  remove_weight(kernel_);
  kernel_ = quantized_kernel_;
  calibrated_ = true;
}

std::vector<Variable> DenseLayer::variables_to_save() const {
  const std::string& mode = quantization_mode();
  if ((mode != "gptq" && mode != "awq") || calibrated_) return LoraLayer::variables_to_save();
  return detail::rounded_saved_variables(*this, kernel_.value(),
                                         options_.use_bias ? bias_ : Variable(),
                                         options_.quantization_config);
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

// GPTQ and AWQ EinsumDense (keras/src/layers/core/einsum_dense.py: _gptq_build, _gptq_call,
// _awq_build, _awq_call, the kernel property): as Dense (dense_calibrated.cpp), the kernel
// taken as a (rows, columns) matrix: a 2-d kernel as it is, a 3-d one as (in, heads * head_dim)
// or (heads * head_dim, out) by where its largest axis is, as Keras decides.

#include <algorithm>

#include "keras/layers/core/einsum_dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/calibrated_layer.h"
#include "quantizers/calibration_state.h"

namespace keras::layers {
namespace {

// Keras's row/column split of a GPTQ/AWQ kernel.
std::pair<int64_t, int64_t> rows_and_columns(const Shape& kernel, const std::string& layer) {
  if (kernel.rank() == 2) return {kernel[0], kernel[1]};
  check(kernel.rank() == 3, "EinsumDense '", layer, "': GPTQ and AWQ quantize 2-d or 3-d "
        "kernels (as Keras); this kernel has shape ", kernel, ".");
  const int64_t largest = std::max({kernel[0], kernel[1], kernel[2]});
  if (kernel[0] == largest) return {kernel[0], kernel[1] * kernel[2]};  // q/k/v projection
  return {kernel[0] * kernel[1], kernel[2]};                             // attention output
}

}  // namespace

Tensor EinsumDenseLayer::kernel() const {
  const std::string& mode = quantization_mode();
  if (mode == "gptq" || mode == "awq")
    return calibrated_
               ? detail::unpacked_levels(quantized_kernel_, calibrated_columns_, dtype_policy())
               : kernel_.value();
  return lora_merged(mode == "int4" ? int4_kernel() : kernel_.value());
}

Tensor EinsumDenseLayer::calibration_kernel() const {
  check(!calibrated_ && kernel_.defined() && kernel_.dtype() != DType::UInt8, "EinsumDense '",
        name(), "': calibration_kernel needs the float kernel of a layer not yet calibrated.");
  const auto [rows, columns] = rows_and_columns(kernel_.shape(), name());
  return ops::reshape(kernel_.value(), {rows, columns});
}

void EinsumDenseLayer::calibrated_build(const Shape& kernel_shape) {
  const auto [rows, columns] = rows_and_columns(kernel_shape, name());
  calibrated_kernel_shape_ = kernel_shape;
  calibrated_columns_ = columns;
  const detail::CalibratedVariables v =
      detail::add_calibrated_variables(*this, rows, columns, "zero_point");  // Keras's name here
  quantized_kernel_ = v.quantized_kernel;
  kernel_scale_ = v.kernel_scale;
  kernel_zero_ = v.kernel_zero;
  awq_scales_ = v.awq_scales;
  g_idx_ = v.g_idx;
}

Tensor EinsumDenseLayer::calibrated_dequantized_kernel() const {
  const Tensor w = detail::dequantized_levels(
      kernel(), {quantized_kernel_, kernel_scale_, kernel_zero_, awq_scales_, g_idx_},
      quantization_mode());
  return ops::cast(ops::reshape(w, calibrated_kernel_shape_), compute_dtype());
}

Tensor EinsumDenseLayer::calibrated_call(const Tensor& inputs) {
  const Tensor x = autocast(inputs);
  Tensor w;
  if (calibrated_) {
    w = calibrated_dequantized_kernel();
  } else {
    quantizers::detail::observe_calibration_inputs(*this, x);
    w = kernel_.value();
  }
  Tensor y = ops::einsum(equation_, x, w);
  if (bias_.defined()) y = ops::add(y, bias_);
  return options_.activation(y);
}

void EinsumDenseLayer::set_calibrated_kernel(const Tensor& quantized, const Tensor& scale,
                                             const Tensor& zero, const Tensor& g_idx,
                                             const Tensor& awq_scales) {
  check(!calibrated_, "EinsumDense '", name(), "' is already calibrated.");
  detail::assign_calibrated({quantized_kernel_, kernel_scale_, kernel_zero_, awq_scales_, g_idx_},
                            quantized, scale, zero, g_idx, awq_scales, dtype_policy(),
                            "EinsumDense '" + name() + "'");
  remove_weight(kernel_);
  kernel_ = quantized_kernel_;
  calibrated_ = true;
}

std::vector<Variable> EinsumDenseLayer::variables_to_save() const {
  const std::string& mode = quantization_mode();
  if ((mode != "gptq" && mode != "awq") || calibrated_) return LoraLayer::variables_to_save();
  return detail::rounded_saved_variables(*this, calibration_kernel(), bias_,
                                         options_.quantization_config);
}

void EinsumDenseLayer::variables_loaded() {
  LoraLayer::variables_loaded();
  const std::string& mode = quantization_mode();
  if ((mode != "gptq" && mode != "awq") || calibrated_) return;
  remove_weight(kernel_);
  kernel_ = quantized_kernel_;
  calibrated_ = true;
}

}  // namespace keras::layers

// GPTQ and AWQ EinsumDense (keras/src/layers/core/einsum_dense.py: _gptq_build, _gptq_call,
// _awq_build, _awq_call, the kernel property): as Dense (dense_calibrated.cpp), the kernel
// taken as a (rows, columns) matrix: a 2-d kernel as it is, a 3-d one as (in, heads * head_dim)
// or (heads * head_dim, out) by where its largest axis is, as Keras decides.

#include <iostream>

#include "keras/layers/core/einsum_dense.h"
#include "keras/ops/ops.h"
#include "keras/quantizers/int4.h"
#include "quantizers/calibration_state.h"
#include "quantizers/calibrate.h"

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
  if (mode == "gptq" || mode == "awq") {
    if (!calibrated_) return kernel_.value();
    if (quantizers::detail::calibrated_weight_bits(dtype_policy()) == 4)
      return quantizers::unpack_int4(quantized_kernel_.value(), calibrated_columns_, 0,
                                     DType::UInt8);
    return quantized_kernel_.value();
  }
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
  const int bits = quantizers::detail::calibrated_weight_bits(dtype_policy());
  const int64_t groups = quantizers::detail::calibrated_groups(rows, dtype_policy());
  quantized_kernel_ = add_weight({.shape = {bits == 4 ? (columns + 1) / 2 : columns, rows},
                                  .initializer = "zeros",
                                  .trainable = false,
                                  .dtype = DType::UInt8,
                                  .name = "kernel"});
  kernel_scale_ = add_weight({.shape = {columns, groups},
                              .initializer = "ones",
                              .trainable = false,
                              .name = "kernel_scale"});
  kernel_zero_ = add_weight({.shape = {columns, groups},
                             .initializer = "zeros",
                             .trainable = false,
                             .dtype = DType::UInt8,
                             .name = "zero_point"});  // Keras's name for EinsumDense
  if (quantization_mode() == "awq")
    awq_scales_ = add_weight({.shape = {rows},
                              .initializer = "ones",
                              .trainable = false,
                              .name = "awq_scales"});
  g_idx_ = add_weight({.shape = {rows},
                       .initializer = "zeros",
                       .trainable = false,
                       .dtype = DType::Float32,
                       .name = "g_idx"});
}

Tensor EinsumDenseLayer::calibrated_dequantized_kernel() const {
  Tensor w = ops::transpose(quantizers::dequantize_with_sz_map(
      kernel(), kernel_scale_.value(), kernel_zero_.value(), g_idx_.value(), /*group_axis=*/-1));
  if (quantization_mode() == "awq") w = w / ops::expand_dims(awq_scales_.value(), -1);
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
  const std::string& mode = quantization_mode();
  check(mode == "gptq" || mode == "awq", "EinsumDense '", name(),
        "': set_calibrated_kernel needs a layer in the 'gptq' or 'awq' mode; its mode is '",
        mode, "'.");
  check(!calibrated_, "EinsumDense '", name(), "' is already calibrated.");
  const int64_t rows = g_idx_.shape()[0];
  check(quantized.shape() == Shape{calibrated_columns_, rows}, "EinsumDense '", name(),
        "': expected calibrated values of shape (", calibrated_columns_, ", ", rows, "); got ",
        quantized.shape(), ".");
  check(mode != "awq" || awq_scales.defined(), "EinsumDense '", name(),
        "': AWQ needs awq_scales.");
  const Tensor values = ops::cast(quantized, DType::UInt8);
  quantized_kernel_.assign(quantizers::detail::calibrated_weight_bits(dtype_policy()) == 4
                               ? quantizers::pack_int4(values, 0, DType::UInt8)
                               : values);
  kernel_scale_.assign(scale);
  kernel_zero_.assign(zero);
  g_idx_.assign(g_idx);
  if (mode == "awq") awq_scales_.assign(awq_scales);
  remove_weight(kernel_);
  kernel_ = quantized_kernel_;
  calibrated_ = true;
}

std::vector<Variable> EinsumDenseLayer::variables_to_save() const {
  const std::string& mode = quantization_mode();
  if ((mode != "gptq" && mode != "awq") || calibrated_) return LoraLayer::variables_to_save();
  std::cerr << "UserWarning: EinsumDense '" << name() << "' is in mode '" << mode
            << "' but was never calibrated (it is in no block of the quantization structure); "
               "it is saved rounded to the nearest level.\n";
  const quantizers::detail::CalibratedMatrix q = quantizers::detail::round_to_nearest(
      quantizers::detail::HostMatrix::of(calibration_kernel()).transposed(),
      options_.quantization_config);
  const Tensor values = quantizers::detail::calibrated_weight_bits(dtype_policy()) == 4
                            ? quantizers::pack_int4(q.quantized, 0, DType::UInt8)
                            : q.quantized;
  std::vector<Variable> vars;
  if (bias_.defined()) vars.push_back(bias_);
  for (const Tensor& t : {values, q.scale, q.zero}) vars.emplace_back(t);
  if (mode == "awq") vars.emplace_back(q.awq_scales);
  vars.emplace_back(q.g_idx);
  return vars;
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

#include "layers/quantization/calibrated_layer.h"

#include <iostream>

#include "keras/ops/ops.h"
#include "keras/quantizers/int4.h"
#include "quantizers/calibrate.h"
#include "quantizers/calibration_state.h"

namespace keras::layers::detail {

CalibratedVariables add_calibrated_variables(Layer& layer, int64_t rows, int64_t columns,
                                             const std::string& zero_name) {
  const DTypePolicy& policy = layer.dtype_policy();
  const int bits = quantizers::detail::calibrated_weight_bits(policy);
  const int64_t groups = quantizers::detail::calibrated_groups(rows, policy);
  CalibratedVariables v;
  v.quantized_kernel = layer.add_weight({.shape = {bits == 4 ? (columns + 1) / 2 : columns, rows},
                                         .initializer = "zeros",
                                         .trainable = false,
                                         .dtype = DType::UInt8,
                                         .name = "kernel"});
  v.kernel_scale = layer.add_weight({.shape = {columns, groups},
                                     .initializer = "ones",
                                     .trainable = false,
                                     .name = "kernel_scale"});
  v.kernel_zero = layer.add_weight({.shape = {columns, groups},
                                    .initializer = "zeros",
                                    .trainable = false,
                                    .dtype = DType::UInt8,
                                    .name = zero_name});
  if (layer.quantization_mode() == "awq")
    v.awq_scales = layer.add_weight(
        {.shape = {rows}, .initializer = "ones", .trainable = false, .name = "awq_scales"});
  v.g_idx = layer.add_weight({.shape = {rows},
                              .initializer = "zeros",
                              .trainable = false,
                              .dtype = DType::Float32,
                              .name = "g_idx"});
  return v;
}

Tensor stored_levels(const Tensor& levels, const DTypePolicy& policy) {
  const Tensor values = ops::cast(levels, DType::UInt8);
  return quantizers::detail::calibrated_weight_bits(policy) == 4
             ? quantizers::pack_int4(values, 0, DType::UInt8)
             : values;
}

Tensor unpacked_levels(const Variable& quantized_kernel, int64_t columns,
                       const DTypePolicy& policy) {
  if (quantizers::detail::calibrated_weight_bits(policy) == 4)
    return quantizers::unpack_int4(quantized_kernel.value(), columns, 0, DType::UInt8);
  return quantized_kernel.value();
}

Tensor dequantized_levels(const Tensor& levels, const CalibratedVariables& v,
                          const std::string& mode) {
  Tensor w = ops::transpose(quantizers::dequantize_with_sz_map(
      levels, v.kernel_scale.value(), v.kernel_zero.value(), v.g_idx.value(), /*group_axis=*/-1));
  if (mode == "awq") w = w / ops::expand_dims(v.awq_scales.value(), -1);
  return w;
}

void assign_calibrated(CalibratedVariables v, const Tensor& quantized,
                       const Tensor& scale, const Tensor& zero, const Tensor& g_idx,
                       const Tensor& awq_scales, const DTypePolicy& policy,
                       const std::string& what) {
  const std::string& mode = policy.quantization_mode;
  check(mode == "gptq" || mode == "awq", what, ": calibrated weights need a layer in the 'gptq' "
        "or 'awq' mode (Model::quantize with a GPTQConfig or AWQConfig); its mode is '", mode,
        "'.");
  const int64_t rows = v.g_idx.shape()[0], columns = v.kernel_scale.shape()[0];
  check(quantized.shape() == Shape{columns, rows}, what, ": expected calibrated levels of shape (",
        columns, ", ", rows, "); got ", quantized.shape(), ".");
  check(mode != "awq" || awq_scales.defined(), what, ": AWQ needs awq_scales.");
  v.quantized_kernel.assign(stored_levels(quantized, policy));
  v.kernel_scale.assign(scale);
  v.kernel_zero.assign(zero);
  v.g_idx.assign(g_idx);
  if (mode == "awq") v.awq_scales.assign(awq_scales);
}

std::vector<Variable> rounded_saved_variables(const Layer& layer, const Tensor& kernel,
                                              const Variable& bias,
                                              const quantizers::QuantizationConfigPtr& config) {
  // Keras 3.15 writes the zeros its quantized kernel was built with, losing the kernel;
  // keras-cpp writes it rounded to the nearest level (GPTQ without error correction, AWQ with
  // unit scales), so the file loads into a layer that computes nearly what this one does.
  std::cerr << "UserWarning: " << layer.class_name() << " '" << layer.name() << "' is in mode '"
            << layer.quantization_mode()
            << "' but was never calibrated (it is in no block of the quantization structure); "
               "it is saved rounded to the nearest level.\n";
  const quantizers::detail::CalibratedMatrix q = quantizers::detail::round_to_nearest(
      quantizers::detail::HostMatrix::of(kernel).transposed(), config);
  std::vector<Variable> vars;
  if (bias.defined()) vars.push_back(bias);
  for (const Tensor& t : {stored_levels(q.quantized, layer.dtype_policy()), q.scale, q.zero})
    vars.emplace_back(t);
  if (layer.quantization_mode() == "awq") vars.emplace_back(q.awq_scales);
  vars.emplace_back(q.g_idx);
  return vars;
}

}  // namespace keras::layers::detail

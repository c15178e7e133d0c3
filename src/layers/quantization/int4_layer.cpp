#include "layers/quantization/int4_layer.h"

#include "keras/ops/ops.h"

namespace keras::layers::detail {

int64_t int4_block_size(const quantizers::QuantizationConfig& config) {
  return config.block_size.value_or(-1);
}

int64_t int4_block_size(const Layer& layer, const quantizers::QuantizationConfigPtr& config) {
  if (config && config->mode == "int4") return int4_block_size(*config);
  // A legacy "int4_from_<source>" policy (block_size 0) is per channel, as in Keras.
  const DTypePolicy& policy = layer.dtype_policy();
  if (policy.quantization_mode == "int4" && policy.block_size > 0) return policy.block_size;
  return -1;
}

std::string int4_policy_mode(int64_t block_size) {
  return "int4/" + std::to_string(block_size);
}

int64_t int4_groups(int64_t n, int64_t block_size) { return (n + block_size - 1) / block_size; }

Int4Kernel quantize_int4_kernel(const Tensor& kernel, int64_t block_size,
                                const quantizers::AbsMaxQuantizer& per_channel) {
  if (block_size <= 0) {
    quantizers::Quantized q = per_channel(kernel);
    return {quantizers::pack_int4(q.values, -1), ops::squeeze(q.scale, 0), Tensor()};
  }
  quantizers::GroupedQuantized q =
      quantizers::abs_max_quantize_grouped_with_zero_point(kernel, block_size);
  return {quantizers::pack_int4(q.values, -1), q.scale, q.zero};
}

Tensor dequantize_int4_kernel(const Tensor& packed, int64_t columns, const Tensor& scale,
                              const Tensor& zero, const Tensor& g_idx, DType dtype) {
  const Tensor q = quantizers::unpack_int4(packed, columns, -1);
  if (!zero.defined()) return ops::cast(q, dtype) / scale;
  return ops::cast(quantizers::dequantize_with_sz_map(q, scale, zero, g_idx, /*group_axis=*/0),
                   dtype);
}

}  // namespace keras::layers::detail

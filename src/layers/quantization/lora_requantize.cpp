#include "layers/quantization/lora_requantize.h"

#include "keras/ops/ops.h"
#include "layers/quantization/int4_layer.h"

namespace keras::layers::detail {

RequantizedKernel requantize_merged_kernel(const Tensor& merged, const std::string& mode,
                                           int64_t block_size) {
  if (mode == "int4") {
    const Int4Kernel q = quantize_int4_kernel(
        merged, block_size,
        quantizers::AbsMaxQuantizer{.axis = std::vector{0}, .value_range = {-8, 7}});
    return {q.packed, q.scale, q.zero};
  }
  const quantizers::Quantized q = quantizers::AbsMaxQuantizer{.axis = std::vector{0}}(merged);
  return {q.values, ops::squeeze(q.scale, 0), Tensor()};
}

}  // namespace keras::layers::detail

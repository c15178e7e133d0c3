#include "ops/numpy/int8_matmul.h"

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"

namespace keras::ops::detail {

Tensor int8_matmul(const Tensor& x1, const Tensor& x2, Backend& be) {
  if (x1.ndim() < 2 || x2.ndim() != 2 || x1.shape().back() != x2.shape()[0] ||
      !backend::use_fused(be, backend::Capability::QuantizedMatmul))
    return Tensor();
  const int64_t K = x2.shape()[0], N = x2.shape()[1];
  Shape out_shape(x1.shape().begin(), x1.shape().end() - 1);
  const int64_t M = out_shape.numel();
  out_shape.push_back(N);
  Tensor a = reshape(x1.is_contiguous() ? x1 : run_copy(x1, DType::Int8), {M, K});
  Tensor b = x2.is_contiguous() ? x2 : run_copy(x2, DType::Int8);
  Tensor out = empty({M, N}, DType::Int32, be);
  be.int8_matmul(out.array(), a.array(), b.array());
  return reshape(out, out_shape);
}

}  // namespace keras::ops::detail

#include "ops/nn/int4_matmul.h"

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops::detail {
namespace {

bool is_dense(const Tensor& t, DType dtype, const Shape& shape, const Backend& be) {
  return t.defined() && t.dtype() == dtype && t.shape() == shape && t.is_contiguous() &&
         &t.backend() == &be;
}

}  // namespace

Tensor int4_matmul(const Tensor& x, const Tensor& packed, int64_t units, const Tensor& scale,
                   const Tensor& zero, const Tensor& g_idx) {
  Backend& be = x.backend();
  if (x.dtype() != DType::Float32 || x.ndim() == 0 || autograd::should_record(x) ||
      !backend::use_fused(be, backend::Capability::Int4Matmul))
    return Tensor();
  const int64_t k = x.shape().back();
  if (!is_dense(packed, DType::Int8, Shape{k, (units + 1) / 2}, be)) return Tensor();
  if (!zero.defined()) {
    if (!is_dense(scale, DType::Float32, Shape{units}, be)) return Tensor();
  } else if (scale.ndim() != 2 || !is_dense(scale, DType::Float32, Shape{scale.shape()[0], units}, be) ||
             !is_dense(zero, DType::Int8, scale.shape(), be) ||
             !is_dense(g_idx, DType::Float32, Shape{k}, be)) {
    return Tensor();
  }
  const Tensor rows = as_matrix_rows(x);
  Tensor out = empty({rows.shape()[0], units}, DType::Float32, be);
  be.int4_matmul(out.array(), rows.array(), packed.array(), scale.array(),
                 zero.defined() ? zero.array() : backend::Array{},
                 zero.defined() ? g_idx.array() : backend::Array{});
  Shape out_shape = x.shape();
  out_shape[out_shape.size() - 1] = units;
  return reshape(out, out_shape);
}

}  // namespace keras::ops::detail

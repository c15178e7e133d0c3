// correlate: numpy.correlate of two 1-d tensors as one matrix-vector product over a strided
// window view of the zero-padded longer input (differentiable through the view and matmul).

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// Keras's correlate dtype: int64 computes in float64, float16/bfloat16/float64 stay, and
// everything else (bool, other integers, float32) becomes float32.
DType correlate_dtype(DType t) {
  switch (t) {
    case DType::Int64:
    case DType::Float64:
      return DType::Float64;
    case DType::Float16:
    case DType::BFloat16:
      return t;
    default:
      return DType::Float32;
  }
}

// out[t] = sum_n a_padded[t + n] * v[n] for len(a) >= len(v).
Tensor correlate_long_short(const Tensor& a, const Tensor& v, std::string_view mode) {
  const int64_t nv = v.size();
  auto& be = a.backend();
  int64_t left = 0, right = 0;
  if (mode == "full") {
    left = right = nv - 1;
  } else if (mode == "same") {
    left = nv / 2;
    right = nv - 1 - left;
  }
  Tensor padded = a;
  if (left + right > 0)
    padded = concatenate({detail::zeros_on(Shape{left}, a.dtype(), be), a,
                          detail::zeros_on(Shape{right}, a.dtype(), be)});
  return linalg_detail::product(extract_sequences(padded, nv, 1), v);
}

}  // namespace

Tensor correlate(const Tensor& x1, const Tensor& x2, std::string_view mode) {
  constexpr std::string_view op = "correlate";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  check(x1.ndim() == 1 && x2.ndim() == 1, op, ": inputs must be 1-d; got shapes ", x1.shape(),
        " and ", x2.shape(), ".");
  check(mode == "valid" || mode == "same" || mode == "full", op,
        ": mode must be 'valid', 'same' or 'full'; got '", mode, "'.");
  check(x1.size() > 0 && x2.size() > 0, op, ": inputs cannot be empty; got shapes ", x1.shape(),
        " and ", x2.shape(), ".");
  auto& be = detail::common_backend(op, {&x1, &x2});
  const DType dtype = correlate_dtype(detail::promote({&x1, &x2}));
  Tensor a = detail::prepare(x1, dtype, be), v = detail::prepare(x2, dtype, be);
  if (a.size() >= v.size()) return correlate_long_short(a, v, mode);
  // NumPy swaps the inputs when the second is longer, then reverses the result.
  Tensor swapped = correlate_long_short(v, a, mode);
  const int64_t n = swapped.size();
  return linalg_detail::slice_axis(swapped, 0, n - 1, n, -1);
}

}  // namespace numpy
}  // namespace keras::ops

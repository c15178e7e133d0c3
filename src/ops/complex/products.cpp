// prod and cumprod of complex tensors: complex multiplications (compositions of real ops, so
// autograd differentiates them unchanged) arranged as a tree, log2(n) steps deep.

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/op_utils.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops::complex_detail {

Tensor product(const Tensor& x, uint64_t mask, bool keepdims) {
  // The reduced axes merged into the last one, then its halves multiplied pairwise (an odd
  // element carried along) until one remains.
  Tensor t = detail::merge_axes_last(x, mask);
  const int last = t.ndim() - 1;
  int64_t n = t.shape()[last];
  if (n == 0) {
    Shape kept = t.shape();
    kept[last] = 1;
    t = filled(kept, 1, x.dtype(), x.backend());
    n = 1;
  }
  while (n > 1) {
    const int64_t half = n / 2;
    Tensor paired =
        multiply(detail::slice_axis(t, last, 0, half), detail::slice_axis(t, last, half, 2 * half));
    t = n % 2 ? concatenate({paired, detail::slice_axis(t, last, 2 * half, n)}, last) : paired;
    n = half + n % 2;
  }
  return reshape(t, detail::reduced_shape(x.shape(), mask, keepdims));
}

Tensor running_product(const Tensor& x, int axis) {
  // Hillis-Steele: after the step of width s, each element holds the product of the s * 2
  // elements ending at it (or of all before it).
  const int64_t n = x.shape()[axis];
  Tensor t = x;
  for (int64_t s = 1; s < n; s *= 2)
    t = concatenate(
        {detail::slice_axis(t, axis, 0, s),
         multiply(detail::slice_axis(t, axis, s, n), detail::slice_axis(t, axis, 0, n - s))},
        axis);
  return t;
}

}  // namespace keras::ops::complex_detail

// max, min, sort and argsort of complex tensors in NumPy's (and JAX's)
// lexicographic order: by real part, ties by imaginary part. Built from the real ops on the
// parts; the values are gathered from the input, so gradients flow to the chosen elements.

#include <limits>

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/op_utils.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops::complex_detail {
namespace {

// The int64 index (keepdims) of the lexicographic extreme along the last axis of complex t:
// the first position whose real part is extreme and, among those, whose imaginary part is.
Tensor last_axis_extreme_index(const Tensor& t, bool largest) {
  NoGradScope no_grad;  // indices carry no gradient
  const double loser =
      largest ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  Tensor re = real_part(t), im = imag_part(t);
  Tensor best_re = largest ? ops::max(re, -1, true) : ops::min(re, -1, true);
  Tensor on_best = equal(re, best_re);
  Tensor candidates = where(on_best, im, loser);
  Tensor best_im = largest ? ops::max(candidates, -1, true) : ops::min(candidates, -1, true);
  Tensor hit = logical_and(on_best, equal(im, best_im));
  return detail::cast(argmax(hit, -1, true), DType::Int64);  // argmax takes the first true
}

}  // namespace

Tensor extreme(const Tensor& x, uint64_t mask, bool keepdims, bool largest) {
  Tensor t = detail::merge_axes_last(x, mask);
  Tensor picked = take_along_axis(t, last_axis_extreme_index(t, largest), -1);
  return reshape(picked, detail::reduced_shape(x.shape(), mask, keepdims));
}

Tensor lexicographic_order(const Tensor& x) {
  // Two stable sorts: by imaginary part, then by real part (ties keep the first order).
  NoGradScope no_grad;
  Tensor by_im = detail::sort_last(imag_part(x), false, false, true).second;
  Tensor re_in_that_order = take_along_axis(real_part(x), by_im, -1);
  Tensor by_re = detail::sort_last(re_in_that_order, false, false, true).second;
  return take_along_axis(by_im, by_re, -1);
}

}  // namespace keras::ops::complex_detail

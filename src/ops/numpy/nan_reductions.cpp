// nansum, nanprod, nanmean, nanmax, nanmin: reductions that skip NaN. Each replaces NaN by
// the reduction's neutral value with `where`, so NaN positions get a zero gradient.

#include <limits>

#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

Tensor nan_extreme(std::string_view op, const Tensor& x, const Axes& axis, bool keepdims,
                   bool is_max) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (!is_floating(x.dtype()) && !is_complex(x.dtype()))
    return is_max ? max(x, axis, keepdims) : min(x, axis, keepdims);
  constexpr double inf = std::numeric_limits<double>::infinity();
  Tensor nan = detail::isnan_mask(x);  // complex: a NaN in either part
  // NaNs become the identity of the extreme (complex: -inf + 0j or inf + 0j, as JAX).
  Tensor filled = where(nan, is_max ? -inf : inf, x);
  Tensor r = is_max ? max(filled, axis, keepdims) : min(filled, axis, keepdims);
  return where(all(nan, axis, keepdims), std::numeric_limits<double>::quiet_NaN(), r);
}

}  // namespace

Tensor nansum(const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), "nansum: the input is an undefined tensor.");
  return sum(detail::replace_nan(x, 0), axis, keepdims);
}

Tensor nanprod(const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), "nanprod: the input is an undefined tensor.");
  return prod(detail::replace_nan(x, 1), axis, keepdims);
}

Tensor nanmean(const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), "nanmean: the input is an undefined tensor.");
  if (!is_floating(x.dtype()) && !is_complex(x.dtype())) return mean(x, axis, keepdims);
  Tensor count = sum(logical_not(detail::isnan_mask(x)), axis, keepdims);
  return divide(sum(detail::replace_nan(x, 0), axis, keepdims), count);
}

Tensor nanmax(const Tensor& x, const Axes& axis, bool keepdims) {
  return nan_extreme("nanmax", x, axis, keepdims, true);
}
Tensor nanmin(const Tensor& x, const Axes& axis, bool keepdims) {
  return nan_extreme("nanmin", x, axis, keepdims, false);
}

}  // namespace numpy
}  // namespace keras::ops

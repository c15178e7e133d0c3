// zeros, ones, full, *_like, arange.

#include <cmath>

#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

Tensor full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype) {
  // Keras infers int32 for an int, floatx for a float, bool for a bool.
  DType t = dtype ? *dtype
                  : (fill_value.is_floating() ? config::floatx() : fill_value.dtype());
  auto& b = backend::current();
  Tensor out = detail::empty(shape, t, b);
  if (out.size() > 0) b.fill(out.array(), fill_value);
  return out;
}

Tensor zeros(const Shape& shape, std::optional<DType> dtype) {
  return full(shape, 0, dtype.value_or(config::floatx()));
}

Tensor ones(const Shape& shape, std::optional<DType> dtype) {
  return full(shape, 1, dtype.value_or(config::floatx()));
}

Tensor full_like(const Tensor& x, const Scalar& fill_value, std::optional<DType> dtype) {
  check(x.defined(), "full_like: the input is an undefined tensor.");
  auto& b = x.backend();
  Tensor out = detail::empty(x.shape(), dtype.value_or(x.dtype()), b);
  if (out.size() > 0) b.fill(out.array(), fill_value);
  return out;
}

Tensor zeros_like(const Tensor& x, std::optional<DType> dtype) { return full_like(x, 0, dtype); }
Tensor ones_like(const Tensor& x, std::optional<DType> dtype) { return full_like(x, 1, dtype); }

Tensor arange(const Scalar& start, std::optional<Scalar> stop, const Scalar& step,
              std::optional<DType> dtype) {
  Scalar lo = stop ? start : Scalar(0), hi = stop ? *stop : start;
  bool all_int = !lo.is_floating() && !hi.is_floating() && !step.is_floating();
  DType t = dtype ? *dtype : (all_int ? DType::Int32 : config::floatx());
  double s = step.to_double();
  check(s != 0, "arange: step cannot be zero.");
  double n = std::ceil((hi.to_double() - lo.to_double()) / s);
  check(std::isfinite(n), "arange: start, stop and step must be finite; got ", lo, ", ", hi,
        ", ", step, ".");
  int64_t count = n > 0 ? static_cast<int64_t>(n) : 0;
  auto& b = backend::current();
  Tensor out = detail::empty(Shape{count}, t, b);
  if (count > 0) b.arange(out.array(), lo.to_double(), s);
  return out;
}

}  // namespace numpy
}  // namespace keras::ops

// zeros, ones, full, empty, *_like, array, copy, arange, meshgrid.

#include <cmath>

#include "keras/autograd/node.h"
#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

Tensor full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype) {
  // Keras: the dtype defaults to floatx() whatever the fill value (ops.full(shape, 7) is float).
  DType t = dtype.value_or(config::floatx());
  auto& b = backend::current();
  return detail::filled(shape, fill_value, t, b);
}

Tensor zeros(const Shape& shape, std::optional<DType> dtype) {
  return full(shape, 0, dtype.value_or(config::floatx()));
}

Tensor ones(const Shape& shape, std::optional<DType> dtype) {
  return full(shape, 1, dtype.value_or(config::floatx()));
}

Tensor full_like(const Tensor& x, const Scalar& fill_value, std::optional<DType> dtype) {
  check(x.defined(), "full_like: the input is an undefined tensor.");
  return detail::filled(x.shape(), fill_value, dtype.value_or(x.dtype()), x.backend());
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

Tensor empty(const Shape& shape, std::optional<DType> dtype) {
  return detail::empty(shape, dtype.value_or(config::floatx()), backend::current());
}

Tensor empty_like(const Tensor& x, std::optional<DType> dtype) {
  check(x.defined(), "empty_like: the input is an undefined tensor.");
  return detail::empty(x.shape(), dtype.value_or(x.dtype()), x.backend());
}

Tensor copy(const Tensor& x) {
  check(x.defined(), "copy: the input is an undefined tensor.");
  if (x.is_weak()) return detail::cast(x, x.dtype());
  Tensor out = detail::run_copy(x, x.dtype());
  if (autograd::should_record(x)) {
    autograd::record("copy", {x}, out, [](const autograd::Context&, const Tensor& g) {
      return TensorList{g};
    });
  }
  return out;
}

Tensor array(const Tensor& x, std::optional<DType> dtype) {
  check(x.defined(), "array: the input is an undefined tensor.");
  Tensor c = copy(x);
  return dtype ? detail::cast(c, *dtype) : c;
}

TensorList meshgrid(const std::vector<Tensor>& xs, std::string_view indexing) {
  constexpr std::string_view op = "meshgrid";
  check(indexing == "xy" || indexing == "ij", op, ": indexing must be 'xy' or 'ij'; got '",
        indexing, "'.");
  const int n = static_cast<int>(xs.size());
  Shape shape;
  for (size_t i = 0; i < xs.size(); ++i) {
    check(xs[i].defined(), op, ": an input is an undefined tensor.");
    check(xs[i].ndim() == 1, op, ": every input must be 1-d; input ", i, " has shape ",
          xs[i].shape(), ".");
    shape.push_back(xs[i].size());
  }
  // Cartesian ("xy") indexing swaps the first two output axes.
  const bool xy = indexing == "xy" && n >= 2;
  if (xy) std::swap(shape[0], shape[1]);
  TensorList out;
  for (int i = 0; i < n; ++i) {
    const int at = xy && i < 2 ? 1 - i : i;
    Shape lifted = detail::ones_shape(n);
    lifted[at] = xs[i].size();
    out.push_back(broadcast_to(reshape(xs[i], lifted), shape));
  }
  return out;
}

}  // namespace numpy
}  // namespace keras::ops

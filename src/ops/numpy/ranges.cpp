// linspace, logspace, geomspace. They compute in float64 with differentiable ops (so start
// and stop may be tensors that need gradients) and cast once to the result dtype.

#include <cmath>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// The samples of one linspace call, before the final cast: start and stop broadcast together
// and expanded at `axis`, the sample positions t in [0, 1] along it, and the masks of the
// first and last samples.
struct Samples {
  Tensor start, stop, t, first, last;
  int axis = 0;
};

Samples make_samples(std::string_view op, const Tensor& start, const Tensor& stop, int64_t num,
                     bool endpoint, int axis) {
  check(start.defined() && stop.defined(), op, ": start or stop is an undefined tensor.");
  check(num >= 0, op, ": num must be non-negative; got ", num, ".");
  auto& be = detail::common_backend(op, {&start, &stop});
  Tensor s = detail::prepare(start, DType::Float64, be);
  Tensor e = detail::prepare(stop, DType::Float64, be);
  const Shape b = detail::broadcast_shapes(op, s.shape(), e.shape());
  Samples out;
  out.axis = detail::normalize_axis(op, axis, b.rank() + 1);
  out.start = expand_dims(broadcast_to(s, b), out.axis);
  out.stop = expand_dims(broadcast_to(e, b), out.axis);
  Shape lifted = detail::ones_shape(b.rank() + 1);
  lifted[out.axis] = num;
  const int64_t div = endpoint ? num - 1 : num;
  Tensor i = detail::empty(Shape{num}, DType::Float64, be);
  if (num > 0) be.arange(i.array(), 0, 1);
  out.t = reshape(div > 0 ? divide(i, static_cast<double>(div)) : i, lifted);
  out.first = reshape(equal(i, 0.0), lifted);
  out.last = reshape(equal(i, static_cast<double>(num - 1)), lifted);
  return out;
}

// The float64 samples cast to `dtype`; integer dtypes round down, as JAX does.
Tensor finish(const Tensor& values, DType dtype) {
  if (is_floating(dtype)) return detail::cast(values, dtype);
  return detail::run_copy(detail::run_unary(backend::UnaryOp::Floor, values), dtype);
}

DType result_dtype(const Tensor& start, const Tensor& stop, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return float_result_type(detail::promote({&start, &stop}));
}

Tensor linspace_f64(std::string_view op, const Tensor& start, const Tensor& stop, int64_t num,
                    bool endpoint, int axis) {
  Samples s = make_samples(op, start, stop, num, endpoint, axis);
  Tensor values = add(s.start, multiply(subtract(s.stop, s.start), s.t));
  // The last sample is exactly stop, as NumPy guarantees.
  return endpoint && num > 1 ? where(s.last, s.stop, values) : values;
}

}  // namespace

Tensor linspace(const Tensor& start, const Tensor& stop, int64_t num,
                const LinspaceOptions& options) {
  check(start.defined() && stop.defined(), "linspace: start or stop is an undefined tensor.");
  const DType dtype = result_dtype(start, stop, options.dtype);
  if (is_complex(dtype)) {
    // Each part is a linspace of its own: the samples are linear in the fraction.
    LinspaceOptions parts = options;
    parts.dtype = complex_part_dtype(dtype);
    Tensor s = cast(start, dtype), e = cast(stop, dtype);
    return view_as_complex(stack(
        {linspace(real(s), real(e), num, parts), linspace(imag(s), imag(e), num, parts)}, -1));
  }
  return finish(linspace_f64("linspace", start, stop, num, options.endpoint, options.axis), dtype);
}

Tensor logspace(const Tensor& start, const Tensor& stop, int64_t num,
                const LogspaceOptions& options) {
  Tensor exponents = linspace_f64("logspace", start, stop, num, options.endpoint, options.axis);
  return finish(power(options.base, exponents), result_dtype(start, stop, options.dtype));
}

Tensor geomspace(const Tensor& start, const Tensor& stop, int64_t num,
                 const LinspaceOptions& options) {
  constexpr std::string_view op = "geomspace";
  Samples s = make_samples(op, start, stop, num, options.endpoint, options.axis);
  // A geometric sequence needs nonzero ends of one sign (checked once, on the host; shape
  // inference, on the symbolic backend, has no values to check).
  Tensor signs = multiply(sign(s.start), sign(s.stop));
  if (signs.size() > 0 && !signs.backend().is_symbolic()) {
    const uint64_t all = signs.ndim() ? detail::axes_mask(op, {}, signs.ndim()) : 0;
    const double worst = detail::host_scalar(detail::run_reduce(backend::ReduceOp::Min, signs, all));
    check(worst > 0, op, ": start and stop must be nonzero and of the same sign (a geometric "
          "sequence cannot include zero or change sign).");
  }
  Tensor direction = sign(s.start);
  Tensor lo = log(absolute(s.start)), hi = log(absolute(s.stop));
  Tensor values = multiply(direction, exp(add(lo, multiply(subtract(hi, lo), s.t))));
  // The ends are exact, as NumPy makes them.
  values = where(s.first, s.start, values);
  if (options.endpoint && num > 1) values = where(s.last, s.stop, values);
  return finish(values, result_dtype(start, stop, options.dtype));
}

}  // namespace numpy
}  // namespace keras::ops

// saturate_cast: clip to the range the target dtype can hold, then cast. The bounds are the
// target's limits rounded into the source dtype toward zero (so they never round past the
// limit), as Keras computes them with ml_dtypes; each side is clipped only when the target
// range is narrower on that side.

#include <cmath>
#include <limits>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace core {

namespace {

// A dtype's range: exact integer limits, or float limits.
struct Range {
  bool integer = false;
  int64_t ilo = 0, ihi = 0;
  double lo = 0, hi = 0;
};

Range range_of(DType t) {
  Range r;
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      r = {true, 0, 1, 0, 1};
    } else if constexpr (std::is_integral_v<T>) {
      r.integer = true;
      r.ilo = std::numeric_limits<T>::min();
      r.ihi = std::numeric_limits<T>::max();
      r.lo = static_cast<double>(r.ilo);
      r.hi = static_cast<double>(r.ihi);
    } else if constexpr (std::is_same_v<T, float16_t>) {
      r.lo = -65504.0;
      r.hi = 65504.0;
    } else if constexpr (std::is_same_v<T, bfloat16_t>) {
      r.hi = static_cast<float>(bfloat16_t::from_bits(0x7f7f));
      r.lo = -r.hi;
    } else {
      r.hi = static_cast<double>(std::numeric_limits<T>::max());
      r.lo = -r.hi;
    }
  });
  return r;
}

// The next value of T toward zero (finite, nonzero v).
template <typename T>
T toward_zero(T v) {
  if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
    return T::from_bits(static_cast<uint16_t>(v.bits - 1));
  } else {
    return std::nextafter(v, T(0));
  }
}

// limit (a value of the target range) as a value of the float type T that does not exceed it
// in magnitude.
template <typename T>
T float_bound(const Range& out, bool upper) {
  if (out.integer) {
    const int64_t limit = upper ? out.ihi : out.ilo;
    T t = static_cast<T>(static_cast<double>(limit));
    const double d = static_cast<double>(t);
    // Compare exactly: doubles at or beyond +-2^63 exceed every int64.
    const bool past = upper ? (d >= 9223372036854775808.0 || static_cast<int64_t>(d) > limit)
                            : (d < -9223372036854775808.0 || static_cast<int64_t>(d) < limit);
    return past ? toward_zero(t) : t;
  }
  const double limit = upper ? out.hi : out.lo;
  T t = static_cast<T>(limit);
  const double d = static_cast<double>(t);
  return (upper ? d > limit : d < limit) ? toward_zero(t) : t;
}

}  // namespace

Tensor saturate_cast(const Tensor& x, DType dtype) {
  constexpr std::string_view op = "saturate_cast";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (x.is_weak()) return saturate_cast(detail::cast(x, x.dtype()), dtype);
  if (dtype == x.dtype()) return x;
  const Range in = range_of(x.dtype()), out = range_of(dtype);
  auto& be = x.backend();
  // The clip bounds as scalars of x's dtype; unset where no clip is needed.
  std::optional<Scalar> lo, hi;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      // bool fits every target.
    } else if constexpr (std::is_integral_v<T>) {
      if (out.lo > in.lo)
        lo = Scalar::typed_int(out.integer ? out.ilo : static_cast<int64_t>(std::ceil(out.lo)),
                               x.dtype());
      if (out.hi < in.hi)
        hi = Scalar::typed_int(out.integer ? out.ihi : static_cast<int64_t>(std::floor(out.hi)),
                               x.dtype());
    } else {
      if (out.lo > in.lo)
        lo = Scalar::typed(static_cast<double>(float_bound<T>(out, false)), x.dtype());
      if (out.hi < in.hi)
        hi = Scalar::typed(static_cast<double>(float_bound<T>(out, true)), x.dtype());
    }
  });
  Tensor clipped = x;
  if (lo)
    clipped = detail::run_binary(backend::BinaryOp::Maximum, clipped,
                                 detail::scalar_tensor(*lo, x.dtype(), be));
  if (hi)
    clipped = detail::run_binary(backend::BinaryOp::Minimum, clipped,
                                 detail::scalar_tensor(*hi, x.dtype(), be));
  Tensor result = detail::run_copy(clipped, dtype);
  if (out.integer && hi && is_floating(x.dtype()) &&
      hi->to_double() < static_cast<double>(out.ihi)) {
    // The float bound lies below the integer limit (2^31 - 1 and 2^63 - 1 are not floats):
    // values past it saturate to the limit itself, as Keras's conversion does (XLA's
    // float-to-int conversion saturates).
    Tensor past = detail::run_binary(backend::BinaryOp::Greater, x,
                                     detail::scalar_tensor(*hi, x.dtype(), be));
    result = where(past, detail::scalar_tensor(Scalar::typed_int(out.ihi, dtype), dtype, be),
                   result);
  }
  if (is_floating(x.dtype()) && is_floating(dtype) && autograd::should_record(x)) {
    // The gradient passes where the value was not clipped.
    Tensor kept = detail::run_binary(backend::BinaryOp::Equal, clipped, x);
    const DType from = x.dtype();
    autograd::record(op, {x}, result, [kept, from](const autograd::Context&, const Tensor& g) {
      Tensor gx = detail::cast(g, from);
      return TensorList{where(kept, gx, detail::scalar_tensor(0, from, gx.backend()))};
    });
  }
  return result;
}

}  // namespace core
}  // namespace keras::ops

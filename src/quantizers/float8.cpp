#include "keras/quantizers/float8.h"

#include <cmath>
#include <limits>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::quantizers {
namespace {

struct Float8Format {
  int exponent_bias;   // e4m3fn: 7, e5m2: 15
  int mantissa_bits;   // e4m3fn: 3, e5m2: 2
  double max;
  bool has_infinity;   // e5m2 overflows to inf, e4m3fn to nan
};

Float8Format format_of(const std::string& name) {
  if (name == "float8_e4m3fn") return {7, 3, 448.0, false};
  if (name == "float8_e5m2") return {15, 2, 57344.0, true};
  throw ValueError("float8: unknown format '" + name +
                   "'; expected 'float8_e4m3fn' or 'float8_e5m2' (the two Keras uses).");
}

Tensor int32(int64_t v) {
  return Tensor(Scalar::typed_int(v, DType::Int32));
}

}  // namespace

double float8_max(const std::string& format) {
  return format_of(format).max;
}

Tensor round_to_float8(const Tensor& x, const std::string& format) {
  const Float8Format f = format_of(format);
  check(is_floating(x.dtype()), "round_to_float8: expected a floating tensor; got ",
        dtype_name(x.dtype()), ".");
  const Tensor v = ops::cast(x, DType::Float32);
  // The spacing of the float8 values around |v|: 2^(e - mantissa_bits), where e is v's binary
  // exponent (read from its float32 bits, so exact), but no less than the format's smallest
  // normal exponent (below it the subnormals share one spacing).
  Tensor biased = ops::right_shift(ops::view(ops::abs(v), DType::Int32), int32(23));
  Tensor exponent = ops::maximum(ops::subtract(biased, int32(127)), int32(1 - f.exponent_bias));
  Tensor spacing_bits =
      ops::left_shift(ops::add(ops::subtract(exponent, int32(f.mantissa_bits)), int32(127)),
                      int32(23));
  Tensor spacing = ops::view(spacing_bits, DType::Float32);
  // v / spacing and the product are exact (powers of two); round is half to even.
  Tensor rounded = ops::multiply(ops::round(ops::divide(v, spacing)), spacing);
  Tensor overflow = ops::greater(ops::abs(rounded), f.max);
  Tensor past = f.has_infinity
                    ? ops::multiply(ops::sign(rounded),
                                    ops::full({}, std::numeric_limits<double>::infinity(),
                                              DType::Float32))
                    : ops::full({}, std::numeric_limits<double>::quiet_NaN(), DType::Float32);
  return ops::cast(ops::where(overflow, past, rounded), x.dtype());
}

Tensor quantize_and_dequantize(const Tensor& inputs, const Tensor& scale,
                               const std::string& format, DType compute_dtype) {
  const double max = float8_max(format);
  const Tensor s = ops::cast(scale, compute_dtype);
  Tensor x = ops::clip(ops::divide(inputs, s), -max, max);
  x = round_to_float8(ops::cast(x, compute_dtype), format);
  return ops::multiply(x, s);
}

Tensor compute_float8_scale(const Tensor& amax, const Tensor& scale, const Tensor& dtype_max,
                            int margin) {
  const Tensor old = ops::reciprocal(scale);
  Tensor sf = ops::divide(ops::divide(dtype_max, amax), std::ldexp(1.0, margin));
  sf = ops::where(ops::greater(amax, 0.0), sf, old);
  sf = ops::where(ops::isfinite(amax), sf, old);
  return ops::reciprocal(sf);
}

Tensor compute_float8_amax_history(const Tensor& x, const Tensor& amax_history) {
  check(amax_history.ndim() == 1 && amax_history.shape()[0] >= 1,
        "compute_float8_amax_history: expected a non-empty 1-D amax_history; got shape ",
        amax_history.shape(), ".");
  Tensor amax = ops::reshape(ops::cast(ops::max(ops::abs(x)), amax_history.dtype()), {1});
  Tensor rolled = ops::roll(amax_history, -1);
  const int64_t n = amax_history.shape()[0];
  return ops::concatenate({amax, ops::slice(rolled, {1}, {n - 1})}, 0);
}

}  // namespace keras::quantizers

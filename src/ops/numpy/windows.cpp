// Window functions: bartlett, blackman, hamming, hanning, kaiser. Computed in float64 on the
// current backend with NumPy's formulas, then cast to floatx() as Keras does.

#include <algorithm>
#include <numbers>

#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// start, start + step, ... (M values) in float64.
Tensor steps(int64_t M, double start, double step) {
  auto& be = backend::current();
  Tensor out = detail::empty(Shape{M}, DType::Float64, be);
  be.arange(out.array(), start, step);
  return out;
}

// The window of M points from `body`, which sees n = 1-M, 3-M, ..., M-1 and the denominator
// M - 1; windows of fewer than two points are empty or a single 1.
template <typename Body>
Tensor window(int64_t M, Body body) {
  // NumPy returns an empty window for M < 1 rather than failing.
  if (M < 2) return ones({std::max<int64_t>(M, 0)}, config::floatx());
  return detail::cast(body(steps(M, static_cast<double>(1 - M), 2.0), static_cast<double>(M - 1)),
                      config::floatx());
}

// a + b cos(pi n / d) + c cos(2 pi n / d): the generalized cosine windows.
Tensor cosine_sum(const Tensor& n, double d, double a, double b, double c) {
  Tensor phase = multiply(n, std::numbers::pi / d);
  Tensor out = add(multiply(cos(phase), b), a);
  return c == 0 ? out : add(out, multiply(cos(multiply(phase, 2.0)), c));
}

}  // namespace

Tensor bartlett(int64_t M) {
  return window(M, [](const Tensor& n, double d) {
    return subtract(1.0, divide(absolute(n), d));
  });
}

Tensor blackman(int64_t M) {
  return window(M, [](const Tensor& n, double d) {
    return cosine_sum(n, d, 0.42, 0.5, 0.08);
  });
}

Tensor hamming(int64_t M) {
  return window(M, [](const Tensor& n, double d) {
    return cosine_sum(n, d, 0.54, 0.46, 0.0);
  });
}

Tensor hanning(int64_t M) {
  return window(M, [](const Tensor& n, double d) {
    return cosine_sum(n, d, 0.5, 0.5, 0.0);
  });
}

Tensor kaiser(int64_t M, double beta) {
  return window(M, [beta](const Tensor& n, double d) {
    // i0(beta sqrt(1 - (2k/(M-1) - 1)^2)) / i0(beta) for k = 0..M-1, and n = 2k - (M-1).
    Tensor r = divide(n, d);
    Tensor arg = multiply(sqrt(subtract(1.0, square(r))), beta);
    return divide(i0(arg), i0(detail::scalar_tensor(beta, DType::Float64, n.backend())));
  });
}

}  // namespace numpy
}  // namespace keras::ops

#pragma once
// Finite-difference gradient checking, for tests of ops and of user code alike.
//
//   auto r = keras::testing::gradcheck(
//       [](const std::vector<keras::Tensor>& x) { return keras::ops::tanh(x[0]); }, {x});
//   EXPECT_TRUE(r.ok) << r.message;
//
// The function's output is projected on a fixed random cotangent u, so one backward pass gives
// d<u, f(x)>/dx, which is compared with central differences of <u, f(x)> element by element.
// Run it in float64: the inputs are converted and the differences are then accurate to ~1e-9.

#include <functional>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::testing {

/// gradcheck's arguments.
struct GradcheckOptions {
  /// The finite-difference step: each element moves by +-eps.
  double eps = 1e-6;   // finite-difference step
  /// Absolute tolerance: an element passes when |analytic - numeric| <= atol + rtol * |numeric|.
  double atol = 1e-5;  // |analytic - numeric| <= atol + rtol * |numeric|
  /// Relative tolerance (see atol).
  double rtol = 1e-4;
  /// The seed of the random cotangent the output is projected on.
  uint64_t seed = 0;   // for the cotangent
  /// Inputs (by position) not to differentiate, e.g. integer indices.
  std::vector<size_t> skip;
};

/// What gradcheck returns.
struct GradcheckResult {
  /// Whether every element was within tolerance.
  bool ok = true;
  /// The largest |analytic - numeric| over every checked element.
  double max_abs_error = 0;
  /// The first mismatch: input, element, analytic and numeric values.
  std::string message;
};

/// Compares the autograd gradient of `fn` at `inputs` with central differences.
GradcheckResult gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                          const std::vector<Tensor>& inputs, const GradcheckOptions& options = {});

}  // namespace keras::testing

#pragma GCC visibility pop

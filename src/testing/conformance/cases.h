#pragma once
// The cases of the conformance suite (internal to src/testing/conformance).

#include <functional>
#include <string>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/core/shape.h"
#include "keras/tensor/tensor.h"

namespace keras::testing::conformance {

/// How one input is drawn: uniform in [lo, hi) on the reference backend (floored for integer
/// dtypes), then copied to the backend under test, so both start from the same bits.
struct InputSpec {
  Shape shape;
  double lo = -1, hi = 1;
  DType dtype = DType::Float32;
};

/// One computation, run on both backends.
struct Case {
  std::string family;
  std::string name;
  std::vector<InputSpec> inputs;
  std::function<std::vector<Tensor>(const std::vector<Tensor>&)> run;
  double bound = 1e-6;
  /// Also compare the gradients of sum(outputs[0] * r) with respect to the float inputs.
  bool differentiable = false;
};

/// Ops, one per backend primitive and fused capability (op_cases.cpp, nn_cases.cpp).
std::vector<Case> op_cases();
std::vector<Case> nn_cases();
/// Layers built on the backend under test with the same seed (layer_cases.cpp).
std::vector<Case> layer_cases();

/// The difference measure of conformance.h; NaN when the two disagree on shape, dtype, NaN
/// positions or an integer value.
double difference(const Tensor& actual, const Tensor& reference);

}  // namespace keras::testing::conformance

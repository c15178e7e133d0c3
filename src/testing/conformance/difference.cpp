#include <algorithm>
#include <cmath>
#include <limits>

#include "keras/ops/ops.h"
#include "testing/conformance/cases.h"

namespace keras::testing::conformance {

double difference(const Tensor& actual, const Tensor& reference) {
  constexpr double kDisagree = std::numeric_limits<double>::quiet_NaN();
  if (actual.shape() != reference.shape() || actual.dtype() != reference.dtype()) return kDisagree;
  std::vector<double> a = ops::cast(actual.to(reference.backend_name()), DType::Float64).to_vector<double>();
  std::vector<double> b = ops::cast(reference, DType::Float64).to_vector<double>();
  const bool exact = !is_floating(reference.dtype());
  double scale = 0;
  for (double v : b)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  const double floor = std::max(scale * 1e-3, std::numeric_limits<double>::min());
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (std::isnan(a[i]) != std::isnan(b[i])) return kDisagree;
      continue;
    }
    if (a[i] == b[i]) continue;  // also equal infinities
    if (exact || std::isinf(a[i]) || std::isinf(b[i])) return kDisagree;
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), floor));
  }
  return worst;
}

}  // namespace keras::testing::conformance

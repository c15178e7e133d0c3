#include "assertions.h"

#include <cmath>
#include <sstream>

#include "keras/ops/ops.h"

namespace keras::test {

double default_rtol(DType t) {
  switch (t) {
    case DType::Float32: return 1e-6;
    case DType::Float64: return 1e-12;
    case DType::Float16: return 1e-3;
    case DType::BFloat16: return 1e-2;
    default: return 0;
  }
}

::testing::AssertionResult tensors_near(const Tensor& actual, const Tensor& expected, double rtol,
                                        double atol, bool check_dtype) {
  if (!actual.defined()) return ::testing::AssertionFailure() << "the result is undefined";
  if (check_dtype && actual.dtype() != expected.dtype())
    return ::testing::AssertionFailure()
           << "dtype " << actual.dtype() << ", expected " << expected.dtype();
  if (actual.shape() != expected.shape())
    return ::testing::AssertionFailure()
           << "shape " << actual.shape() << ", expected " << expected.shape();
  // Complex values compare part by part (to_vector<double> would keep the real parts only);
  // without the dtype check a real tensor compares as complex with zero imaginary parts.
  const bool pairs = is_complex(actual.dtype()) || is_complex(expected.dtype());
  auto values = [pairs](const Tensor& t) {
    return (pairs ? ops::view_as_real(t) : t).to_vector<double>();
  };
  std::vector<double> a = values(actual), e = values(expected);
  for (size_t i = 0; i < a.size(); ++i) {
    bool ok;
    if (std::isnan(e[i])) ok = std::isnan(a[i]);
    else if (std::isinf(e[i])) ok = a[i] == e[i];
    else ok = std::abs(a[i] - e[i]) <= atol + rtol * std::abs(e[i]);
    if (!ok) {
      std::ostringstream m;
      m.precision(17);
      m << "element " << i << " of " << a.size() << ": " << a[i] << ", expected " << e[i]
        << " (abs diff " << std::abs(a[i] - e[i]) << ", rtol " << rtol << ", atol " << atol
        << ")";
      return ::testing::AssertionFailure() << m.str();
    }
  }
  return ::testing::AssertionSuccess();
}

Tensor make(const std::vector<double>& values, const Shape& shape, DType dtype) {
  return ops::cast(Tensor::from_vector(values, shape), dtype);
}

}  // namespace keras::test

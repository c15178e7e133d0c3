#include "keras/testing/gradcheck.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"
#include "keras/random/philox.h"

namespace keras::testing {
namespace {

// <u, f(x)> in float64 on the host.
double projected(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                 const std::vector<Tensor>& inputs, const std::vector<double>& u) {
  Tensor y = fn(inputs);
  std::vector<double> v = y.to_vector<double>();
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i] * u[i];
  return s;
}

}  // namespace

GradcheckResult gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                          const std::vector<Tensor>& inputs, const GradcheckOptions& options) {
  GradcheckResult result;
  auto skipped = [&](size_t i) {
    return std::find(options.skip.begin(), options.skip.end(), i) != options.skip.end() ||
           !is_floating(inputs[i].dtype());
  };
  // Work in float64 on the inputs' own backend.
  std::vector<Tensor> x;
  for (size_t i = 0; i < inputs.size(); ++i)
    x.push_back(skipped(i) ? inputs[i] : ops::cast(inputs[i], DType::Float64).contiguous());

  // Analytic: one backward pass of <u, f(x)>.
  std::vector<double> u;
  std::vector<Tensor> analytic;
  {
    GradientTape tape;
    std::vector<Tensor> watched;
    for (size_t i = 0; i < x.size(); ++i) {
      watched.push_back(skipped(i) ? x[i] : ops::stop_gradient(x[i]));
      if (!skipped(i)) tape.watch(watched.back());
    }
    Tensor y = fn(watched);
    const size_t n = static_cast<size_t>(y.size());
    u.resize(n);
    for (size_t i = 0; i < n; ++i)  // a fixed cotangent in [-1, 1), never tiny
      u[i] = 0.5 + 0.5 * random::philox::unit53(random::philox::word(options.seed, 7, 2 * i) |
                                               (uint64_t{random::philox::word(options.seed, 7, 2 * i + 1)} << 32));
    for (size_t i = 0; i < n; i += 2) u[i] = -u[i];
    Tensor ut = ops::cast(Tensor::from_vector(u, y.shape(), y.backend_name()), y.dtype());
    Tensor loss = ops::sum(ops::multiply(y, ut));
    std::vector<Tensor> sources;
    for (size_t i = 0; i < x.size(); ++i)
      if (!skipped(i)) sources.push_back(watched[i]);
    analytic = tape.gradient(loss, sources);
  }

  // Numeric: central differences, one element at a time.
  size_t k = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (skipped(i)) continue;
    std::vector<double> base = x[i].to_vector<double>();
    std::vector<double> a = analytic[k++].to_vector<double>();
    for (size_t j = 0; j < base.size(); ++j) {
      std::vector<Tensor> probe = x;
      std::vector<double> moved = base;
      moved[j] = base[j] + options.eps;
      probe[i] = Tensor::from_vector(moved, x[i].shape(), x[i].backend_name());
      double plus = projected(fn, probe, u);
      moved[j] = base[j] - options.eps;
      probe[i] = Tensor::from_vector(moved, x[i].shape(), x[i].backend_name());
      double minus = projected(fn, probe, u);
      double numeric = (plus - minus) / (2 * options.eps);
      double err = std::abs(a[j] - numeric);
      result.max_abs_error = std::max(result.max_abs_error, err);
      if (!(err <= options.atol + options.rtol * std::abs(numeric)) && result.ok) {
        result.ok = false;
        std::ostringstream m;
        m << "input " << i << " element " << j << ": analytic " << a[j] << " vs numeric "
          << numeric << " (abs error " << err << ")";
        result.message = m.str();
      }
    }
  }
  return result;
}

}  // namespace keras::testing

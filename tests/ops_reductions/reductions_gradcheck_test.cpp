// Every differentiable op of this family against central differences in float64, plus a few
// second-order checks (the gradient rules are written with differentiable ops).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;
using test::sin_values;

using Fn = test::GradFn;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Deterministic, irregular float64 values without ties.
Tensor values(const std::vector<double>& v, const Shape& shape) {
  return Tensor::from_vector(v, shape);
}

// The gradient of sum(fn(x)^2) as a function of x (a nested tape), to check second
// derivatives.
Fn gradient_of(Fn fn) {
  return [fn](const std::vector<Tensor>& x) {
    GradientTape tape;
    Tensor xs = x[0];
    tape.watch(xs);
    Tensor y = ops::sum(ops::square(fn({xs})));
    return tape.gradient(y, xs);
  };
}

TEST(ReductionsGradcheck, SumsAndProducts) {
  Tensor a = randn({3, 4, 2}, 1);
  expect_gradcheck("sum", [](auto& x) { return ops::sum(x[0], {0, 2}); }, {a});
  expect_gradcheck("mean", [](auto& x) { return ops::mean(x[0], -1, true); }, {a});
  expect_gradcheck("prod", [](auto& x) { return ops::prod(x[0], 1); }, {a});
  expect_gradcheck("prod_axes", [](auto& x) { return ops::prod(x[0], {0, 2}, true); }, {a});
  expect_gradcheck("prod_all", [](auto& x) { return ops::prod(x[0]); }, {randn({2, 3}, 2)});
  // Zeros: one zero gives the product of the others, two give zero (as JAX).
  Tensor z = values({2.0, 0.0, 3.0, 1.5, 0.0, 0.0, -1.0, 4.0, 0.5, 2.0, -3.0, 0.0}, {3, 4});
  expect_gradcheck("prod_zeros", [](auto& x) { return ops::prod(x[0], 1); }, {z});
  expect_gradcheck("prod_zeros_axis0", [](auto& x) { return ops::prod(x[0], 0); }, {z});
  Tensor n = values({1.0, kNaN, 2.0, -3.0, kNaN, 0.5}, {2, 3});
  expect_gradcheck("nansum", [](auto& x) { return ops::nansum(x[0], 1); }, {n});
  expect_gradcheck("nanprod", [](auto& x) { return ops::nanprod(x[0], 1); }, {n});
  expect_gradcheck("nanmean", [](auto& x) { return ops::nanmean(x[0], 1); }, {n});
  expect_gradcheck("average", [](auto& x) { return ops::average(x[0], 1); }, {a});
  expect_gradcheck("average_weights", [](auto& x) { return ops::average(x[0], 1, x[1]); },
                   {randn({3, 4}, 3), randn({4}, 4, 0.5, 2.0)});
  expect_gradcheck("average_weights_same_shape",
                   [](auto& x) { return ops::average(x[0], {}, x[1]); },
                   {randn({3, 4}, 5), randn({3, 4}, 6, 0.5, 2.0)});
  expect_gradcheck("trapezoid", [](auto& x) { return ops::trapezoid(x[0], Tensor(), 0.5, 0); },
                   {randn({5, 3}, 7)});
  expect_gradcheck("trapezoid_x", [](auto& x) { return ops::trapezoid(x[0], x[1]); },
                   {randn({2, 5}, 8), randn({5}, 9)});
  expect_gradcheck("logsumexp", [](auto& x) { return ops::logsumexp(x[0], {0, 2}); }, {a});
  expect_gradcheck("logsumexp_all", [](auto& x) { return ops::logsumexp(x[0]); },
                   {randn({4, 3}, 10, 30.0)});
}

TEST(ReductionsGradcheck, Extremes) {
  Tensor a = randn({3, 5}, 11);
  expect_gradcheck("max", [](auto& x) { return ops::max(x[0], 1); }, {a});
  expect_gradcheck("min", [](auto& x) { return ops::min(x[0], {0, 1}, true); }, {a});
  expect_gradcheck("amax", [](auto& x) { return ops::amax(x[0], 0, true); }, {a});
  expect_gradcheck("amin", [](auto& x) { return ops::amin(x[0]); }, {a});
  expect_gradcheck("ptp", [](auto& x) { return ops::ptp(x[0], 1); }, {a});
  expect_gradcheck("max_initial", [](auto& x) { return ops::max(x[0], 1, false, Scalar(0.0)); },
                   {a});
  Tensor n = values({1.0, kNaN, 2.0, -3.0, kNaN, 0.5}, {2, 3});
  expect_gradcheck("nanmax", [](auto& x) { return ops::nanmax(x[0], 1); }, {n});
  expect_gradcheck("nanmin", [](auto& x) { return ops::nanmin(x[0], 1); }, {n});
}

TEST(ReductionsGradcheck, TiesSplitEvenly) {
  // Finite differences are undefined at ties; the rule splits the gradient as JAX does.
  Tensor x = values({1.0, 3.0, 3.0, 3.0, -1.0, 2.0}, {6});
  for (auto fn : {+[](const Tensor& t) { return ops::amax(t); },
                  +[](const Tensor& t) { return ops::nanmax(t); }}) {
    Tensor g = grad([fn](const std::vector<Tensor>& t) { return fn(t[0]); }, {x})[0];
    EXPECT_TENSOR_NEAR(g, values({0, 1.0 / 3, 1.0 / 3, 1.0 / 3, 0, 0}, {6}), 1e-12, 1e-12);
  }
  Tensor s =
      ops::segment_max(x, Tensor::from_vector(std::vector<int32_t>{0, 0, 0, 1, 1, 1}, {6}), 2);
  Tensor g = grad(
      [](const std::vector<Tensor>& t) {
        return ops::sum(ops::segment_max(
            t[0], Tensor::from_vector(std::vector<int32_t>{0, 0, 0, 1, 1, 1}, {6}), 2));
      },
      {x})[0];
  EXPECT_TENSOR_NEAR(g, values({0, 0.5, 0.5, 1, 0, 0}, {6}), 1e-12, 1e-12);
  EXPECT_TENSOR_NEAR(s, values({3, 3}, {2}), 0, 0);
}

TEST(ReductionsGradcheck, Cumulative) {
  Tensor a = randn({3, 4}, 12);
  expect_gradcheck("cumsum", [](auto& x) { return ops::cumsum(x[0], 1); }, {a});
  expect_gradcheck("cumsum_flat", [](auto& x) { return ops::cumsum(x[0]); }, {a});
  expect_gradcheck("cumprod", [](auto& x) { return ops::cumprod(x[0], 0); }, {a});
  expect_gradcheck("cumprod_flat", [](auto& x) { return ops::cumprod(x[0]); }, {randn({5}, 13)});
  Tensor z =
      values({2.0, 0.0, 3.0, 0.0, 5.0, 1.5, -2.0, 0.0, 4.0, 1.0, 0.0, 0.0, 2.0, 3.0, 0.5}, {3, 5});
  expect_gradcheck("cumprod_zeros", [](auto& x) { return ops::cumprod(x[0], 1); }, {z});
  Tensor n = values({1.0, kNaN, 2.0, -3.0, kNaN, 0.5}, {2, 3});
  expect_gradcheck("nancumsum", [](auto& x) { return ops::nancumsum(x[0], 1); }, {n});
  expect_gradcheck("nancumprod", [](auto& x) { return ops::nancumprod(x[0], 1); }, {n});
}

TEST(ReductionsGradcheck, Moments) {
  Tensor a = randn({3, 5}, 14);
  expect_gradcheck("var", [](auto& x) { return ops::var(x[0], 1); }, {a});
  expect_gradcheck("var_all", [](auto& x) { return ops::var(x[0]); }, {a});
  expect_gradcheck("std", [](auto& x) { return ops::std(x[0], 0, true); }, {a});
  Tensor n = values({1.0, kNaN, 2.0, -3.0, kNaN, 0.5, 4.0, 1.0}, {2, 4});
  expect_gradcheck("nanvar", [](auto& x) { return ops::nanvar(x[0], 1); }, {n});
  expect_gradcheck("nanstd", [](auto& x) { return ops::nanstd(x[0], 1); }, {n});
  expect_gradcheck("corrcoef", [](auto& x) { return ops::corrcoef(x[0]); }, {randn({3, 6}, 15)});
  expect_gradcheck("corrcoef_1d", [](auto& x) { return ops::corrcoef(x[0]); }, {randn({6}, 16)});
}

TEST(ReductionsGradcheck, OrderStatistics) {
  Tensor a = randn({3, 6}, 17);
  Tensor q = Tensor::from_vector(std::vector<double>{0.1, 0.5, 0.83}, {3});
  expect_gradcheck("median", [](auto& x) { return ops::median(x[0], 1); }, {a});
  expect_gradcheck("median_odd", [](auto& x) { return ops::median(x[0], 0, true); }, {a});
  for (std::string method : {"linear", "lower", "higher", "midpoint", "nearest"})
    expect_gradcheck("quantile_" + method,
                     [q, method](auto& x) { return ops::quantile(x[0], q, 1, method); }, {a});
  expect_gradcheck("percentile", [](auto& x) { return ops::percentile(x[0], 30.0); }, {a});
  Tensor n = values({1.0, kNaN, 2.0, -3.0, kNaN, 0.5, 4.0, 1.5}, {2, 4});
  expect_gradcheck("nanmedian", [](auto& x) { return ops::nanmedian(x[0], 1); }, {n});
  expect_gradcheck("nanquantile", [q](auto& x) { return ops::nanquantile(x[0], q, 1); }, {n});
  expect_gradcheck("nanpercentile", [](auto& x) { return ops::nanpercentile(x[0], 70.0, 1); }, {n});
  expect_gradcheck("sort", [](auto& x) { return ops::sort(x[0], 0); }, {a});
  expect_gradcheck("sort_flat", [](auto& x) { return ops::sort(x[0], std::nullopt); }, {a});
  expect_gradcheck("top_k", [](auto& x) { return ops::top_k(x[0], 3).first; }, {a});
}

TEST(ReductionsGradcheck, Segments) {
  Tensor data = randn({6, 2}, 18);
  // Ids out of range are dropped; segment 3 stays empty (finite for sum and prod only).
  Tensor ids = Tensor::from_vector(std::vector<int32_t>{0, 2, 2, -1, 0, 1}, {6});
  expect_gradcheck("segment_sum", [ids](auto& x) { return ops::segment_sum(x[0], ids, 4); },
                   {data});
  expect_gradcheck("segment_max", [ids](auto& x) { return ops::segment_max(x[0], ids, 3); },
                   {data});
  expect_gradcheck("segment_min", [ids](auto& x) { return ops::segment_min(x[0], ids, 3); },
                   {data});
  expect_gradcheck("segment_prod", [ids](auto& x) { return ops::segment_prod(x[0], ids, 4); },
                   {data});
  Tensor z = values({2.0, 0.0, 3.0, 0.0, 5.0, 0.0, -2.0, 1.5}, {8});
  Tensor zid = Tensor::from_vector(std::vector<int32_t>{0, 0, 0, 1, 1, 2, 2, 1}, {8});
  expect_gradcheck("segment_prod_zeros", [zid](auto& x) { return ops::segment_prod(x[0], zid, 3); },
                   {z});
  Tensor bins = Tensor::from_vector(std::vector<int32_t>{1, 3, 1, 0}, {4});
  expect_gradcheck("bincount_weights", [bins](auto& x) { return ops::bincount(bins, x[0], 5); },
                   {randn({4}, 19)});
}

TEST(ReductionsGradcheck, SecondOrder) {
  Tensor a = randn({3, 4}, 20, 0.6);
  Tensor ids = Tensor::from_vector(std::vector<int32_t>{1, 0, 1}, {3});
  const std::pair<const char*, Fn> fns[] = {
      {"cumsum", [](auto& x) { return ops::cumsum(x[0], 1); }},
      {"cumprod", [](auto& x) { return ops::cumprod(x[0], 1); }},
      {"prod", [](auto& x) { return ops::prod(x[0], 0); }},
      {"sort", [](auto& x) { return ops::sort(x[0], 1); }},
      {"top_k", [](auto& x) { return ops::top_k(x[0], 2).first; }},
      {"logsumexp", [](auto& x) { return ops::logsumexp(x[0], 1); }},
      {"quantile", [](auto& x) { return ops::quantile(x[0], 0.3, 1); }},
      {"segment_sum", [ids](auto& x) { return ops::segment_sum(x[0], ids, 2); }},
      {"segment_prod", [ids](auto& x) { return ops::segment_prod(x[0], ids, 2); }},
      {"var", [](auto& x) { return ops::var(x[0], 0); }},
  };
  for (const auto& [name, fn] : fns)
    expect_gradcheck(std::string(name) + "_second_order", gradient_of(fn), {a});
}

}  // namespace
}  // namespace keras

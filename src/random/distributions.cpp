// categorical, gamma, beta, binomial: samplers written with ops over a fixed number of
// candidate draws per element, so every element is a pure function of (seed, counter, index),
// whatever the other elements drew (the algorithms are documented in keras/random/random.h).

#include <cmath>
#include <functional>
#include <limits>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"
#include "random/draw.h"

namespace keras::random {
namespace {

using backend::BinaryOp;
using backend::RandomKind;
using backend::ReduceOp;
using backend::UnaryOp;
using detail::DrawKey;
using ops::detail::run_binary;
using ops::detail::run_unary;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor logical_and(const Tensor& a, const Tensor& b) {
  return run_binary(BinaryOp::LogicalAnd, a, b);
}
Tensor logical_or(const Tensor& a, const Tensor& b) {
  return run_binary(BinaryOp::LogicalOr, a, b);
}
Tensor floor(const Tensor& x) { return run_unary(UnaryOp::Floor, x); }
Tensor lgamma(const Tensor& x) { return run_unary(UnaryOp::Lgamma, x); }

// Rejection samplers test a fixed number of candidates per element, kGroup at a time.
// Group g of an element draws its candidates from its own streams, laid out (*shape, kGroup)
// so that the kGroup candidates of element i are consecutive: element i depends on i alone,
// not on the shape.
constexpr int64_t kGroup = 4;

Shape group_shape(const Shape& shape) {
  Shape out = shape;
  out.push_back(kGroup);
  return out;
}

// True when some element of the bool tensor `x` is set (one value read on the host).
bool host_any(const Tensor& x) {
  if (x.size() == 0) return false;
  return ops::detail::host_scalar(ops::detail::run_reduce(ReduceOp::Any, x, ~uint64_t{0})) != 0;
}

// Per element, the value of the first candidate that `test` accepts over `groups` groups,
// else `fallback` (broadcastable to (*shape, 1)). test(g) returns the values and the
// acceptance of group g's candidates, shaped (*shape, kGroup). Groups are drawn and tested
// only while some element has accepted none: the result is the one testing every group
// would give, usually after one or two groups.
using GroupTest = std::function<std::pair<Tensor, Tensor>(uint64_t group)>;
Tensor first_accepted(uint64_t groups, const GroupTest& test, const Tensor& fallback) {
  Tensor result = fallback, found;
  for (uint64_t g = 0; g < groups; ++g) {
    auto [values, accepted] = test(g);
    auto& be = values.backend();
    const int last = accepted.ndim() - 1;
    Shape kept = accepted.shape();
    kept[last] = 1;
    Tensor first = ops::detail::empty(kept, DType::Int64, be);
    be.arg_reduce(backend::ArgReduceOp::ArgMax, first.array(), accepted.array(), last);
    Tensor any = ops::detail::run_reduce(ReduceOp::Any, accepted, uint64_t{1} << last);
    Tensor take = found.defined() ? logical_and(any, ops::logical_not(found)) : any;
    result = ops::where(take, ops::detail::gather_along(values, first, last), result);
    found = found.defined() ? logical_or(found, any) : any;
    if (!host_any(ops::logical_not(found))) break;
  }
  return ops::squeeze(result, -1);
}

// log of Gamma(alpha, 1) draws for float64 `alpha`, on streams base .. base + 4.
Tensor log_gamma_draw(const Tensor& alpha, const DrawKey& key, uint64_t base) {
  constexpr uint64_t kGroups = 2;
  auto& be = alpha.backend();
  Tensor boosted = ops::less(alpha, 1.0);
  Tensor d = ops::where(boosted, alpha + 1.0, alpha) - 1.0 / 3.0;
  Tensor dk = ops::expand_dims(d, -1);  // against the candidates
  Tensor c = 1.0 / ops::sqrt(dk * 9.0);
  auto test = [&](uint64_t g) {
    Tensor x = key.stream(RandomKind::Normal, group_shape(alpha.shape()), DType::Float64, be,
                          base + 2 * g);
    Tensor u = key.stream(RandomKind::Uniform, group_shape(alpha.shape()), DType::Float64, be,
                          base + 2 * g + 1);
    Tensor t = c * x + 1.0;
    Tensor v = t * t * t;
    Tensor positive = ops::greater(v, 0.0);
    Tensor log_v = ops::log(ops::where(positive, v, 1.0));
    Tensor bound = ops::square(x) * 0.5 + dk - dk * v + dk * log_v;
    return std::pair{log_v, logical_and(positive, ops::less(ops::log(u), bound))};
  };
  Tensor log_g = ops::log(d) + first_accepted(kGroups, test, 0.0);
  // alpha < 1: Gamma(alpha) = Gamma(alpha + 1) w^(1 / alpha), w in (0, 1].
  Tensor w = 1.0 - key.stream(RandomKind::Uniform, alpha.shape(), DType::Float64, be,
                              base + 2 * kGroups);
  log_g = ops::where(boosted, log_g + ops::log(w) / alpha, log_g);
  return ops::where(ops::greater_equal(alpha, 0.0), log_g, kNaN);
}

// Binomial(n, q) for n q < 10 by inversion: the number of j with CDF(j) < u.
Tensor binomial_inversion(const Tensor& n, const Tensor& q, const DrawKey& key) {
  constexpr int kSteps = 48;
  Tensor u = key.stream(RandomKind::Uniform, n.shape(), DType::Float64, n.backend(), 0);
  Tensor ratio = q / (1.0 - q);
  Tensor pmf = ops::exp(n * run_unary(UnaryOp::Log1p, ops::negative(q)));
  Tensor cdf = pmf;
  Tensor count = ops::zeros_like(n);
  for (int j = 0; j < kSteps; ++j) {
    count = count + ops::cast(ops::less(cdf, u), DType::Float64);
    pmf = pmf * ops::maximum(n - static_cast<double>(j), 0.0) * ratio / static_cast<double>(j + 1);
    cdf = cdf + pmf;
  }
  return ops::minimum(count, n);
}

// Binomial(n, q) for n q >= 10 (q <= 1/2) by Hormann's BTRS, on streams 1 .. 12.
Tensor binomial_btrs(const Tensor& counts, const Tensor& prob, const DrawKey& key) {
  constexpr uint64_t kGroups = 6;
  auto& be = counts.backend();
  // The per-element constants, with a trailing axis to broadcast against the candidates.
  Tensor n = ops::expand_dims(counts, -1), q = ops::expand_dims(prob, -1);
  Tensor spq = ops::sqrt(n * q * (1.0 - q));
  Tensor b = spq * 2.53 + 1.15;
  Tensor a = b * 0.0248 + q * 0.01 - 0.0873;
  Tensor c = n * q + 0.5;
  Tensor v_r = 0.92 - 4.2 / b;
  Tensor alpha = (5.1 / b + 2.83) * spq;
  Tensor log_ratio = ops::log(q / (1.0 - q));
  Tensor m = floor((n + 1.0) * q);
  Tensor h = lgamma(m + 1.0) + lgamma(n - m + 1.0);
  auto test = [&](uint64_t g) {
    const Shape shape = group_shape(counts.shape());
    Tensor u = key.stream(RandomKind::Uniform, shape, DType::Float64, be, 1 + 2 * g) - 0.5;
    Tensor v = key.stream(RandomKind::Uniform, shape, DType::Float64, be, 2 + 2 * g);
    Tensor us = 0.5 - ops::abs(u);
    Tensor k = floor((a * 2.0 / us + b) * u + c);
    Tensor squeeze = logical_and(ops::greater_equal(us, 0.07), ops::less_equal(v, v_r));
    Tensor inside = logical_and(ops::greater_equal(k, 0.0), ops::less_equal(k, n));
    Tensor kc = ops::minimum(ops::maximum(k, 0.0), n);
    Tensor lhs = ops::log(v * alpha / (a / ops::square(us) + b));
    Tensor log_pmf_ratio = h - lgamma(kc + 1.0) - lgamma(n - kc + 1.0) + (kc - m) * log_ratio;
    Tensor accepted =
        logical_or(squeeze, logical_and(inside, ops::less_equal(lhs, log_pmf_ratio)));
    return std::pair{kc, accepted};
  };
  return first_accepted(kGroups, test, m);
}

}  // namespace

Tensor categorical(const Tensor& logits, int64_t num_samples, std::optional<DType> dtype,
                   const Seed& seed) {
  constexpr std::string_view op = "random::categorical";
  check(logits.defined(), op, ": logits is an undefined tensor.");
  check(logits.ndim() == 2, op,
        ": logits should be a 2-D tensor with shape (batch_size, num_classes); got shape ",
        logits.shape(), ".");
  check(num_samples >= 0, op, ": num_samples must be >= 0; got ", num_samples, ".");
  const DType t = dtype.value_or(DType::Int32);
  const int64_t batch = logits.shape()[0], classes = logits.shape()[1];
  const bool none = batch == 0 || num_samples == 0;
  check(none || classes > 0, op, ": logits has no classes (shape ", logits.shape(), ").");
  auto key = DrawKey::from(seed);
  auto& be = logits.backend();
  if (none) return ops::detail::empty({batch, num_samples}, t, be);
  // Gumbel-max: argmax_c (logits_c - log(-log u_c)).
  Tensor l = ops::stop_gradient(ops::cast(logits, DType::Float64)).reshape({batch, 1, classes});
  Tensor u = key.stream(RandomKind::Uniform, {batch, num_samples, classes}, DType::Float64, be);
  Tensor log_e = run_unary(UnaryOp::Log, run_unary(UnaryOp::Neg, run_unary(UnaryOp::Log, u)));
  Tensor scores = run_binary(BinaryOp::Sub, l, log_e);
  Tensor index = ops::detail::empty({batch, num_samples, 1}, DType::Int64, be);
  be.arg_reduce(backend::ArgReduceOp::ArgMax, index.array(), scores.array(), 2);
  return ops::cast(index.reshape({batch, num_samples}), t);
}

Tensor gamma(const Shape& shape, const Tensor& alpha, std::optional<DType> dtype,
             const Seed& seed) {
  constexpr std::string_view op = "random::gamma";
  const DType t = detail::float_dtype(op, dtype);
  auto& be = ops::detail::common_backend(op, {&alpha});
  Tensor a = detail::param_to_shape(op, "alpha", alpha, shape, be);
  auto key = DrawKey::from(seed);
  return ops::cast(ops::exp(log_gamma_draw(a, key, 0)), t);
}

Tensor beta(const Shape& shape, const Tensor& alpha, const Tensor& beta,
            std::optional<DType> dtype, const Seed& seed) {
  constexpr std::string_view op = "random::beta";
  const DType t = detail::float_dtype(op, dtype);
  auto& be = ops::detail::common_backend(op, {&alpha, &beta});
  Tensor a = detail::param_to_shape(op, "alpha", alpha, shape, be);
  Tensor b = detail::param_to_shape(op, "beta", beta, shape, be);
  auto key = DrawKey::from(seed);
  Tensor diff = log_gamma_draw(a, key, 0) - log_gamma_draw(b, key, 5);
  return ops::cast(run_unary(UnaryOp::Sigmoid, diff), t);
}

Tensor binomial(const Shape& shape, const Tensor& counts, const Tensor& probabilities,
                std::optional<DType> dtype, const Seed& seed) {
  constexpr std::string_view op = "random::binomial";
  const DType t = detail::float_dtype(op, dtype);
  auto& be = ops::detail::common_backend(op, {&counts, &probabilities});
  Tensor n = detail::param_to_shape(op, "counts", counts, shape, be);
  Tensor p = detail::param_to_shape(op, "probabilities", probabilities, shape, be);
  auto key = DrawKey::from(seed);
  if (n.size() == 0) return ops::detail::empty(shape, t, be);
  // Sample Binomial(n, q) with q = min(p, 1 - p) <= 1/2, mirrored back where p > 1/2.
  Tensor flip = ops::greater(p, 0.5);
  Tensor q = ops::where(flip, 1.0 - p, p);
  Tensor small = ops::less(n * q, 10.0);
  Tensor k;
  const bool any_small = host_any(small), any_large = host_any(ops::logical_not(small));
  if (any_small) k = binomial_inversion(n, q, key);
  if (any_large) {
    Tensor large = binomial_btrs(n, q, key);
    k = any_small ? ops::where(small, k, large) : large;
  }
  k = ops::where(flip, n - k, k);
  Tensor valid = logical_and(logical_and(ops::greater_equal(n, 0.0), ops::greater_equal(p, 0.0)),
                             ops::less_equal(p, 1.0));
  return ops::cast(ops::where(valid, k, kNaN), t);
}

}  // namespace keras::random

// Every differentiable op of the family against central differences in float64, on
// well-conditioned inputs. Decompositions with sign-ambiguous factors are checked through
// functions invariant to those signs; eigh and cholesky see symmetrized inputs.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"
#include "ops/linalg/common.h"

namespace keras {
namespace {

using test::expect_gradcheck;

namespace la = ops::linalg_detail;
using Fn = test::GradFn;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Deterministic values uniform in [shift - 1.7 scale, shift + 1.7 scale). (Samples of one
// sinusoid would make every matrix rank 2.)
std::vector<double> uniform(int64_t n, uint64_t seed, double scale = 1.0, double shift = 0.0) {
  std::mt19937_64 gen(seed);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = shift + scale * 1.7 * (static_cast<double>(gen() >> 11) * 0x1p-52 - 1.0);
  return v;
}

Tensor randn(const Shape& shape, uint64_t seed, double scale = 1.0, double shift = 0.0) {
  return Tensor::from_vector(uniform(shape.numel(), seed, scale, shift), shape);
}

// Square matrices (..., n, n) with a strong, graded diagonal: well conditioned, distinct
// spectra.
Tensor well(const Shape& shape, uint64_t seed) {
  const int64_t n = shape.back();
  std::vector<double> v = uniform(shape.numel(), seed);
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t row = static_cast<int64_t>(i) / n % n, col = static_cast<int64_t>(i) % n;
    if (row == col) v[i] += 2.0 * static_cast<double>(n + row);
  }
  return Tensor::from_vector(v, shape);
}

// Flattens and joins several outputs, so that one gradcheck covers them all.
Tensor join(const TensorList& parts) {
  TensorList flat;
  for (const Tensor& t : parts)
    if (t.defined()) flat.push_back(ops::ravel(t));
  return ops::concatenate(flat);
}

TEST(LinalgGradcheck, Products) {
  Tensor a34 = randn({3, 4}, 1), b42 = randn({4, 2}, 2), a234 = randn({2, 3, 4}, 3);
  expect_gradcheck("matmul", [](auto& x) { return ops::matmul(x[0], x[1]); }, {a34, b42});
  expect_gradcheck("dot_2d", [](auto& x) { return ops::dot(x[0], x[1]); }, {a34, b42});
  expect_gradcheck("dot_nd_1d", [](auto& x) { return ops::dot(x[0], x[1]); }, {a234, randn({4}, 4)});
  expect_gradcheck("dot_nd_md", [](auto& x) { return ops::dot(x[0], x[1]); },
                   {a234, randn({5, 4, 2}, 5)});
  expect_gradcheck("dot_0d", [](auto& x) { return ops::dot(x[0], x[1]); }, {randn({}, 6), a34});
  expect_gradcheck("tensordot", [](auto& x) { return ops::tensordot(x[0], x[1], {{1, 2}, {2, 0}}); },
                   {a234, randn({4, 2, 3}, 7)});
  expect_gradcheck("tensordot_int", [](auto& x) { return ops::tensordot(x[0], x[1], 1); },
                   {a234, b42});
  expect_gradcheck("outer", [](auto& x) { return ops::outer(x[0], x[1]); }, {a34, randn({3}, 8)});
  expect_gradcheck("inner", [](auto& x) { return ops::inner(x[0], x[1]); }, {a234, randn({5, 4}, 9)});
  expect_gradcheck("kron", [](auto& x) { return ops::kron(x[0], x[1]); }, {randn({2, 3}, 10), randn({3}, 11)});
  expect_gradcheck("vdot", [](auto& x) { return ops::vdot(x[0], x[1]); }, {a34, randn({4, 3}, 12)});
}

TEST(LinalgGradcheck, Einsum) {
  auto check = [](const std::string& subscripts, const std::vector<Tensor>& inputs) {
    expect_gradcheck("einsum " + subscripts,
                     [subscripts](auto& x) { return ops::einsum(subscripts, x); }, inputs);
  };
  check("ij,jk->ik", {randn({3, 4}, 1), randn({4, 2}, 2)});
  check("ij,kj->ik", {randn({3, 4}, 1), randn({2, 4}, 2)});
  check("bij,bjk->bik", {randn({2, 3, 4}, 3), randn({2, 4, 2}, 4)});
  check("...ij,...jk->...ik", {randn({2, 1, 3, 4}, 5), randn({3, 4, 2}, 6)});
  check("ii->i", {randn({4, 4}, 7)});
  check("ii", {randn({4, 4}, 8)});
  check("iij,jk->ik", {randn({3, 3, 4}, 9), randn({4, 2}, 10)});
  check("ij->ji", {randn({3, 4}, 11)});
  check("ij,ij->i", {randn({3, 4}, 12), randn({1, 4}, 13)});
  check("bi,bi->b", {randn({5, 4}, 14), randn({5, 4}, 15)});
  check("i,j->ij", {randn({3}, 16), randn({4}, 17)});
  check("ij,jk,kl->il", {randn({2, 3}, 18), randn({3, 4}, 19), randn({4, 2}, 20)});
  check("bn,anm,bm->ba", {randn({2, 3}, 21), randn({4, 3, 5}, 22), randn({2, 5}, 23)});
}

TEST(LinalgGradcheck, CrossCorrelateSequences) {
  expect_gradcheck("cross_3_3", [](auto& x) { return ops::cross(x[0], x[1]); },
                   {randn({4, 3}, 1), randn({4, 3}, 2)});
  expect_gradcheck("cross_2_3", [](auto& x) { return ops::cross(x[0], x[1]); },
                   {randn({4, 2}, 3), randn({1, 3}, 4)});
  expect_gradcheck("cross_2_2", [](auto& x) { return ops::cross(x[0], x[1]); },
                   {randn({4, 2}, 5), randn({4, 2}, 6)});
  expect_gradcheck("cross_axes", [](auto& x) { return ops::cross(x[0], x[1], 0, 1, 0); },
                   {randn({3, 4}, 7), randn({4, 3}, 8)});
  for (std::string mode : {"valid", "same", "full"}) {
    expect_gradcheck("correlate_" + mode, [mode](auto& x) { return ops::correlate(x[0], x[1], mode); },
                     {randn({7}, 9), randn({4}, 10)});
    expect_gradcheck("correlate_swapped_" + mode,
                     [mode](auto& x) { return ops::correlate(x[0], x[1], mode); },
                     {randn({3}, 11), randn({6}, 12)});
  }
  expect_gradcheck("extract_sequences_overlap",
                   [](auto& x) { return ops::extract_sequences(x[0], 4, 2); }, {randn({2, 11}, 13)});
  expect_gradcheck("extract_sequences_gaps",
                   [](auto& x) { return ops::extract_sequences(x[0], 2, 3); }, {randn({9}, 14)});
  for (double p : {2.0, 1.0, 3.0, kInf}) {
    expect_gradcheck("cdist_p" + std::to_string(p), [p](auto& x) { return ops::cdist(x[0], x[1], p); },
                     {randn({2, 4, 3}, 15), randn({5, 3}, 16)});
  }
}

TEST(LinalgGradcheck, Factorizations) {
  Tensor s4 = well({4, 4}, 1), b4 = well({2, 3, 3}, 2);
  auto chol = [](bool upper) {
    return [upper](auto& x) { return ops::cholesky(la::symmetrize(x[0]), upper); };
  };
  expect_gradcheck("cholesky", chol(false), {s4});
  expect_gradcheck("cholesky_upper", chol(true), {s4});
  expect_gradcheck("cholesky_batched", chol(false), {b4});
  expect_gradcheck("cholesky_inverse", [](auto& x) { return ops::cholesky_inverse(x[0]); },
                   {ops::tril(s4)});
  expect_gradcheck("cholesky_inverse_upper", [](auto& x) { return ops::cholesky_inverse(x[0], true); },
                   {ops::triu(s4)});
  expect_gradcheck("lu_factor_square", [](auto& x) { return ops::lu_factor(x[0]).first; }, {randn({4, 4}, 3)});
  expect_gradcheck("lu_factor_batched", [](auto& x) { return ops::lu_factor(x[0]).first; }, {randn({2, 3, 3}, 4)});
  expect_gradcheck("lu_factor_tall", [](auto& x) { return ops::lu_factor(x[0]).first; }, {randn({5, 3}, 5)});
  expect_gradcheck("lu_factor_wide", [](auto& x) { return ops::lu_factor(x[0]).first; }, {randn({3, 5}, 6)});
  auto qr = [](std::string mode) {
    return [mode](auto& x) {
      auto [q, r] = ops::qr(x[0], mode);
      return join({q, r});
    };
  };
  expect_gradcheck("qr_square", qr("reduced"), {randn({4, 4}, 7)});
  expect_gradcheck("qr_tall", qr("reduced"), {randn({5, 3}, 8)});
  expect_gradcheck("qr_wide", qr("reduced"), {randn({3, 5}, 9)});
  expect_gradcheck("qr_complete_square", qr("complete"), {randn({2, 3, 3}, 10)});
  expect_gradcheck("qr_complete_wide", qr("complete"), {randn({3, 4}, 11)});
}

TEST(LinalgGradcheck, SpectralDecompositions) {
  // Functions of u and vh that do not depend on the signs of singular vector pairs.
  auto svd_invariant = [](bool full) {
    return [full](auto& x) {
      auto [u, s, vh] = ops::svd(x[0], full);
      const int r = x[0].ndim();
      const int64_t k = s.shape().back();
      Tensor uk = la::slice_axis(u, r - 1, 0, k), vk = la::slice_axis(vh, r - 2, 0, k);
      Tensor w = ops::arange(1.0, static_cast<double>(k) + 1.0, 1.0, DType::Float64);
      Tensor weighted = ops::matmul(ops::multiply(uk, w), vk);
      return join({s, ops::square(uk), ops::square(vk), weighted});
    };
  };
  expect_gradcheck("svd_values", [](auto& x) { return std::get<1>(ops::svd(x[0], false, false)); },
                   {randn({4, 3}, 1)});
  expect_gradcheck("svd_values_batched", [](auto& x) { return std::get<1>(ops::svd(x[0], true, false)); },
                   {randn({2, 3, 5}, 2)});
  expect_gradcheck("svd_tall", svd_invariant(false), {randn({5, 3}, 3)});
  expect_gradcheck("svd_wide", svd_invariant(false), {randn({3, 5}, 4)});
  expect_gradcheck("svd_square_full", svd_invariant(true), {randn({4, 4}, 5)});
  expect_gradcheck("svd_tall_full", svd_invariant(true), {randn({2, 5, 3}, 6)});
  auto eigh_invariant = [](auto& x) {
    auto [w, v] = ops::eigh(la::symmetrize(x[0]));
    Tensor c = ops::arange(1.0, static_cast<double>(w.shape().back()) + 1.0, 1.0, DType::Float64);
    return join({w, ops::square(v), ops::matmul(ops::multiply(v, c), la::mT(v))});
  };
  expect_gradcheck("eigh", eigh_invariant, {randn({4, 4}, 7)});
  expect_gradcheck("eigh_batched", eigh_invariant, {randn({2, 3, 3}, 8)});
}

TEST(LinalgGradcheck, DeterminantsAndInverses) {
  Tensor a = well({4, 4}, 1), batch = well({2, 3, 3}, 2);
  expect_gradcheck("det", [](auto& x) { return ops::det(x[0]); }, {batch});
  expect_gradcheck("det_negative", [](auto& x) { return ops::det(ops::negative(x[0])); }, {batch});
  expect_gradcheck("slogdet", [](auto& x) {
    auto [s, l] = ops::slogdet(x[0]);
    return join({s, l});
  }, {batch});
  expect_gradcheck("logdet", [](auto& x) { return ops::logdet(x[0]); }, {a});
  expect_gradcheck("inv", [](auto& x) { return ops::inv(x[0]); }, {batch});
  expect_gradcheck("solve_matrix", [](auto& x) { return ops::solve(x[0], x[1]); }, {a, randn({4, 2}, 3)});
  expect_gradcheck("solve_vector", [](auto& x) { return ops::solve(x[0], x[1]); }, {a, randn({4}, 4)});
  expect_gradcheck("solve_broadcast", [](auto& x) { return ops::solve(x[0], x[1]); },
                   {well({2, 1, 3, 3}, 5), randn({1, 2, 3, 2}, 6)});
  expect_gradcheck("solve_triangular_lower", [](auto& x) { return ops::solve_triangular(x[0], x[1], true); },
                   {a, randn({4, 3}, 7)});
  expect_gradcheck("solve_triangular_upper", [](auto& x) { return ops::solve_triangular(x[0], x[1]); },
                   {batch, randn({3}, 8)});
  expect_gradcheck("matrix_power_3", [](auto& x) { return ops::matrix_power(x[0], 3); }, {randn({3, 3}, 9, 0.5)});
  expect_gradcheck("matrix_power_neg2", [](auto& x) { return ops::matrix_power(x[0], -2); }, {batch});
  expect_gradcheck("pinv_tall", [](auto& x) { return ops::pinv(x[0]); }, {randn({5, 3}, 10)});
  expect_gradcheck("pinv_wide_batched", [](auto& x) { return ops::pinv(x[0]); }, {randn({2, 3, 4}, 11)});
  expect_gradcheck("lstsq_tall", [](auto& x) { return ops::lstsq(x[0], x[1]); },
                   {randn({6, 3}, 12), randn({6, 2}, 13)});
  expect_gradcheck("lstsq_wide", [](auto& x) { return ops::lstsq(x[0], x[1]); },
                   {randn({3, 5}, 14), randn({3}, 15)});
}

TEST(LinalgGradcheck, Norms) {
  Tensor v = randn({2, 6}, 1), m = randn({3, 4}, 2), t = randn({2, 3, 4}, 3);
  for (double p : {2.0, 1.0, kInf, -kInf, 3.0, 0.5, -1.0}) {
    expect_gradcheck("norm_vector_" + std::to_string(p),
                     [p](auto& x) { return ops::norm(x[0], p, -1); }, {v});
  }
  expect_gradcheck("norm_vector_default", [](auto& x) { return ops::norm(x[0], {}, 1, true); }, {v});
  expect_gradcheck("norm_all", [](auto& x) { return ops::norm(x[0]); }, {t});
  std::vector<ops::NormOrd> ords = {ops::NormOrd(), "fro", "nuc", 1, -1, kInf, -kInf, 2, -2};
  for (const ops::NormOrd& ord : ords) {
    expect_gradcheck("norm_matrix_" + ord.to_string(), [ord](auto& x) { return ops::norm(x[0], ord); }, {m});
    expect_gradcheck("norm_matrix_axes_" + ord.to_string(),
                     [ord](auto& x) { return ops::norm(x[0], ord, {2, 0}, true); }, {t});
  }
}

TEST(LinalgGradcheck, SecondOrder) {
  // Rules are written with ops, so gradients of gradients work: d/dA of sum(grad f).
  auto second = [](std::function<Tensor(const Tensor&)> f) {
    return [f](auto& x) {
      // Nested in gradcheck's tape, the inner gradient is itself recorded. (Watching is a
      // no-op for the analytic pass, where x[0] is already watched.)
      GradientTape tape;
      Tensor a = x[0];
      tape.watch(a);
      Tensor y = ops::sum(f(a));
      return tape.gradient(y, a);
    };
  };
  Tensor a = well({3, 3}, 1);
  expect_gradcheck("det''", second([](const Tensor& x) { return ops::det(x); }), {a});
  expect_gradcheck("inv''", second([](const Tensor& x) { return ops::inv(x); }), {a});
  expect_gradcheck("cholesky''", second([](const Tensor& x) { return ops::cholesky(la::symmetrize(x)); }), {a});
  expect_gradcheck("svd_values''", second([](const Tensor& x) { return std::get<1>(ops::svd(x, false, false)); }),
                   {randn({4, 3}, 2)});
  expect_gradcheck("eigvals''", second([](const Tensor& x) { return ops::eigh(la::symmetrize(x)).first; }), {a});
  expect_gradcheck("einsum''", second([](const Tensor& x) { return ops::square(ops::einsum("ij,jk->ik", x, x)); }), {a});
}

}  // namespace
}  // namespace keras

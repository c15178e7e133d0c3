// keras.ops.linalg on complex matrices against Keras 3.15 itself
// (tools/keras_oracle/complex_linalg.py -> tests/oracle/fixtures/complex_linalg.npz): values and
// jax.grad gradients of det, slogdet, cholesky, cholesky_inverse, qr, svd, eigh, lu_factor,
// solve_triangular, lstsq, pinv and the singular-value norms; values of eig and matrix_rank.
// Singular and eigen vectors enter through functions of them that do not depend on their free
// phases (see the generator).

#include <gtest/gtest.h>

#include "complex_oracle.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;
using test::with_gradients;
using Fn = std::function<Tensor(const TensorList&)>;

// x * d along the last axis, d a real vector of the case's kwargs cast to x's dtype.
Tensor scale_columns(const Tensor& x, const json& kw) {
  Tensor d = Tensor::from_vector(kw["d"].get<std::vector<double>>(),
                                 {static_cast<int64_t>(kw["d"].size())});
  return ops::multiply(x, ops::cast(d, x.dtype()));
}

GoldenOps complex_linalg_ops() {
  GoldenOps g;
  const std::pair<const char*, Fn> unary[] = {
      {"det", [](const TensorList& x) { return ops::det(x[0]); }},
      {"slogdet_sign", [](const TensorList& x) { return ops::slogdet(x[0]).first; }},
      {"slogdet_log", [](const TensorList& x) { return ops::slogdet(x[0]).second; }},
      {"cholesky", [](const TensorList& x) { return ops::cholesky(x[0]); }},
      {"cholesky_upper", [](const TensorList& x) { return ops::cholesky(x[0], true); }},
      {"cholesky_inverse", [](const TensorList& x) { return ops::cholesky_inverse(x[0]); }},
      {"cholesky_inverse_upper",
       [](const TensorList& x) { return ops::cholesky_inverse(x[0], true); }},
      {"pinv", [](const TensorList& x) { return ops::pinv(x[0]); }},
      {"matrix_rank", [](const TensorList& x) { return ops::matrix_rank(x[0]); }},
      {"qr_q", [](const TensorList& x) { return ops::qr(x[0]).first; }},
      {"qr_r", [](const TensorList& x) { return ops::qr(x[0]).second; }},
      {"svd_values", [](const TensorList& x) { return std::get<1>(ops::svd(x[0], false, false)); }},
      {"svd_u_moduli",
       [](const TensorList& x) { return ops::absolute(std::get<0>(ops::svd(x[0], false))); }},
      {"svd_vh_moduli",
       [](const TensorList& x) { return ops::absolute(std::get<2>(ops::svd(x[0], false))); }},
      {"eigh_values", [](const TensorList& x) { return ops::eigh(x[0]).first; }},
      {"eigh_moduli", [](const TensorList& x) { return ops::absolute(ops::eigh(x[0]).second); }},
      {"lu", [](const TensorList& x) { return ops::lu_factor(x[0]).first; }},
      {"lu_pivots", [](const TensorList& x) { return ops::lu_factor(x[0]).second; }},
      {"norm_2", [](const TensorList& x) { return ops::norm(x[0], 2); }},
      {"norm_minus2", [](const TensorList& x) { return ops::norm(x[0], -2); }},
      {"norm_nuc", [](const TensorList& x) { return ops::norm(x[0], ops::NormOrd("nuc")); }}};
  for (const auto& [name, f] : unary) g[name] = with_gradients(1, f);
  const std::pair<const char*, Fn> binary[] = {
      {"solve_triangular_lower",
       [](const TensorList& x) { return ops::solve_triangular(x[0], x[1], true); }},
      {"solve_triangular_upper",
       [](const TensorList& x) { return ops::solve_triangular(x[0], x[1], false); }},
      {"lstsq", [](const TensorList& x) { return ops::lstsq(x[0], x[1]); }}};
  for (const auto& [name, f] : binary) g[name] = with_gradients(2, f);
  // U diag(s * d) Vh and V diag(w * d) V^H: the factorizations rebuilt with weights d.
  g["svd_rebuilt"] = [](const TensorList& in, const json& kw) {
    return with_gradients(1, [kw](const TensorList& x) {
      auto [u, s, vh] = ops::svd(x[0], false);
      Tensor weights = ops::cast(scale_columns(s, kw), u.dtype());
      return ops::matmul(ops::multiply(u, ops::expand_dims(weights, -2)), vh);
    })(in, kw);
  };
  g["eigh_rebuilt"] = [](const TensorList& in, const json& kw) {
    return with_gradients(1, [kw](const TensorList& x) {
      auto [w, v] = ops::eigh(x[0]);
      Tensor weights = ops::cast(scale_columns(w, kw), v.dtype());
      return ops::matmul(ops::multiply(v, ops::expand_dims(weights, -2)),
                         ops::conj(ops::transpose(v)));
    })(in, kw);
  };
  g["eig"] = [](const TensorList& in, const json&) {
    auto [w, v] = ops::eig(in[0]);
    return TensorList{w, v};
  };
  return g;
}

TEST(ComplexLinalg, MatchesKeras) {
  auto exercised = test::run_oracle("complex_linalg", complex_linalg_ops());
  EXPECT_EQ(exercised.size(), complex_linalg_ops().size());
}

}  // namespace
}  // namespace keras

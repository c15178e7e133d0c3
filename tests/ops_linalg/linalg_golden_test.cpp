// Products, keras.ops.linalg and math sequences against NumPy (tools/golden/numpy_linalg.py).
// qr, svd and eigh are sign-ambiguous: their cases compare invariants computed here
// (reconstruction, orthogonality, triangularity) together with the values NumPy gives.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "golden.h"
#include "golden_args.h"
#include "keras/keras.h"
#include "ops/linalg/common.h"

namespace keras {
namespace {

using namespace test;  // the fixture helpers

namespace la = ops::linalg_detail;
using la::mT;

using test::GoldenOps;
using test::json;

double number(const json& j) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    check(s == "inf" || s == "-inf", "fixture: unexpected number '", s, "'");
    return s == "inf" ? std::numeric_limits<double>::infinity()
                      : -std::numeric_limits<double>::infinity();
  }
  return j.get<double>();
}

ops::NormOrd ord_of(const json& kw) {
  if (!kw.contains("ord")) return {};
  const json& o = kw["ord"];
  if (o.is_string() && o != "inf" && o != "-inf") return ops::NormOrd(o.get<std::string>());
  return ops::NormOrd(number(o));
}

std::optional<double> opt_number(const json& kw, const char* key) {
  return kw.contains(key) ? std::optional<double>(number(kw[key])) : std::nullopt;
}

GoldenOps product_ops() {
  GoldenOps m;
  m["dot"] = [](const TensorList& in, const json&) { return TensorList{ops::dot(in[0], in[1])}; };
  m["tensordot"] = [](const TensorList& in, const json& kw) {
    if (!kw.contains("axes")) return TensorList{ops::tensordot(in[0], in[1])};
    const json& a = kw["axes"];
    if (a.is_number()) return TensorList{ops::tensordot(in[0], in[1], a.get<int>())};
    return TensorList{ops::tensordot(in[0], in[1], ops::TensordotAxes(ints(a[0]), ints(a[1])))};
  };
  m["einsum"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::einsum(kw["subscripts"].get<std::string>(), in)};
  };
  m["outer"] = [](const TensorList& in, const json&) { return TensorList{ops::outer(in[0], in[1])}; };
  m["inner"] = [](const TensorList& in, const json&) { return TensorList{ops::inner(in[0], in[1])}; };
  m["kron"] = [](const TensorList& in, const json&) { return TensorList{ops::kron(in[0], in[1])}; };
  m["vdot"] = [](const TensorList& in, const json&) { return TensorList{ops::vdot(in[0], in[1])}; };
  m["cross"] = [](const TensorList& in, const json& kw) {
    std::optional<int> axis;
    if (kw.contains("axis")) axis = kw["axis"].get<int>();
    return TensorList{ops::cross(in[0], in[1], kw.value("axisa", -1), kw.value("axisb", -1),
                                 kw.value("axisc", -1), axis)};
  };
  m["correlate"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::correlate(in[0], in[1], kw.value("mode", std::string("valid")))};
  };
  return m;
}

GoldenOps linalg_ops() {
  GoldenOps m;
  m["slogdet"] = [](const TensorList& in, const json&) {
    auto [s, l] = ops::slogdet(in[0]);
    return TensorList{s, l};
  };
  m["det"] = [](const TensorList& in, const json&) { return TensorList{ops::det(in[0])}; };
  m["logdet"] = [](const TensorList& in, const json&) { return TensorList{ops::logdet(in[0])}; };
  m["cholesky"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::cholesky(in[0], kw.value("upper", false))};
  };
  m["cholesky_inverse"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::cholesky_inverse(in[0], kw.value("upper", false))};
  };
  m["inv"] = [](const TensorList& in, const json&) { return TensorList{ops::inv(in[0])}; };
  m["solve"] = [](const TensorList& in, const json&) { return TensorList{ops::solve(in[0], in[1])}; };
  m["solve_triangular"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::solve_triangular(in[0], in[1], kw.value("lower", false))};
  };
  m["lstsq"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::lstsq(in[0], in[1], opt_number(kw, "rcond"))};
  };
  m["pinv"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::pinv(in[0], opt_number(kw, "rcond"))};
  };
  m["matrix_rank"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::matrix_rank(in[0], opt_number(kw, "tol"))};
  };
  m["matrix_power"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::matrix_power(in[0], kw["n"].get<int>())};
  };
  m["norm"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::norm(in[0], ord_of(kw), axes_of(kw), kw.value("keepdims", false))};
  };
  m["qr_invariants"] = [](const TensorList& in, const json& kw) {
    auto [q, r] = ops::qr(in[0], kw.value("mode", std::string("reduced")));
    return TensorList{ops::matmul(q, r), ops::matmul(mT(q), q), ops::tril(r, -1), ops::absolute(r)};
  };
  m["svd_invariants"] = [](const TensorList& in, const json& kw) {
    auto [u, s, vh] = ops::svd(in[0], kw.value("full_matrices", true));
    const int r = in[0].ndim();
    const int64_t k = s.shape().back();
    Tensor uk = la::slice_axis(u, r - 1, 0, k), vk = la::slice_axis(vh, r - 2, 0, k);
    Tensor rebuilt = ops::matmul(ops::multiply(uk, ops::expand_dims(s, -2)), vk);
    return TensorList{s, rebuilt, ops::matmul(mT(u), u), ops::matmul(vh, mT(vh))};
  };
  m["svd_values"] = [](const TensorList& in, const json&) {
    return TensorList{std::get<1>(ops::svd(in[0], false, false))};
  };
  m["eigh_invariants"] = [](const TensorList& in, const json&) {
    auto [w, v] = ops::eigh(in[0]);
    Tensor rebuilt = ops::matmul(ops::multiply(v, ops::expand_dims(w, -2)), mT(v));
    return TensorList{w, rebuilt, ops::matmul(mT(v), v)};
  };
  m["lu_factor"] = [](const TensorList& in, const json&) {
    auto [lu, piv] = ops::lu_factor(in[0]);
    return TensorList{lu, piv};
  };
  m["jvp_tanh_matvec"] = [](const TensorList& in, const json&) {
    Tensor a = in[0];
    auto [y, jt] = ops::jvp([a](const Tensor& x) { return ops::tanh(ops::matmul(a, x)); }, in[1],
                            in[2]);
    return TensorList{y, jt};
  };
  m["extract_sequences"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::extract_sequences(in[0], kw["sequence_length"].get<int64_t>(),
                                             kw["sequence_stride"].get<int64_t>())};
  };
  m["cdist"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::cdist(in[0], in[1], kw.contains("p") ? number(kw["p"]) : 2.0)};
  };
  return m;
}

TEST(LinalgGolden, ProductsMatchNumpy) {
  auto ops = product_ops();
  auto exercised = test::run_golden("numpy_linalg_products", ops);
  EXPECT_EQ(exercised.size(), ops.size());
}

TEST(LinalgGolden, LinalgMatchesNumpy) {
  auto ops = linalg_ops();
  auto exercised = test::run_golden("numpy_linalg", ops);
  EXPECT_EQ(exercised.size(), ops.size());
}

// The same cases with the outputs of real Keras 3.15 (tools/keras_oracle/ops.py); matrix_power
// has no keras.ops counterpart and is left out there.
TEST(LinalgOracle, ProductsMatchKeras) {
  test::run_oracle("ops_numpy_linalg_products", product_ops());
}

TEST(LinalgOracle, LinalgMatchesKeras) { test::run_oracle("ops_numpy_linalg", linalg_ops()); }

}  // namespace
}  // namespace keras

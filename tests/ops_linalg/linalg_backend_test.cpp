// The Linalg kernels on awkward inputs (strided, broadcast, half precision, empty, NaN, large
// batches, large matrices), the routing of linalg work to "cpu" for a backend without the
// capability, jvp, and the products' dtypes and views.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "assertions.h"
#include "keras/keras.h"
#include "ops/linalg/common.h"

namespace keras {
namespace {

namespace la = ops::linalg_detail;
using test::make;

std::vector<double> uniform(int64_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = static_cast<double>(gen() >> 11) * 0x1p-52 - 1.0;
  return v;
}

// Well-conditioned square matrices (..., n, n).
Tensor well(const Shape& shape, uint64_t seed, DType dtype = DType::Float32) {
  const int64_t n = shape.back();
  std::vector<double> v = uniform(shape.numel(), seed);
  for (size_t i = 0; i < v.size(); ++i)
    if (static_cast<int64_t>(i) / n % n == static_cast<int64_t>(i) % n) v[i] += 2.0 * n;
  return make(v, shape, dtype);
}

Tensor identity(int64_t n, DType dtype = DType::Float32) {
  return la::eye(n, dtype, backend::get("cpu"));
}

TEST(LinalgKernels, StridedAndBroadcastInputs) {
  Tensor a = well({3, 4, 4}, 1, DType::Float64);
  Tensor at = ops::transpose(a, {0, 2, 1});  // non-contiguous
  EXPECT_TENSOR_NEAR(ops::det(at), ops::det(a), 1e-12, 1e-12);
  Tensor flipped = la::slice_axis(a, 0, 2, 3, -1);  // negative batch stride
  EXPECT_TENSOR_NEAR(ops::det(flipped), la::slice_axis(ops::det(a), 0, 2, 3, -1), 1e-12, 1e-12);
  // A broadcast batch (stride 0) and a broadcast right-hand side.
  Tensor one = well({4, 4}, 2, DType::Float64);
  Tensor many = ops::broadcast_to(one, {5, 4, 4});
  Tensor inv_many = ops::inv(many);
  EXPECT_EQ(inv_many.shape(), Shape({5, 4, 4}));
  EXPECT_TENSOR_NEAR(ops::matmul(many, inv_many), ops::broadcast_to(identity(4, DType::Float64), {5, 4, 4}),
                     1e-12, 1e-12);
  Tensor b = ops::broadcast_to(make({1, 2, 3, 4}, {4, 1}, DType::Float64), {4, 3});
  EXPECT_TENSOR_NEAR(ops::matmul(one, ops::solve(one, b)), b, 1e-12, 1e-12);
  Tensor tri = ops::solve_triangular(at, ops::expand_dims(b, 0), true);
  EXPECT_TENSOR_NEAR(ops::matmul(ops::tril(at), tri), ops::broadcast_to(b, {3, 4, 3}), 1e-12, 1e-12);
}

TEST(LinalgKernels, HalfPrecisionComputesInFloat32) {
  for (DType t : {DType::Float16, DType::BFloat16}) {
    Tensor a = well({2, 3, 3}, 3, t);
    Tensor a32 = ops::cast(a, DType::Float32);
    const double tol = t == DType::Float16 ? 2e-3 : 1e-2;
    Tensor spd = ops::add(ops::matmul(a, la::mT(a)), 0.0);
    Tensor l = ops::cholesky(spd);
    EXPECT_EQ(l.dtype(), t);
    EXPECT_TENSOR_NEAR(ops::cast(l, DType::Float32), ops::cholesky(ops::cast(spd, DType::Float32)),
                       4 * tol, 4 * tol);
    EXPECT_TENSOR_NEAR(ops::det(a), ops::cast(ops::det(a32), t), tol, tol);
    auto [q, r] = ops::qr(a);
    EXPECT_EQ(q.dtype(), t);
    EXPECT_TENSOR_NEAR(ops::cast(ops::matmul(q, r), DType::Float32), a32, 4 * tol, 4 * tol);
    Tensor s = std::get<1>(ops::svd(a, false, false));
    EXPECT_TENSOR_NEAR(s, ops::cast(std::get<1>(ops::svd(a32, false, false)), t), tol, tol);
    Tensor w = ops::eigh(spd).first;
    EXPECT_TENSOR_NEAR(w, ops::cast(ops::eigh(ops::cast(spd, DType::Float32)).first, t), tol, tol);
  }
}

TEST(LinalgKernels, EmptyMatrices) {
  EXPECT_EQ(ops::cholesky(ops::zeros({0, 0})).shape(), Shape({0, 0}));
  EXPECT_EQ(ops::inv(ops::zeros({2, 0, 0})).shape(), Shape({2, 0, 0}));
  EXPECT_TENSOR_EQ(ops::det(ops::zeros({3, 0, 0})), ops::ones({3}));
  EXPECT_EQ(ops::det(ops::zeros({0, 3, 3})).shape(), Shape({0}));
  auto [q, r] = ops::qr(ops::zeros({3, 0}), "complete");
  EXPECT_TENSOR_EQ(q, identity(3));
  EXPECT_EQ(r.shape(), Shape({3, 0}));
  auto [q2, r2] = ops::qr(ops::zeros({0, 3}));
  EXPECT_EQ(q2.shape(), Shape({0, 0}));
  EXPECT_EQ(r2.shape(), Shape({0, 3}));
  auto [u, s, vh] = ops::svd(ops::zeros({2, 0}));
  EXPECT_TENSOR_EQ(u, identity(2));
  EXPECT_EQ(s.shape(), Shape({0}));
  EXPECT_EQ(vh.shape(), Shape({0, 0}));
  auto [w, v] = ops::eigh(ops::zeros({0, 0}));
  EXPECT_EQ(w.shape(), Shape({0}));
  auto [lu, piv] = ops::lu_factor(ops::zeros({0, 2}));
  EXPECT_EQ(piv.shape(), Shape({0}));
  EXPECT_EQ(ops::matrix_rank(ops::zeros({4, 0})).item<int32_t>(), 0);
  EXPECT_EQ(ops::solve(ops::zeros({0, 0}), ops::zeros({0, 2})).shape(), Shape({0, 2}));
}

TEST(LinalgKernels, NanInputs) {
  Tensor x = make({1, NAN, 2, 3}, {2, 2});
  Tensor s = std::get<1>(ops::svd(x, false, false));
  for (float v : s.to_vector<float>()) EXPECT_TRUE(std::isnan(v));
  EXPECT_THROW(ops::cholesky(make({NAN, 0, 0, 1}, {2, 2})), ValueError);
  EXPECT_TRUE(std::isnan(ops::det(x).item<float>()));
}

TEST(LinalgKernels, ManySmallAndOneLarge) {
  // Many small matrices go through the thread pool, a large one through OpenBLAS threads.
  Tensor batch = well({500, 3, 3}, 4, DType::Float64);
  EXPECT_TENSOR_NEAR(ops::matmul(batch, ops::inv(batch)),
                     ops::broadcast_to(identity(3, DType::Float64), {500, 3, 3}), 1e-12, 1e-12);
  Tensor big = well({200, 200}, 5, DType::Float64);
  Tensor spd = ops::matmul(big, la::mT(big));
  Tensor l = ops::cholesky(spd);
  EXPECT_TENSOR_NEAR(ops::matmul(l, la::mT(l)), spd, 1e-12, 1e-9);
  auto [w, v] = ops::eigh(spd);
  EXPECT_TENSOR_NEAR(ops::matmul(ops::multiply(v, ops::expand_dims(w, -2)), la::mT(v)), spd, 1e-12, 1e-8);
}

TEST(LinalgKernels, DecomposeScopeKeepsLapack) {
  // Linalg has no decomposition into primitives: DecomposeScope leaves it on the kernels.
  backend::DecomposeScope scope;
  Tensor a = well({3, 3}, 6, DType::Float64);
  EXPECT_TENSOR_NEAR(ops::matmul(a, ops::inv(a)), identity(3, DType::Float64), 1e-12, 1e-12);
}

TEST(LinalgRouting, BackendWithoutLinalgComputesOnCpu) {
  // The stub backend holds memory but computes nothing: every result below was computed on
  // "cpu" and moved back.
  ASSERT_FALSE(backend::get("stub").supports(backend::Capability::Linalg));
  Tensor a = well({2, 3, 3}, 7);
  Tensor spd = ops::matmul(a, la::mT(a));
  auto on_stub = [](const Tensor& t) { return t.to("stub"); };
  auto expect_same = [](const Tensor& stub_result, const Tensor& cpu_result) {
    EXPECT_EQ(stub_result.backend_name(), "stub");
    EXPECT_TENSOR_NEAR(stub_result.to("cpu"), cpu_result, 0, 0);
  };
  expect_same(ops::det(on_stub(a)), ops::det(a));
  expect_same(ops::inv(on_stub(a)), ops::inv(a));
  expect_same(ops::cholesky(on_stub(spd)), ops::cholesky(spd));
  expect_same(ops::solve(on_stub(a), on_stub(spd)), ops::solve(a, spd));
  expect_same(ops::solve_triangular(on_stub(a), on_stub(spd), true), ops::solve_triangular(a, spd, true));
  expect_same(ops::slogdet(on_stub(a)).second, ops::slogdet(a).second);
  expect_same(ops::lu_factor(on_stub(a)).second, ops::lu_factor(a).second);
  expect_same(ops::qr(on_stub(a)).second, ops::qr(a).second);
  expect_same(std::get<1>(ops::svd(on_stub(a))), std::get<1>(ops::svd(a)));
  expect_same(ops::eigh(on_stub(spd)).first, ops::eigh(spd).first);
  expect_same(ops::pinv(on_stub(a)), ops::pinv(a));
  expect_same(ops::matrix_rank(on_stub(a)), ops::matrix_rank(a));
  expect_same(ops::lstsq(on_stub(a[0]), on_stub(spd[0])), ops::lstsq(a[0], spd[0]));
  // Gradients flow through the moves.
  GradientTape tape;
  Tensor x = on_stub(ops::cast(a, DType::Float64));
  tape.watch(x);
  Tensor d = ops::det(x);
  Tensor seed = Tensor::from_vector(std::vector<double>{1, 1}, {2}, "stub");
  Tensor g = tape.gradient(d, {x}, seed)[0];
  EXPECT_EQ(g.backend_name(), "stub");
  Tensor a64 = ops::cast(a, DType::Float64);
  Tensor expected = ops::multiply(ops::expand_dims(ops::expand_dims(ops::det(a64), -1), -1),
                                  la::mT(ops::inv(a64)));
  EXPECT_TENSOR_NEAR(g.to("cpu"), expected, 1e-12, 1e-12);
}

TEST(LinalgRouting, PrimitiveWrappers) {
  // The primitives the routing relies on, checked directly on cpu.
  Tensor a = make({4, 3, 6, 3}, {2, 2}, DType::Float64);
  auto [lu, piv] = la::raw_lu(a);
  EXPECT_EQ(piv.dtype(), DType::Int32);
  EXPECT_EQ(piv.to_vector<int32_t>(), (std::vector<int32_t>{2, 2}));  // 1-based, as LAPACK
  Tensor perm = la::pivots_to_permutation(piv, 2);
  EXPECT_EQ(perm.to_vector<int32_t>(), (std::vector<int32_t>{1, 0}));
  EXPECT_TENSOR_EQ(la::permute_rows(a, perm), make({6, 3, 4, 3}, {2, 2}, DType::Float64));
}

TEST(Jvp, MatchesAnalyticDerivatives) {
  Tensor x = make({0.5, -1.0, 2.0}, {3}, DType::Float64), y = make({1.5, 0.25, -0.5}, {3}, DType::Float64);
  Tensor tx = make({1, 2, 3}, {3}, DType::Float64), ty = make({-1, 0.5, 0}, {3}, DType::Float64);
  auto r = ops::jvp(
      [](const TensorList& in) {
        return TensorList{ops::multiply(in[0], in[1]), ops::sin(in[0]), ops::ones({2}, DType::Float64),
                          ops::sum(in[1])};
      },
      {x, y}, {tx, ty}, /*has_aux=*/true);
  ASSERT_EQ(r.primals_out.size(), 3u);
  ASSERT_EQ(r.aux.size(), 1u);
  EXPECT_TENSOR_NEAR(r.primals_out[0], ops::multiply(x, y), 0, 0);
  EXPECT_TENSOR_NEAR(r.aux[0], ops::sum(y), 0, 0);
  // d(x y) = tx y + x ty; d(sin x) = cos(x) tx; a constant output has a zero tangent.
  EXPECT_TENSOR_NEAR(r.tangents_out[0], make({1.5 * 1 + 0.5 * -1, 0.25 * 2 + -1.0 * 0.5, -0.5 * 3 + 0},
                                             {3}, DType::Float64), 1e-15, 1e-15);
  EXPECT_TENSOR_NEAR(r.tangents_out[1], ops::multiply(ops::cos(x), tx), 1e-15, 1e-15);
  EXPECT_TENSOR_EQ(r.tangents_out[2], ops::zeros({2}, DType::Float64));
  EXPECT_FALSE(r.tangents_out[0].requires_grad());
}

TEST(Jvp, ThroughLinalg) {
  // d det(A)[T] = det(A) tr(A^-1 T).
  Tensor a = well({3, 3}, 8, DType::Float64), t = well({3, 3}, 9, DType::Float64);
  auto [d, dd] = ops::jvp([](const Tensor& m) { return ops::det(m); }, a, t);
  Tensor expected = ops::multiply(ops::det(a), ops::einsum("ii", ops::matmul(ops::inv(a), t)));
  EXPECT_TENSOR_NEAR(dd, expected, 1e-12, 1e-12);
}

TEST(Products, DtypesViewsAndSingleMatmul) {
  Tensor b1 = Tensor::from_vector(std::vector<bool>{true, false, true, true}, {2, 2});
  Tensor bb = ops::matmul(b1, b1);
  EXPECT_EQ(bb.dtype(), DType::Bool);  // Keras: result_type, except int8 x int8
  EXPECT_EQ(bb.to_vector<bool>(), (std::vector<bool>{true, false, true, true}));
  Tensor u8 = Tensor::from_vector(std::vector<uint8_t>{200, 1, 1, 1}, {2, 2});
  Tensor uu = ops::matmul(u8, u8);
  EXPECT_EQ(uu.dtype(), DType::UInt8);
  EXPECT_EQ(uu.to_vector<int>()[0], (200 * 200 + 1) % 256);
  Tensor i8 = Tensor::from_vector(std::vector<int8_t>{100, 1, 1, 1}, {2, 2});
  EXPECT_EQ(ops::matmul(i8, u8).dtype(), DType::Int16);
  EXPECT_EQ(ops::matmul(i8, i8).dtype(), DType::Int32);
  EXPECT_EQ(ops::dot(i8, i8).dtype(), DType::Int8);
  EXPECT_EQ(ops::tensordot(i8, i8, 1).dtype(), DType::Int8);
  EXPECT_EQ(ops::einsum("ij,jk->ik", i8, i8).dtype(), DType::Int32);
  // extract_sequences is a view of its input: overlapping windows share memory.
  Tensor x = make({1, 2, 3, 4, 5, 6}, {6});
  Tensor w = ops::extract_sequences(x, 3, 1);
  EXPECT_EQ(w.array().storage.get(), x.array().storage.get());
  // The common einsum cases are one matmul: the same bits as matmul.
  Tensor p = well({5, 7}, 10), q = well({7, 3}, 11);
  EXPECT_TENSOR_EQ(ops::einsum("ij,jk->ik", p, q), ops::matmul(p, q));
  EXPECT_TENSOR_EQ(ops::einsum("ij,kj->ik", p, la::mT(q)), ops::matmul(p, q));
  Tensor bp = well({2, 5, 7}, 12), bq = well({2, 7, 3}, 13);
  EXPECT_TENSOR_EQ(ops::einsum("bij,bjk->bik", bp, bq), ops::matmul(bp, bq));
}

TEST(Products, CdistLargeUsesMatmulIdentity) {
  // Above the size threshold the Euclidean distances come from |x|^2 + |y|^2 - 2 x.y; checked
  // against a direct loop.
  const int64_t m = 40, n = 420, d = 256;
  std::vector<double> xv = uniform(m * d, 14), yv = uniform(n * d, 15);
  for (double& v : yv) v += 0.25;
  Tensor x = Tensor::from_vector(xv, {m, d}), y = Tensor::from_vector(yv, {n, d});
  std::vector<double> expected(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t k = 0; k < d; ++k) {
        const double diff = xv[i * d + k] - yv[j * d + k];
        s += diff * diff;
      }
      expected[i * n + j] = std::sqrt(s);
    }
  Tensor e = Tensor::from_vector(expected, {m, n});
  EXPECT_TENSOR_NEAR(ops::cdist(x, y), e, 1e-12, 1e-12);
  // float32: cancellation in the identity costs precision (measured ~1e-6 relative here).
  EXPECT_TENSOR_NEAR(ops::cdist(ops::cast(x, DType::Float32), ops::cast(y, DType::Float32)),
                     ops::cast(e, DType::Float32), 2e-5, 2e-5);
}

}  // namespace
}  // namespace keras

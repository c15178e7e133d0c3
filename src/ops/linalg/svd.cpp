// svd and what builds on it: pinv, lstsq, matrix_rank.

#include <algorithm>
#include <limits>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

namespace {

double eps_of(DType t) {
  switch (real_part_dtype(t)) {
    case DType::Float16: return 0.0009765625;  // 2^-10
    case DType::BFloat16: return 0.0078125;    // 2^-7
    case DType::Float64: return std::numeric_limits<double>::epsilon();
    default: return std::numeric_limits<float>::epsilon();
  }
}

// The gradient of A = U diag(S) Vh for distinct nonzero singular values, in PyTorch's
// convention (svd_backward; the conjugate of JAX's for complex A): with E_jk = S_k^2 - S_j^2
// (1 on the diagonal) and skew(X) = X - X^H,
//   gA = U [(skew(U^H gU) S + S skew(V^H gV)) / E + diag(gS)] Vh
//        + (I - U U^H) gU S^-1 Vh (m > k) + U S^-1 gV^H (I - V V^H) (n > k).
// For complex A the singular vectors' phases are free: JAX's rule fixes V's and lets U's
// follow, so the diagonal holds gS + i Im(diag(U^H gU)) / S (the skew part's diagonal, which
// is zero for real A, is dropped).
Tensor svd_grad(const Tensor& u, const Tensor& s, const Tensor& vh, const Tensor& gu,
                const Tensor& gs, const Tensor& gvh) {
  const int r = u.ndim();
  const int64_t m = u.shape()[r - 2], n = vh.shape()[r - 1], k = s.shape().back();
  auto skew = [](const Tensor& t) { return subtract(t, mH(t)); };
  Tensor v = mH(vh), gv = mH(gvh);
  Tensor s_row = expand_dims(s, -2), s_col = expand_dims(s, -1);
  Tensor s2 = square(s);
  Tensor e = add(subtract(expand_dims(s2, -2), expand_dims(s2, -1)),
                 eye(k, s.dtype(), s.backend()));
  Tensor utgu = matmul(mH(u), gu), vtgv = matmul(vh, gv);
  Tensor off = divide(add(multiply(skew(utgu), s_row), multiply(s_col, skew(vtgv))), e);
  Tensor diag = gs;
  if (is_complex(u.dtype())) {
    off = multiply(off, off_diagonal(k, s.dtype(), s.backend()));
    Tensor turn = divide(imag(diagonal(utgu, 0, -2, -1)), s);
    diag = view_as_complex(stack({gs, turn}, -1));
  }
  Tensor j = add(off, diag_embed(diag));
  Tensor ga = matmul(matmul(u, j), vh);
  if (m > k) {
    Tensor gus = divide(subtract(gu, matmul(u, utgu)), s_row);
    ga = add(ga, matmul(gus, vh));
  }
  if (n > k) {
    Tensor gvs = divide(subtract(gv, matmul(v, vtgv)), s_row);
    ga = add(ga, matmul(u, mH(gvs)));
  }
  return ga;
}

// Records the gradient of the singular values alone: gA = U diag(gS) Vh (its conjugate for
// complex A, JAX's convention).
void record_singular_values(const Tensor& a, Tensor& s, const Tensor& u, const Tensor& vh) {
  autograd::record("svd", {a}, s,
                   [a, u, vh](const autograd::Context&, const Tensor& g) {
                     // Building a higher-order graph needs U and Vh as functions of A.
                     if (autograd::is_recording()) {
                       auto [uu, ss, vv] = svd(a, false, true);
                       return TensorList{conj(matmul(multiply(uu, expand_dims(g, -2)), vv))};
                     }
                     return TensorList{conj(matmul(multiply(u, expand_dims(g, -2)), vh))};
                   });
}

// The pseudo-inverse keeping singular values above (or, for lstsq, at or above)
// rcond * the largest, with the gradient of Golub and Pereyra (valid while the rank is
// constant):
//   dA = -P^T g P^T + (I - A P) g^T P P^T + P^T P g^T (I - P A),  P = pinv(A).
Tensor pinv_impl(const Tensor& a, double rcond, bool inclusive) {
  const int r = a.ndim();
  const int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  Tensor out;
  if (std::min(m, n) == 0) {
    Shape shape = a.shape();
    std::swap(shape[r - 2], shape[r - 1]);
    out = detail::zeros_on(shape, a.dtype(), a.backend());
  } else {
    auto [u, s, vh] = raw_svd(a, false, true);
    Tensor cutoff = multiply(slice_axis(s, s.ndim() - 1, 0, 1), Tensor(rcond));
    Tensor keep = inclusive ? greater_equal(s, cutoff) : greater(s, cutoff);
    Tensor s_inv = where(keep, divide(Tensor(1.0), s), Tensor(0.0));
    out = matmul(multiply(mT(vh), expand_dims(s_inv, -2)), mT(u));
  }
  if (autograd::should_record(a)) {
    autograd::record("pinv", {a}, out, [a](const autograd::Context& ctx, const Tensor& g) {
      Tensor p = ctx.output(), pt = mT(ctx.output()), gt = mT(g);
      Tensor t1 = negative(matmul(matmul(pt, g), pt));
      Tensor z2 = matmul(gt, matmul(p, pt));
      Tensor t2 = subtract(z2, matmul(a, matmul(p, z2)));
      Tensor z3 = matmul(pt, matmul(p, gt));
      Tensor t3 = subtract(z3, matmul(matmul(z3, p), a));
      return TensorList{add(add(t1, t2), t3)};
    });
  }
  return out;
}

// pinv of complex a through its real embedding, whose pseudo-inverse is the embedding of a's
// ([[P, -Q], [Q, P]] for pinv(a) = P + iQ) and whose singular values are a's, each twice, so
// the same rcond keeps the same ones. The gradient comes from the real ops' rules.
Tensor complex_pinv(const Tensor& a, double rcond, bool inclusive) {
  const int r = a.ndim();
  const int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  Tensor pe = pinv_impl(real_embedding(a), rcond, inclusive);
  Tensor left = slice_axis(pe, r - 1, 0, m);
  return view_as_complex(stack({slice_axis(left, r - 2, 0, n), slice_axis(left, r - 2, n, n)}, -1));
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& x, bool full_matrices, bool compute_uv) {
  constexpr std::string_view op = "svd";
  check_matrix(op, x, false);
  if (needs_cpu(x)) {
    TensorList r = via_cpu({x}, [full_matrices, compute_uv](const TensorList& in) {
      auto [u, s, vh] = svd(in[0], full_matrices, compute_uv);
      return TensorList{u, s, vh};
    });
    return {r[0], r[1], r[2]};
  }
  Tensor a = detail::cast(x, float_dtype(x));
  if (!compute_uv) {
    if (!autograd::should_record(a)) return {Tensor(), std::get<1>(raw_svd(a, false, false)), Tensor()};
    auto [u, s, vh] = raw_svd(a, false, true);
    record_singular_values(a, s, u, vh);
    return {Tensor(), s, Tensor()};
  }
  auto [u, s, vh] = raw_svd(a, full_matrices, true);
  Tensor outs[3] = {u, s, vh};
  if (autograd::should_record(a)) {
    Tensor inputs[1] = {a};
    autograd::record_multi(
        op, inputs, outs,
        [full_matrices](const autograd::Context& ctx, std::span<const Tensor> grads) {
          Tensor u = ctx.output(0), s = ctx.output(1), vh = ctx.output(2);
          // svd_grad works in PyTorch's convention: the cotangents conjugated in, the result out.
          Tensor gu = conj(grads[0]), gvh = conj(grads[2]);
          const int r = u.ndim();
          const int64_t k = s.shape().back();
          if (full_matrices) {
            // As PyTorch: the columns of U (rows of Vh) past min(M, N) are not unique, and
            // their gradients are ignored.
            u = slice_axis(u, r - 1, 0, k);
            gu = slice_axis(gu, r - 1, 0, k);
            vh = slice_axis(vh, r - 2, 0, k);
            gvh = slice_axis(gvh, r - 2, 0, k);
          }
          return TensorList{conj(svd_grad(u, s, vh, gu, grads[1], gvh))};
        });
  }
  return {outs[0], outs[1], outs[2]};
}

Tensor pinv(const Tensor& x, std::optional<double> rcond) {
  constexpr std::string_view op = "pinv";
  check_matrix(op, x, false);
  if (needs_cpu(x))
    return via_cpu({x}, [rcond](const TensorList& in) { return TensorList{pinv(in[0], rcond)}; })[0];
  Tensor a = detail::cast(x, float_dtype(x));
  const int r = a.ndim();
  const double mn = static_cast<double>(std::max(a.shape()[r - 2], a.shape()[r - 1]));
  const double cutoff = rcond ? *rcond : 10.0 * mn * eps_of(a.dtype());
  if (is_complex(a.dtype())) return complex_pinv(a, cutoff, /*inclusive=*/false);
  return pinv_impl(a, cutoff, /*inclusive=*/false);
}

Tensor lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond) {
  constexpr std::string_view op = "lstsq";
  check(a.defined() && b.defined(), op, ": an input is an undefined tensor.");
  check(a.ndim() == 2, op, ": a must have rank 2; got shape ", a.shape(), ".");
  check(b.ndim() == 1 || b.ndim() == 2, op, ": b must have rank 1 or 2; got shape ", b.shape(),
        ".");
  check(b.shape()[0] == a.shape()[0], op, ": b.shape[0] must equal a.shape[0]; got a.shape=",
        a.shape(), " and b.shape=", b.shape(), ".");
  auto& be = detail::common_backend(op, {&a, &b});
  if (needs_cpu(a))
    return via_cpu({a, b}, [rcond](const TensorList& in) {
      return TensorList{lstsq(in[0], in[1], rcond)};
    })[0];
  const DType dtype = float_result_type(detail::promote({&a, &b}));
  Tensor aa = detail::prepare(a, dtype, be), bb = detail::prepare(b, dtype, be);
  const double mn = static_cast<double>(std::max(a.shape()[0], a.shape()[1]));
  // JAX's lstsq keeps singular values >= rcond * the largest (default eps * max(M, N)).
  const double cutoff = rcond ? *rcond : mn * eps_of(dtype);
  Tensor p = is_complex(dtype) ? complex_pinv(aa, cutoff, /*inclusive=*/true)
                               : pinv_impl(aa, cutoff, /*inclusive=*/true);
  return matmul(p, bb);
}

Tensor matrix_rank(const Tensor& x, std::optional<double> tol) {
  constexpr std::string_view op = "matrix_rank";
  check_matrix(op, x, false);
  if (needs_cpu(x))
    return via_cpu({x}, [tol](const TensorList& in) { return TensorList{matrix_rank(in[0], tol)}; })[0];
  Tensor a = detail::cast(x, float_dtype(x));
  const int r = a.ndim();
  const int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  if (std::min(m, n) == 0)
    return detail::zeros_on(Shape(a.shape().begin(), a.shape().end() - 2), DType::Int32, a.backend());
  Tensor s = std::get<1>(raw_svd(a, false, false));
  Tensor threshold =
      tol ? Tensor(*tol)
          : multiply(slice_axis(s, s.ndim() - 1, 0, 1),
                     Tensor(static_cast<double>(std::max(m, n)) * eps_of(a.dtype())));
  return sum(greater(s, threshold), -1);
}

}  // namespace linalg
}  // namespace keras::ops

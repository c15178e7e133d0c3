// solve, solve_triangular, inv, lu_factor and matrix_power.

#include <cstdlib>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

namespace {

// a and b checked, on one backend and promoted to one floating dtype, b as a matrix (a vector
// right-hand side gets a trailing axis of extent 1).
struct System {
  Tensor a, b;
  bool vector = false;
};

// Checks a and b; true when b holds vectors (its rank is 1, or one less than a's).
bool check_system(std::string_view op, const Tensor& a, const Tensor& b) {
  check_matrix(op, a, true);
  check(b.defined(), op, ": b is an undefined tensor.");
  check(b.ndim() >= 1, op, ": b must have rank >= 1; got shape ", b.shape(), ".");
  detail::common_backend(op, {&a, &b});
  const bool vector = b.ndim() == 1 || b.ndim() == a.ndim() - 1;
  const int64_t n = a.shape().back(), rows = b.shape()[b.ndim() - (vector ? 1 : 2)];
  check(rows == n, op, ": incompatible shapes a ", a.shape(), " and b ", b.shape(), ": ",
        vector ? "b.shape[-1]" : "b.shape[-2]", " must equal a.shape[-1] (", n, ").");
  detail::broadcast_shapes(op, Shape(a.shape().begin(), a.shape().end() - 2),
                           Shape(b.shape().begin(), b.shape().end() - (vector ? 1 : 2)));
  return vector;
}

System prepare_system(const Tensor& a, const Tensor& b, bool vector) {
  auto& be = a.backend();
  const DType dtype = float_result_type(detail::promote({&a, &b}));
  System s;
  s.vector = vector;
  s.a = detail::prepare(a, dtype, be);
  s.b = detail::prepare(b, dtype, be);
  if (s.vector) s.b = expand_dims(s.b, -1);
  return s;
}

// Records the rule of x = a^-1 b: gb = a^-T g, ga = -gb x^T (masked to a's triangle for
// triangular solves).
void record_solve(std::string_view op, const System& s, Tensor& x, int triangle) {
  if (!autograd::should_record(s.a, s.b)) return;
  Tensor a = s.a;
  Shape a_shape = s.a.shape(), b_shape = s.b.shape();
  autograd::record(op, {s.a, s.b}, x,
                   [a, a_shape, b_shape, triangle](const autograd::Context& ctx, const Tensor& g) {
                     Tensor gb = triangle == 0 ? solve(mT(a), g)
                                               : solve_triangular(mT(a), g, triangle > 0);
                     Tensor ga;
                     if (ctx.needs_input_grad(0)) {
                       ga = negative(matmul(gb, mT(ctx.output())));
                       if (triangle < 0) ga = tril(ga);
                       if (triangle > 0) ga = triu(ga);
                       ga = detail::sum_to(ga, a_shape);
                     }
                     return TensorList{ga, detail::sum_to(gb, b_shape)};
                   });
}

// x = a^-1 b for complex a or b, through the real embedding: (X + iY)(P + iQ) = U + iV is the
// real system [[X, -Y], [Y, X]] [P; Q] = [U; V] of twice the size. Real ops only, so the
// gradient (JAX's convention) comes from their rules.
Tensor complex_solve(const Tensor& a, const Tensor& b, bool vector) {
  const DType dtype = complex_dtype_for(float_result_type(
      complex_part_dtype(detail::promote({&a, &b}))));
  Tensor za = detail::cast(a, dtype), zb = detail::cast(b, dtype);
  if (vector) zb = expand_dims(zb, -1);
  const Tensor r = solve(real_embedding(za), concatenate({real(zb), imag(zb)}, -2));
  const int64_t n = za.shape().back();
  const int rows = r.ndim() - 2;
  Tensor out = view_as_complex(stack({slice_axis(r, rows, 0, n), slice_axis(r, rows, n, n)}, -1));
  return vector ? squeeze(out, -1) : out;
}

}  // namespace

Tensor solve(const Tensor& a, const Tensor& b) {
  constexpr std::string_view op = "solve";
  const bool vector = check_system(op, a, b);
  if (is_complex(a.dtype()) || is_complex(b.dtype())) return complex_solve(a, b, vector);
  if (needs_cpu(a))
    return via_cpu({a, b}, [](const TensorList& in) { return TensorList{solve(in[0], in[1])}; })[0];
  System s = prepare_system(a, b, vector);
  Tensor x = lu_solve(s.a, s.b);
  record_solve(op, s, x, 0);
  return s.vector ? squeeze(x, -1) : x;
}

Tensor solve_triangular(const Tensor& a, const Tensor& b, bool lower) {
  constexpr std::string_view op = "solve_triangular";
  const bool vector = check_system(op, a, b);
  if (needs_cpu(a))
    return via_cpu({a, b}, [lower](const TensorList& in) {
      return TensorList{solve_triangular(in[0], in[1], lower)};
    })[0];
  System s = prepare_system(a, b, vector);
  Tensor x = raw_triangular_solve(s.a, s.b, lower, /*left=*/true, false, false);
  // triangle: -1 lower, +1 upper (the rule solves with a^T, whose triangle is the other one).
  record_solve(op, s, x, lower ? -1 : 1);
  return s.vector ? squeeze(x, -1) : x;
}

Tensor inv(const Tensor& x) {
  constexpr std::string_view op = "inv";
  check_matrix(op, x, true);
  if (is_complex(x.dtype()))
    return complex_solve(
        x, broadcast_to(eye(x.shape().back(), complex_part_dtype(x.dtype()), x.backend()),
                        x.shape()),
        false);
  if (needs_cpu(x)) return via_cpu({x}, [](const TensorList& in) { return TensorList{inv(in[0])}; })[0];
  Tensor a = detail::cast(x, float_dtype(x));
  Tensor out = lu_solve(a, eye(a.shape().back(), a.dtype(), a.backend()));
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out, [](const autograd::Context& ctx, const Tensor& g) {
      Tensor yt = mT(ctx.output());
      return TensorList{negative(matmul(matmul(yt, g), yt))};
    });
  }
  return out;
}

std::pair<Tensor, Tensor> lu_factor(const Tensor& x) {
  constexpr std::string_view op = "lu_factor";
  check_matrix(op, x, false);
  if (needs_cpu(x)) {
    TensorList r = via_cpu({x}, [](const TensorList& in) {
      auto [lu, piv] = lu_factor(in[0]);
      return TensorList{lu, piv};
    });
    return {r[0], r[1]};
  }
  Tensor a = detail::cast(x, float_dtype(x));
  auto [lu, piv1] = raw_lu(a);
  Tensor outs[2] = {lu, subtract(piv1, Tensor(1))};
  if (autograd::should_record(a)) {
    const int r = a.ndim();
    const int64_t m = a.shape()[r - 2], n = a.shape()[r - 1], k = std::min(m, n);
    auto& be = a.backend();
    // P A = L U with P as a one-hot matrix, so the rule stays differentiable.
    Tensor perm = pivots_to_permutation(piv1, m);
    Tensor p = cast(equal(expand_dims(perm, -1), iota(m, DType::Int32, be)), a.dtype());
    Tensor inputs[1] = {a};
    autograd::record_multi(
        op, inputs, outs,
        [p, m, n, k](const autograd::Context& ctx, std::span<const Tensor> grads) {
          // De Hoog, Anderssen and Lukas: with L (m x m, unit lower) and U (n x n) completed by
          // identities, dLU = L tril(W, -1) + triu(W) U for W = L^-1 P dA U^-1. Its transpose:
          // dA = P^T L^-T (tril(L^T G, -1) + triu(G U^T)) U^-T.
          Tensor lu = ctx.output(0), g = grads[0];
          auto& b = lu.backend();
          const int r = lu.ndim();
          Tensor l = tril(slice_axis(lu, r - 1, 0, k), -1);
          if (m > k) {
            Shape s = l.shape();
            s[r - 1] = m - k;
            l = concatenate({l, detail::zeros_on(s, lu.dtype(), b)}, -1);
          }
          l = add(l, eye(m, lu.dtype(), b));
          Tensor u = triu(slice_axis(lu, r - 2, 0, k));
          if (n > k) {
            Tensor rest = concatenate({detail::zeros_on(Shape{n - k, k}, lu.dtype(), b),
                                       eye(n - k, lu.dtype(), b)},
                                      -1);
            Shape s = u.shape();
            s[r - 2] = n - k;
            u = concatenate({u, broadcast_to(rest, s)}, -2);
          }
          Tensor h = add(tril(matmul(mT(l), g), -1), triu(matmul(g, mT(u))));
          Tensor z = solve_triangular(mT(l), h, /*lower=*/false);
          Tensor w = mT(solve_triangular(u, mT(z), /*lower=*/false));
          return TensorList{matmul(mT(p), w)};
        });
  }
  return {outs[0], outs[1]};
}

Tensor matrix_power(const Tensor& x, int n) {
  constexpr std::string_view op = "matrix_power";
  check_matrix(op, x, true);
  if (n == 0) {
    const int64_t m = x.shape().back();
    return broadcast_to(eye(m, x.dtype(), x.backend()), x.shape());
  }
  Tensor base = n < 0 ? inv(x) : x;
  // Repeated squaring, in JAX's order; products keep the dtype (int8 stays int8, as jnp).
  Tensor z, result;
  for (unsigned e = static_cast<unsigned>(std::abs(static_cast<long>(n))); e > 0; e >>= 1) {
    z = z.defined() ? product(z, z) : base;
    if (e & 1u) result = result.defined() ? product(result, z) : z;
  }
  return result;
}

}  // namespace linalg
}  // namespace keras::ops

// Elementwise activations. The common ones run one fused cpu kernel (UnaryOp::Relu, Sigmoid,
// Softplus, Silu, Gelu, GeluTanh, LogSigmoid, Elu, LeakyRelu, Clip); the rest are short
// compositions. Every one records a single gradient rule.

#include <cmath>
#include <numbers>

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"
#include "ops/nn/nn_common.h"

namespace keras::ops {
inline namespace nn {

using backend::UnaryOp;
using nn_detail::float_dtype;
using nn_detail::with_rule;

namespace {

// Keras's SELU constants (Klambauer et al., 2017).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

Tensor checked(std::string_view op, const Tensor& x, DType dtype) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  // The activations compute on real numbers only: name the op rather than let a kernel refuse.
  if (is_complex(x.dtype())) complex_detail::unsupported(op, x.dtype());
  return detail::prepare(x, dtype, x.backend());
}

// y = op(x, p0, p1) in `dtype`, recording rule(x, y, g) (which may capture parameters).
template <typename Rule>
Tensor unary_kernel(std::string_view name, UnaryOp op, const Tensor& x, DType dtype, Rule rule,
                    double p0 = 0, double p1 = 0) {
  Tensor xc = checked(name, x, dtype);
  Tensor y = detail::run_unary(op, xc, p0, p1);
  if (autograd::should_record(xc)) {
    autograd::record(name, {xc}, y, [xc, rule](const autograd::Context& ctx, const Tensor& g) {
      return TensorList{rule(xc, ctx.output(), g)};
    });
  }
  return y;
}

// A composite activation of one float input: forward(xc) computed once, rule(x, g) recorded.
template <typename Forward, typename Rule>
Tensor composite(std::string_view name, const Tensor& x, Forward forward, Rule rule) {
  Tensor xc = checked(name, x, float_dtype(x));
  return with_rule(
      name, {xc}, [&] { return forward(xc); },
      [xc, rule](const autograd::Context&, const Tensor& g) { return TensorList{rule(xc, g)}; });
}

// composite() for an activation that is one formula, which JAX also evaluates on complex
// numbers: complex x runs the formula through the complex ops, which differentiate it.
template <typename Forward, typename Rule>
Tensor formula(std::string_view name, const Tensor& x, Forward forward, Rule rule) {
  if (x.defined() && is_complex(x.dtype())) return forward(x);
  return composite(name, x, forward, rule);
}

Tensor zero_outside(const Tensor& inside, const Tensor& g) {
  return where(inside, g, 0.0);
}

}  // namespace

Tensor relu(const Tensor& x) {
  // maximum(x, 0) in JAX: integers stay integers (bool becomes int32, as bool + weak int).
  return unary_kernel(
      "relu", UnaryOp::Relu, x, result_type({detail::promote({&x}), weak_int}),
      [](const Tensor& x, const Tensor&, const Tensor& g) { return where(greater(x, 0), g, 0); });
}

Tensor relu6(const Tensor& x) {
  // minimum(maximum(x, 0), 6.): the float 6. makes integers floatx.
  return unary_kernel(
      "relu6", UnaryOp::Clip, x, float_dtype(x),
      [](const Tensor& x, const Tensor&, const Tensor& g) {
        return zero_outside(logical_and(greater(x, 0), less(x, 6)), g);
      },
      0.0, 6.0);
}

Tensor sigmoid(const Tensor& x) {
  // JAX's logistic of a complex z: 1 / (1 + exp(-z)).
  if (x.defined() && is_complex(x.dtype())) return reciprocal(add(exp(negative(x)), 1.0));
  return unary_kernel("sigmoid", UnaryOp::Sigmoid, x, float_dtype(x),
                      [](const Tensor&, const Tensor& y, const Tensor& g) {
                        return multiply(g, multiply(y, subtract(1.0, y)));
                      });
}

Tensor sparse_sigmoid(const Tensor& x) {
  return composite(
      "sparse_sigmoid", x,
      [](const Tensor& x) { return multiply(clip(add(x, 1.0), 0.0, 2.0), 0.5); },
      [](const Tensor& x, const Tensor& g) {
        return zero_outside(logical_and(greater(x, -1.0), less(x, 1.0)),
                            multiply(g, 0.5));
      });
}

Tensor softplus(const Tensor& x) {
  // JAX's softplus is logaddexp(x, 0), which is defined for complex x too.
  if (x.defined() && is_complex(x.dtype())) return logaddexp(x, zeros_like(x));
  return unary_kernel(
      "softplus", UnaryOp::Softplus, x, float_dtype(x),
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, sigmoid(x)); });
}

Tensor softsign(const Tensor& x) {
  return formula(
      "softsign", x, [](const Tensor& x) { return divide(x, add(abs(x), 1.0)); },
      [](const Tensor& x, const Tensor& g) { return divide(g, square(add(abs(x), 1.0))); });
}

Tensor soft_shrink(const Tensor& x, double threshold) {
  return composite(
      "soft_shrink", x,
      [threshold](const Tensor& x) {
        return where(greater(x, threshold), subtract(x, threshold),
                     where(less(x, -threshold), add(x, threshold), 0.0));
      },
      [threshold](const Tensor& x, const Tensor& g) {
        return zero_outside(greater(abs(x), threshold), g);
      });
}

Tensor sparse_plus(const Tensor& x) {
  return composite(
      "sparse_plus", x,
      [](const Tensor& x) {
        return where(less_equal(x, -1.0), 0.0,
                     where(greater_equal(x, 1.0), x, multiply(square(add(x, 1.0)), 0.25)));
      },
      [](const Tensor& x, const Tensor& g) {
        return where(less_equal(x, -1.0), 0.0,
                     where(greater_equal(x, 1.0), g, multiply(g, multiply(add(x, 1.0), 0.5))));
      });
}

Tensor silu(const Tensor& x) {
  if (x.defined() && is_complex(x.dtype())) return multiply(x, sigmoid(x));
  return unary_kernel("silu", UnaryOp::Silu, x, float_dtype(x),
                      [](const Tensor& x, const Tensor&, const Tensor& g) {
                        // d/dx x s(x) = s (1 + x (1 - s))
                        Tensor s = sigmoid(x);
                        return multiply(g, multiply(s, add(1.0, multiply(x, subtract(1.0, s)))));
                      });
}

Tensor swish(const Tensor& x) {
  return silu(x);
}

Tensor squareplus(const Tensor& x, double b) {
  return formula(
      "squareplus", x,
      [b](const Tensor& x) { return multiply(add(x, sqrt(add(square(x), b))), 0.5); },
      [b](const Tensor& x, const Tensor& g) {
        return multiply(g, multiply(add(divide(x, sqrt(add(square(x), b))), 1.0), 0.5));
      });
}

Tensor log_sigmoid(const Tensor& x) {
  if (x.defined() && is_complex(x.dtype())) return negative(softplus(negative(x)));  // as JAX
  return unary_kernel("log_sigmoid", UnaryOp::LogSigmoid, x, float_dtype(x),
                      [](const Tensor& x, const Tensor&, const Tensor& g) {
                        return multiply(g, sigmoid(negative(x)));
                      });
}

Tensor leaky_relu(const Tensor& x, double negative_slope) {
  return unary_kernel(
      "leaky_relu", UnaryOp::LeakyRelu, x, float_dtype(x),
      [negative_slope](const Tensor& x, const Tensor&, const Tensor& g) {
        return where(greater_equal(x, 0.0), g, multiply(g, negative_slope));
      },
      negative_slope);
}

Tensor hard_sigmoid(const Tensor& x) {
  // relu6(x + 3) / 6, in JAX's order of operations.
  return composite(
      "hard_sigmoid", x,
      [](const Tensor& x) { return divide(clip(add(x, 3.0), 0.0, 6.0), 6.0); },
      [](const Tensor& x, const Tensor& g) {
        return zero_outside(logical_and(greater(x, -3.0), less(x, 3.0)), divide(g, 6.0));
      });
}

Tensor hard_silu(const Tensor& x) {
  return composite(
      "hard_silu", x,
      [](const Tensor& x) {
        return multiply(x, divide(clip(add(x, 3.0), 0.0, 6.0), 6.0));
      },
      [](const Tensor& x, const Tensor& g) {
        // hard_sigmoid(x) + x * hard_sigmoid'(x)
        Tensor hs = divide(clip(add(x, 3.0), 0.0, 6.0), 6.0);
        Tensor inside = logical_and(greater(x, -3.0), less(x, 3.0));
        return multiply(g, add(hs, where(inside, divide(x, 6.0), 0.0)));
      });
}

Tensor hard_swish(const Tensor& x) {
  return hard_silu(x);
}

Tensor elu(const Tensor& x, double alpha) {
  return unary_kernel(
      "elu", UnaryOp::Elu, x, float_dtype(x),
      [alpha](const Tensor& x, const Tensor& y, const Tensor& g) {
        // Below 0, y = alpha (e^x - 1), so dy/dx = y + alpha.
        return where(greater(x, 0.0), g, multiply(g, add(y, alpha)));
      },
      alpha);
}

Tensor selu(const Tensor& x) {
  return composite(
      "selu", x,
      [](const Tensor& x) {
        return multiply(detail::run_unary(UnaryOp::Elu, x, kSeluAlpha), kSeluScale);
      },
      [](const Tensor& x, const Tensor& g) {
        return multiply(
            g, where(greater(x, 0.0), kSeluScale, multiply(exp(x), kSeluScale * kSeluAlpha)));
      });
}

Tensor gelu(const Tensor& x, bool approximate) {
  if (approximate && x.defined() && is_complex(x.dtype())) {
    // JAX's tanh approximation, a complex function too (the exact form needs a complex erf).
    const double k = std::sqrt(2.0 / std::numbers::pi);
    Tensor inner = multiply(add(x, multiply(multiply(square(x), x), 0.044715)), k);
    return multiply(x, multiply(add(tanh(inner), 1.0), 0.5));
  }
  if (approximate) {
    return unary_kernel("gelu", UnaryOp::GeluTanh, x, float_dtype(x),
                        [](const Tensor& x, const Tensor&, const Tensor& g) {
                          // y = x/2 (1 + tanh(u)), u = k (x + c x^3):
                          // dy/dx = (1 + t)/2 + x/2 (1 - t^2) k (1 + 3 c x^2)
                          constexpr double k = 0.79788456080286535588, c = 0.044715;
                          Tensor x2 = square(x);
                          Tensor t = tanh(multiply(multiply(x, add(multiply(x2, c), 1.0)), k));
                          Tensor du = multiply(add(multiply(x2, 3 * c), 1.0), k);
                          Tensor d = add(
                              multiply(add(t, 1.0), 0.5),
                              multiply(multiply(multiply(x, 0.5), subtract(1.0, square(t))), du));
                          return multiply(g, d);
                        });
  }
  return unary_kernel(
      "gelu", UnaryOp::Gelu, x, float_dtype(x),
      [](const Tensor& x, const Tensor&, const Tensor& g) {
        // Phi(x) + x phi(x)
        Tensor cdf = multiply(add(erf(multiply(x, M_SQRT1_2)), 1.0), 0.5);
        Tensor pdf = multiply(exp(multiply(square(x), -0.5)), 0.5 * M_2_SQRTPI * M_SQRT1_2);
        return multiply(g, add(cdf, multiply(x, pdf)));
      });
}

Tensor celu(const Tensor& x, double alpha) {
  check(alpha != 0, "celu: alpha must be nonzero; got alpha=0.");
  if (alpha == 1.0) return elu(x, 1.0);
  // celu(x, a) = a * elu(x / a, 1).
  return composite(
      "celu", x,
      [alpha](const Tensor& x) {
        return multiply(detail::run_unary(UnaryOp::Elu, divide(x, alpha), 1.0), alpha);
      },
      [alpha](const Tensor& x, const Tensor& g) {
        return where(greater(x, 0.0), g, multiply(g, exp(divide(x, alpha))));
      });
}

Tensor glu(const Tensor& x, int axis) {
  constexpr std::string_view op = "glu";
  Tensor xc = checked(op, x, float_dtype(x));
  const int a = detail::normalize_axis(op, axis, xc.ndim());
  const int64_t n = xc.shape()[a];
  check(n % 2 == 0, op, ": the size of axis ", axis,
        " must be even to split x into two halves; "
        "got shape ",
        xc.shape(), ".");
  // The two halves as views; basic_view records, so the rule stays differentiable.
  auto half = [a, n](const Tensor& t, int64_t start) {
    std::vector<detail::AxisIndex> spec(static_cast<size_t>(t.ndim()));
    for (int d = 0; d < t.ndim(); ++d) spec[d].length = t.shape()[d];
    spec[a] = detail::AxisIndex{start, 1, n / 2, true};
    return detail::basic_view(t, spec);
  };
  return with_rule(
      op, {xc}, [&] { return multiply(half(xc, 0), sigmoid(half(xc, n / 2))); },
      [xc, a, n, half](const autograd::Context&, const Tensor& g) {
        Tensor first = half(xc, 0), s = sigmoid(half(xc, n / 2));
        Tensor ga = multiply(g, s);
        Tensor gb = multiply(multiply(g, first), multiply(s, subtract(1.0, s)));
        return TensorList{concatenate({ga, gb}, a)};
      });
}

Tensor tanh_shrink(const Tensor& x) {
  return formula(
      "tanh_shrink", x, [](const Tensor& x) { return subtract(x, tanh(x)); },
      [](const Tensor& x, const Tensor& g) { return multiply(g, square(tanh(x))); });
}

Tensor hard_tanh(const Tensor& x) {
  // where(x > 1, 1, where(x < -1, -1, x)): integers stay integers.
  return unary_kernel(
      "hard_tanh", UnaryOp::Clip, x, result_type({detail::promote({&x}), weak_int}),
      [](const Tensor& x, const Tensor&, const Tensor& g) {
        return zero_outside(logical_and(greater_equal(x, -1), less_equal(x, 1)), g);
      },
      -1.0, 1.0);
}

Tensor hard_shrink(const Tensor& x, double threshold) {
  return composite(
      "hard_shrink", x,
      [threshold](const Tensor& x) { return where(greater(abs(x), threshold), x, 0.0); },
      [threshold](const Tensor& x, const Tensor& g) {
        return zero_outside(greater(abs(x), threshold), g);
      });
}

Tensor threshold(const Tensor& x, const Scalar& threshold, const Scalar& default_value) {
  check(x.defined(), "threshold: the input is an undefined tensor.");
  // where's own rule sends the gradient to x where it was kept.
  return where(greater(x, Tensor(threshold)), x, Tensor(default_value));
}

}  // namespace nn
}  // namespace keras::ops

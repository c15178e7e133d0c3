#pragma once
// keras.ops.nn activations, softmax and log_softmax.
//
// Integer and bool inputs compute in floatx(), as Keras does through JAX's promotion, except
// where JAX keeps integers (relu, hard_tanh, and threshold with integer arguments).

#include "keras/core/scalar.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// max(x, 0). Integers stay integers; NaN propagates.
Tensor relu(const Tensor& x);
/// min(max(x, 0), 6).
Tensor relu6(const Tensor& x);
/// 1 / (1 + exp(-x)).
Tensor sigmoid(const Tensor& x);
/// 0.5 * clip(x + 1, 0, 2): a piecewise-linear sigmoid.
Tensor sparse_sigmoid(const Tensor& x);
/// log(1 + exp(x)), computed without overflow.
Tensor softplus(const Tensor& x);
/// x / (|x| + 1).
Tensor softsign(const Tensor& x);
/// x - threshold above threshold, x + threshold below -threshold, 0 between.
Tensor soft_shrink(const Tensor& x, double threshold = 0.5);
/// 0 for x <= -1, x for x >= 1, (x + 1)^2 / 4 between.
Tensor sparse_plus(const Tensor& x);
/// x * sigmoid(x) (also called swish).
Tensor silu(const Tensor& x);
/// Alias of silu.
Tensor swish(const Tensor& x);
/// (x + sqrt(x^2 + b)) / 2.
Tensor squareplus(const Tensor& x, double b = 4);
/// log(sigmoid(x)), computed without overflow.
Tensor log_sigmoid(const Tensor& x);
/// x for x >= 0, negative_slope * x otherwise.
Tensor leaky_relu(const Tensor& x, double negative_slope = 0.2);
/// relu6(x + 3) / 6.
Tensor hard_sigmoid(const Tensor& x);
/// x * hard_sigmoid(x) (also called hard_swish).
Tensor hard_silu(const Tensor& x);
/// Alias of hard_silu.
Tensor hard_swish(const Tensor& x);
/// x for x > 0, alpha * (exp(x) - 1) otherwise.
Tensor elu(const Tensor& x, double alpha = 1.0);
/// scale * elu(x, alpha) with the self-normalizing constants (alpha ~1.6733, scale ~1.0507).
Tensor selu(const Tensor& x);
/// Gaussian error linear unit: x * Phi(x), by the tanh approximation when `approximate`.
Tensor gelu(const Tensor& x, bool approximate = true);
/// max(x, 0) + alpha * (exp(min(x, 0) / alpha) - 1).
Tensor celu(const Tensor& x, double alpha = 1.0);
/// Gated linear unit: a * sigmoid(b), where a and b are the halves of x along `axis`.
Tensor glu(const Tensor& x, int axis = -1);
/// x - tanh(x).
Tensor tanh_shrink(const Tensor& x);
/// clip(x, -1, 1). Integers stay integers.
Tensor hard_tanh(const Tensor& x);
/// x where |x| > threshold, 0 elsewhere.
Tensor hard_shrink(const Tensor& x, double threshold = 0.5);
/// x where x > threshold, default_value elsewhere (dtype as where(x > t, x, default_value)).
Tensor threshold(const Tensor& x, const Scalar& threshold, const Scalar& default_value);

/// exp(x) / sum(exp(x)) along `axis` (one axis, several, or None for all).
Tensor softmax(const Tensor& x, const Axes& axis = -1);
/// x - logsumexp(x) along `axis` (one axis, several, or None for all).
Tensor log_softmax(const Tensor& x, const Axes& axis = -1);
/// Sparsemax (Martins & Astudillo, 2016): the Euclidean projection of x onto the simplex
/// along `axis`; many outputs are exactly 0.
Tensor sparsemax(const Tensor& x, int axis = -1);

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop

// dropout: keep each element with probability 1 - rate and scale the kept ones by
// 1 / (1 - rate), so the expectation is unchanged.


#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "random/draw.h"

namespace keras::random {
namespace {

// Keras's noise_shape with its None entries (-1 here) replaced by the input's extents.
Shape resolve_noise_shape(std::string_view op, const Shape& input,
                          const std::optional<Shape>& noise_shape) {
  if (!noise_shape) return input;
  check(noise_shape->rank() == input.rank(), op, ": noise_shape ", *noise_shape,
        " must have the rank of the input shape ", input, ".");
  Shape out = *noise_shape;
  for (int d = 0; d < out.rank(); ++d) {
    if (out[d] == -1) out[d] = input[d];
    check(out[d] == input[d] || out[d] == 1, op, ": noise_shape ", *noise_shape,
          " does not broadcast to the input shape ", input,
          " (each entry must be 1, -1 for None, or the input's extent).");
  }
  return out;
}

}  // namespace

Tensor dropout(const Tensor& inputs, double rate, const std::optional<Shape>& noise_shape,
               const Seed& seed) {
  constexpr std::string_view op = "random::dropout";
  check(inputs.defined(), op, ": the input is an undefined tensor.");
  ops::detail::require_float(op, inputs);
  check(rate >= 0.0 && rate <= 1.0, op, ": rate must be in [0, 1]; got ", rate, ".");
  Shape noise = resolve_noise_shape(op, inputs.shape(), noise_shape);
  // As in Keras, the two degenerate rates draw nothing (a SeedGenerator does not advance).
  if (rate == 1.0) return ops::zeros_like(inputs);
  if (rate == 0.0) return inputs;
  const double keep_prob = 1.0 - rate;
  auto& be = inputs.backend();
  Tensor u = detail::DrawKey::from(seed).stream(backend::RandomKind::Uniform, noise,
                                                DType::Float32, be);
  Tensor threshold = ops::detail::scalar_tensor(Scalar::typed(keep_prob, DType::Float32),
                                                DType::Float32, be);
  Tensor keep = ops::detail::run_binary(backend::BinaryOp::Less, u, threshold);
  return ops::where(keep, ops::divide(inputs, keep_prob), 0.0);
}

}  // namespace keras::random

// Cross-entropies and psnr. From logits they go through log_softmax / softplus (stable, one
// fused kernel each); from probabilities they clip with config::epsilon() exactly as Keras.

#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"
#include "ops/nn/nn_common.h"

namespace keras::ops {
inline namespace nn {

namespace {

void check_same_shape(std::string_view op, const Tensor& target, const Tensor& output) {
  check(target.defined() && output.defined(), op, ": an input is an undefined tensor.");
  check(target.shape() == output.shape(), op,
        ": arguments `target` and `output` must have the same shape; got target.shape=",
        target.shape(), " and output.shape=", output.shape(), ".");
}

// clip(p, epsilon, 1 - epsilon), Keras's guard against log(0).
Tensor clip_probabilities(const Tensor& p) {
  const double eps = config::epsilon();
  return clip(p, eps, 1.0 - eps);
}

}  // namespace

Tensor binary_crossentropy(const Tensor& target, const Tensor& output, bool from_logits) {
  constexpr std::string_view op = "binary_crossentropy";
  check_same_shape(op, target, output);
  auto& be = detail::common_backend(op, {&target, &output});
  const DType dtype = float_result_type(detail::promote({&target, &output}));
  Tensor t = detail::prepare(target, dtype, be), o = detail::prepare(output, dtype, be);
  if (from_logits) {
    // -t log_sigmoid(o) - (1 - t) log_sigmoid(-o) = t softplus(-o) + (1 - t) softplus(o).
    return nn_detail::with_rule(
        op, {t, o},
        [&] {
          return add(multiply(t, softplus(negative(o))), multiply(subtract(1.0, t), softplus(o)));
        },
        [t, o](const autograd::Context& ctx, const Tensor& g) {
          return TensorList{
              ctx.needs_input_grad(0) ? multiply(g, negative(o)) : Tensor(),
              ctx.needs_input_grad(1) ? multiply(g, subtract(sigmoid(o), t)) : Tensor()};
        });
  }
  Tensor p = clip_probabilities(o);
  return negative(add(multiply(t, log(p)), multiply(subtract(1.0, t), log(subtract(1.0, p)))));
}

Tensor categorical_crossentropy(const Tensor& target, const Tensor& output, bool from_logits,
                                int axis) {
  constexpr std::string_view op = "categorical_crossentropy";
  check_same_shape(op, target, output);
  check(output.ndim() >= 1, op,
        ": arguments `target` and `output` must be at least rank 1; got "
        "target.shape=",
        target.shape(), " and output.shape=", output.shape(), ".");
  const int a = detail::normalize_axis(op, axis, output.ndim());
  auto& be = detail::common_backend(op, {&target, &output});
  const DType dtype = float_result_type(detail::promote({&target, &output}));
  Tensor t = detail::prepare(target, dtype, be), o = detail::prepare(output, dtype, be);
  Tensor log_prob =
      from_logits ? log_softmax(o, a) : log(clip_probabilities(divide(o, sum(o, a, true))));
  return negative(sum(multiply(t, log_prob), a));
}

Tensor sparse_categorical_crossentropy(const Tensor& target, const Tensor& output, bool from_logits,
                                       int axis) {
  constexpr std::string_view op = "sparse_categorical_crossentropy";
  check(target.defined() && output.defined(), op, ": an input is an undefined tensor.");
  check(output.ndim() >= 1, op,
        ": argument `output` must be at least rank 1; got output.shape=", output.shape(), ".");
  auto& be = detail::common_backend(op, {&target, &output});
  const int a = detail::normalize_axis(op, axis, output.ndim());
  // Keras reads the labels as int32 and drops a trailing axis of 1.
  Tensor labels = detail::prepare(target, DType::Int32, be);
  if (labels.ndim() == output.ndim() && labels.ndim() > 0 && labels.shape()[labels.ndim() - 1] == 1)
    labels = squeeze(labels, -1);
  Shape expected = output.shape();
  expected.erase(static_cast<size_t>(a));
  check(labels.shape() == expected, op, ": `target` must have the shape of `output` without axis ",
        axis, "; got target.shape=", target.shape(), " and output.shape=", output.shape(),
        " (expected target.shape=", expected, ").");
  const int64_t classes = output.shape()[a];
  if (labels.size() > 0) {
    detail::check_range_on_host(
        labels, [op, classes, shape = output.shape(), axis](int64_t lo, int64_t hi) {
          if (lo < 0 || hi >= classes)
            throw IndexError(keras::detail::cat(op, ": labels must lie in [0, ", classes,
                                                ") (output.shape=", shape, ", axis ", axis,
                                                "); got labels in [", lo, ", ", hi, "]."));
        });
  }
  Tensor o = detail::prepare(output, nn_detail::float_dtype(output), be);
  // log_prob[label] by a gather rather than a one-hot product: the same values, O(N) work.
  Tensor index = expand_dims(labels, a);
  Tensor picked =
      from_logits
          ? detail::gather_along(log_softmax(o, a), index, a)
          : log(clip_probabilities(divide(detail::gather_along(o, index, a), sum(o, a, true))));
  // Keras multiplies by a float32 one-hot, so half-precision outputs give float32 losses.
  const DType dtype = result_type({o.dtype(), DType::Float32});
  return negative(squeeze(detail::cast(picked, dtype), a));
}

Tensor psnr(const Tensor& x1, const Tensor& x2, const Tensor& max_val) {
  constexpr std::string_view op = "psnr";
  check(x1.defined() && x2.defined() && max_val.defined(), op,
        ": an input is an undefined tensor.");
  check(x1.shape() == x2.shape(), op, ": input shapes ", x1.shape(), " and ", x2.shape(),
        " must match for PSNR calculation.");
  auto& be = detail::common_backend(op, {&x1, &x2, &max_val});
  // Keras converts max_val to x2's dtype first.
  Tensor peak = detail::prepare(max_val, x2.dtype(), be);
  Tensor mse = mean(square(subtract(x1, x2)));
  return subtract(multiply(log10(peak), 20.0), multiply(log10(mse), 10.0));
}

}  // namespace nn
}  // namespace keras::ops

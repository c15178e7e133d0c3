// CTC loss and greedy decoding, as Keras 3.15 computes them on JAX (keras/src/backend/jax/nn.py:
// ctc_loss after optax's ctc_loss_with_forward_probs, _ctc_greedy_decode). The loss is the
// forward recursion over "phi" (blank) and "emit" (label) states in log space, written with
// differentiable ops so that autograd gives its gradient.

#include "keras/ops/nn/ctc.h"

#include "keras/core/errors.h"
#include "keras/core/promotion.h"
#include "keras/ops/ops.h"
#include "ops/nn/ctc_beam_search.h"

namespace keras::ops {
inline namespace nn {
namespace {

// Keras's log of an impossible transition.
constexpr double kLogEpsilon = -1e5;

// 1.0 where position >= length (padding), 0.0 elsewhere: (batch, max_length) in `dtype`.
Tensor paddings(const Tensor& lengths, int64_t max_length, DType dtype) {
  Tensor positions = expand_dims(arange(0, max_length, 1, DType::Int32), 0);
  return cast(greater_equal(positions, expand_dims(cast(lengths, DType::Int32), -1)), dtype);
}

// phi[:, 1:] = logaddexp(phi[:, 1:], added): a label state passes into the blank after it.
Tensor into_next_phi(const Tensor& phi, const Tensor& added) {
  const int64_t b = phi.shape()[0], n1 = phi.shape()[1];
  Tensor first = slice(phi, {0, 0}, {b, 1});
  Tensor rest = slice(phi, {0, 1}, {b, n1 - 1});
  return concatenate({first, logaddexp(rest, added)}, 1);
}

void check_ctc_shapes(const Tensor& target, const Tensor& output, const Tensor& target_length,
                      const Tensor& output_length) {
  constexpr std::string_view op = "ctc_loss";
  check(target.defined() && output.defined() && target_length.defined() &&
            output_length.defined(),
        op, ": an input is an undefined tensor.");
  check(output.ndim() == 3, op, ": output must be (batch, max_length, num_classes) logits; got ",
        "output.shape=", output.shape(), ".");
  check(target.ndim() == 2 && target.shape()[0] == output.shape()[0], op,
        ": target must be (batch, max_label_length) with output's batch; got target.shape=",
        target.shape(), " and output.shape=", output.shape(), ".");
  for (const Tensor* len : {&target_length, &output_length})
    check(len->ndim() == 1 && len->shape()[0] == output.shape()[0], op,
          ": target_length and output_length must be (batch,); got ", len->shape(), ".");
}

}  // namespace

Tensor ctc_loss(const Tensor& target, const Tensor& output, const Tensor& target_length,
                const Tensor& output_length, int mask_index) {
  check_ctc_shapes(target, output, target_length, output_length);
  const int64_t batch = output.shape()[0], steps = output.shape()[1];
  const int64_t classes = output.shape()[2], labels = target.shape()[1];
  check(mask_index >= 0 && mask_index < classes, "ctc_loss: mask_index ", mask_index,
        " is not a class of output (num_classes=", classes, ").");
  check(labels >= 1, "ctc_loss: target needs at least one label position; got target.shape=",
        target.shape(), ".");
  // Keras computes in result_type(output, float32): float32, or float64 for float64 output.
  const DType dtype = result_type({output.dtype(), DType::Float32});
  Tensor logprobs = log_softmax(cast(output, dtype), -1);  // (B, T, K)
  Tensor labels_int = cast(target, DType::Int32);  // labels given as floats too, as in Keras

  Tensor target_pad = paddings(target_length, labels, dtype);
  Tensor output_pad = paddings(output_length, steps, dtype);
  Tensor label_lengths = cast(subtract(Tensor(Scalar(labels)), sum(target_pad, 1)), DType::Int32);

  // repeat[b, n] = 1 when label n equals label n + 1 (a blank must separate them).
  Tensor repeat = zeros({batch, 1}, dtype);
  if (labels > 1) {
    Tensor same = equal(slice(labels_int, {0, 0}, {batch, labels - 1}),
                        slice(labels_int, {0, 1}, {batch, labels - 1}));
    repeat = concatenate({cast(same, dtype), repeat}, 1);
  }

  // Each step's log-probabilities of the blank (B, T) and of each label position (B, T, N).
  Tensor logprobs_phi = reshape(slice(logprobs, {0, 0, mask_index}, {batch, steps, 1}),
                                Shape{batch, steps});
  Tensor logprobs_emit = matmul(logprobs, transpose(one_hot(labels_int, classes, -1, dtype),
                                                    {0, 2, 1}));
  TensorList phi_steps = unstack(logprobs_phi, steps, 1);
  TensorList emit_steps = unstack(logprobs_emit, steps, 1);
  TensorList pad_steps = unstack(output_pad, steps, 1);

  Tensor phi = concatenate({zeros({batch, 1}, dtype), full({batch, labels}, kLogEpsilon, dtype)},
                           1);  // (B, N + 1): only the start state is possible
  Tensor emit = full({batch, labels}, kLogEpsilon, dtype);
  Tensor no_repeat = subtract(Tensor(Scalar(1.0)), repeat);
  for (int64_t t = 0; t < steps; ++t) {
    const Tensor previous_phi = phi;
    // A label passes to the blank after it, unless the next label repeats it.
    Tensor phi_in = into_next_phi(phi, add(emit, multiply(Tensor(kLogEpsilon), repeat)));
    const Tensor& emit_t = emit_steps[static_cast<size_t>(t)];
    Tensor blank_t = expand_dims(phi_steps[static_cast<size_t>(t)], -1);
    // Into a label from the blank before it, or staying on it.
    const int64_t n1 = labels + 1;
    Tensor next_emit = logaddexp(add(slice(phi_in, {0, 0}, {batch, n1 - 1}), emit_t),
                                 add(emit, emit_t));
    // The blank stays, or a repeated label passes to the blank between the repeats.
    Tensor next_phi = add(phi_in, blank_t);
    next_phi = into_next_phi(
        next_phi, add(add(emit, blank_t), multiply(Tensor(kLogEpsilon), no_repeat)));
    // Steps past output_length leave the states as they were.
    Tensor pad = expand_dims(pad_steps[static_cast<size_t>(t)], -1);
    Tensor keep = subtract(Tensor(Scalar(1.0)), pad);
    emit = add(multiply(pad, emit), multiply(keep, next_emit));
    phi = add(multiply(pad, previous_phi), multiply(keep, next_phi));
  }
  Tensor last = into_next_phi(phi, emit);
  return negative(sum(multiply(last, one_hot(label_lengths, labels + 1, -1, dtype)), 1));
}

std::pair<Tensor, Tensor> ctc_decode(const Tensor& inputs, const Tensor& sequence_lengths,
                                     const CtcDecodeOptions& options) {
  constexpr std::string_view op = "ctc_decode";
  check(inputs.defined() && sequence_lengths.defined(), op, ": an input is an undefined tensor.");
  check(inputs.ndim() == 3, op, ": inputs must be (batch, max_length, num_classes); got ",
        "inputs.shape=", inputs.shape(), ".");
  check(sequence_lengths.ndim() == 1 && sequence_lengths.shape()[0] == inputs.shape()[0], op,
        ": sequence_lengths must be (batch,); got ", sequence_lengths.shape(), ".");
  check(options.strategy == "greedy" || options.strategy == "beam_search", op,
        ": unknown strategy '", options.strategy, "'; expected 'greedy' or 'beam_search'.");
  const int64_t batch = inputs.shape()[0], steps = inputs.shape()[1];
  const int mask = options.mask_index;
  check(mask >= 0 && mask < inputs.shape()[2], op, ": mask_index ", mask,
        " is not a class of inputs (num_classes=", inputs.shape()[2], ").");
  if (options.strategy == "beam_search")
    return detail::ctc_beam_search_decode(inputs, sequence_lengths, options.beam_width,
                                          options.top_paths, mask);

  Tensor indices = cast(argmax(inputs, -1), DType::Int32);  // (B, T)
  Tensor scores = max(inputs, -1);
  Tensor past_end = greater_equal(expand_dims(arange(0, steps, 1, DType::Int32), 0),
                                  expand_dims(cast(sequence_lengths, DType::Int32), -1));
  indices = where(past_end, Tensor(Scalar(mask)), indices);
  scores = where(past_end, zeros_like(scores), scores);
  if (options.merge_repeated && steps > 1) {
    Tensor repeated = equal(slice(indices, {0, 1}, {batch, steps - 1}),
                            slice(indices, {0, 0}, {batch, steps - 1}));
    repeated = concatenate({zeros({batch, 1}, DType::Bool), repeated}, 1);
    indices = where(repeated, Tensor(Scalar(mask)), indices);
  }
  // Blanks become -1 and move to the end; the labels keep their order.
  Tensor blank = equal(indices, Tensor(Scalar(mask)));
  indices = where(blank, Tensor(Scalar(-1)), indices);
  Tensor order = where(blank, Tensor(Scalar(static_cast<int32_t>(steps))),
                       broadcast_to(expand_dims(arange(0, steps, 1, DType::Int32), 0),
                                    Shape{batch, steps}));
  indices = take_along_axis(indices, argsort(order, -1), -1);
  return {expand_dims(indices, 0), expand_dims(negative(sum(scores, 1)), -1)};
}

}  // namespace nn
}  // namespace keras::ops

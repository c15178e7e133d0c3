"""CTC against real Keras 3.15 (JAX backend, x64): keras.ops.ctc_loss values and gradients,
keras.ops.ctc_decode (greedy) and keras.losses.CTC, for tests/losses/ctc_oracle_test.cpp.

Writes tests/oracle/fixtures/ctc.npz:
  op "ctc_loss"    inputs target (int32), output (logits), target_length, output_length;
                   kwargs mask_index; outputs the per-sequence loss and d sum(loss) / d output
                   (jax.grad through Keras's own function);
  op "ctc_decode"  inputs (scores), sequence_lengths; kwargs merge_repeated, mask_index; outputs
                   decoded (stored as int32, keras-cpp's dtype: JAX's x64 argmax gives int64) and
                   scores;
  op "CTC"         inputs y_true, y_pred; kwargs reduction; output keras.losses.CTC's value;
  op "ctc_beam_decode"  ctc_decode(strategy="beam_search"): inputs (scores), sequence_lengths;
                   kwargs beam_width, top_paths, mask_index; outputs paths and scores.
Padded labels and steps (lengths shorter than the arrays), repeated labels (which need a blank
between them), a blank other than 0, float64 logits (Keras on JAX computes them in float32:
compared at float32 tolerance), an empty label and an impossible
alignment (more labels than steps: Keras gives about 1e5) are covered.
Run: ./scripts/oracle.sh ctc
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (sets up Keras on JAX with x64 first)

import jax  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

TOL32 = dict(rtol=1e-5, atol=1e-5)


def loss_case(f, name, target, output, target_length, output_length, mask_index=0):
    args = [np.asarray(a) for a in (target, output, target_length, output_length)]

    def total(logits):
        return keras.ops.sum(keras.ops.ctc_loss(args[0], logits, args[2], args[3],
                                                mask_index=mask_index))

    loss = np.asarray(keras.ops.ctc_loss(*args, mask_index=mask_index))
    grad = np.asarray(jax.grad(total)(args[1]))
    extra = dict(TOL32)
    if args[1].dtype == np.float64 and loss.dtype == np.float32:
        # Keras asks for result_type(float64, float32) = float64, but under jax_enable_x64 its
        # JAX function computes in float32 (the 64-to-32-bit narrowing listed in
        # docs/saving-and-interop.md); keras-cpp computes in float64, so values compare at
        # float32's tolerance.
        extra.update(check_dtype=False,
                     x64_dtype="Keras on JAX computes float64 logits in float32")
    f.case(name, "ctc_loss", args, [loss, grad], mask_index=mask_index, **extra)


def decode_case(f, name, scores, lengths, merge_repeated=True, mask_index=0):
    decoded, score = keras.ops.ctc_decode(scores, lengths, strategy="greedy",
                                          merge_repeated=merge_repeated, mask_index=mask_index)
    f.case(name, "ctc_decode", [scores, lengths],
           [np.asarray(decoded).astype(np.int32), np.asarray(score)],
           merge_repeated=merge_repeated, mask_index=mask_index, **TOL32)


def beam_case(f, name, scores, lengths, beam_width, top_paths, mask_index=0):
    decoded, score = keras.ops.ctc_decode(scores, lengths, strategy="beam_search",
                                          beam_width=beam_width, top_paths=top_paths,
                                          mask_index=mask_index)
    f.case(name, "ctc_beam_decode", [scores, lengths],
           [np.asarray(decoded).astype(np.int32), np.asarray(score, np.float32)],
           beam_width=beam_width, top_paths=top_paths, mask_index=mask_index, **TOL32)


def main():
    f = oracle.Fixture("ctc", seed=21)
    i32 = np.int32
    # Labels 1..4 with blank 0; lengths shorter than the arrays; repeats (2, 2) and (3, 3).
    target = np.array([[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 3, 1]], i32)
    logits = f.randn(3, 9, 5)
    loss_case(f, "padded_repeats", target, logits, np.array([4, 2, 3], i32),
              np.array([9, 6, 8], i32))
    loss_case(f, "full_lengths", target[:, :2], f.randn(3, 5, 5), np.array([2, 2, 2], i32),
              np.array([5, 5, 5], i32))
    # The blank is the last class (as in TensorFlow's convention), labels 0..3.
    loss_case(f, "blank_last", np.array([[0, 1, 1], [3, 2, 0]], i32), f.randn(2, 7, 5),
              np.array([3, 2], i32), np.array([7, 5], i32), mask_index=4)
    loss_case(f, "float64", target, f.randn(3, 9, 5, dtype=np.float64), np.array([4, 2, 3], i32),
              np.array([9, 6, 8], i32))
    loss_case(f, "empty_label", np.array([[1, 2], [0, 0]], i32), f.randn(2, 4, 3),
              np.array([2, 0], i32), np.array([4, 3], i32))
    # Three labels with a repeat need 4 steps; 3 steps make the alignment impossible.
    loss_case(f, "impossible", np.array([[1, 1, 2]], i32), f.randn(1, 3, 3),
              np.array([3], i32), np.array([3], i32))
    loss_case(f, "long", f.randint(1, 8, 2, 6), f.randn(2, 20, 8), np.array([6, 4], i32),
              np.array([20, 17], i32))

    # Greedy decoding of scores with repeats, blanks and short sequences.
    scores = f.randn(3, 8, 5)
    scores[0, 1:3, 2] += 5.0  # a repeated class
    scores[1, :, 0] += 1.0    # many blanks
    decode_case(f, "decode_greedy", scores, np.array([8, 5, 3], i32))
    decode_case(f, "decode_no_merge", scores, np.array([8, 5, 3], i32), merge_repeated=False)
    decode_case(f, "decode_blank_last", scores, np.array([8, 8, 6], i32), mask_index=4)

    # keras.losses.CTC: every label position and step counts, blank 0.
    y_true = np.array([[1, 2, 3], [2, 2, 1]], i32)
    y_pred = f.randn(2, 8, 4)
    for reduction in ("sum_over_batch_size", "sum", None):
        loss = keras.losses.CTC(reduction=reduction)(y_true, y_pred)
        f.case(f"loss_{reduction}", "CTC", [y_true, y_pred], [np.asarray(loss, np.float32)],
               reduction=reduction if reduction else "none", **TOL32)
    # Beam search (drawn last so the cases above keep their numbers): several paths, a beam
    # narrower than the classes, a blank other than 0, short sequences, a peaked sequence whose
    # paths merge (repeats and blanks), and a single step.
    beam_scores = f.randn(3, 7, 5)
    beam_scores[0, 1:4, 2] += 3.0
    beam_case(f, "beam_top3", beam_scores, np.array([7, 5, 3], i32), beam_width=4, top_paths=3)
    beam_case(f, "beam_narrow", beam_scores, np.array([7, 7, 2], i32), beam_width=2,
              top_paths=1)
    beam_case(f, "beam_blank_last", beam_scores, np.array([6, 4, 7], i32), beam_width=5,
              top_paths=2, mask_index=4)
    beam_case(f, "beam_wide", f.randn(2, 10, 6), np.array([10, 8], i32), beam_width=100,
              top_paths=4)
    beam_case(f, "beam_one_step", f.randn(2, 1, 4), np.array([1, 1], i32), beam_width=3,
              top_paths=2)
    f.save()


if __name__ == "__main__":
    main()

#pragma once
// keras.ops.ctc_loss and keras.ops.ctc_decode: Connectionist Temporal Classification (Graves et
// al., 2006) for sequence outputs whose alignment to the labels is unknown (speech, OCR).

#include <string>
#include <utility>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// Per-sequence CTC loss, shape (batch,): -log p(target | output). `target` (batch,
/// max_label_length) holds integer labels, `output` (batch, max_length, num_classes) logits
/// (normalized here with log_softmax), `target_length` and `output_length` (batch,) the valid
/// lengths; `mask_index` is the blank class. Computed in float32, or float64 for float64
/// output, with Keras's forward recursion (log space, -1e5 for impossible paths); the gradient
/// comes from autograd through it.
Tensor ctc_loss(const Tensor& target, const Tensor& output, const Tensor& target_length,
                const Tensor& output_length, int mask_index = 0);

/// ctc_decode's keyword arguments (keras.ops.ctc_decode).
struct CtcDecodeOptions {
  /// "greedy" (the best class at each step) or "beam_search" (Keras's prefix beam search:
  /// the top_paths most likely label sequences of a beam of beam_width, on the host).
  std::string strategy = "greedy";
  /// The beam's width for beam search (Keras's default 100).
  int beam_width = 100;
  /// Beam search: how many paths to return (at most 2 * beam_width).
  int top_paths = 1;
  /// Repeated classes in a row become one label (greedy; beam search always merges them).
  bool merge_repeated = true;
  /// The blank class.
  int mask_index = 0;
};

/// Decodes (batch, max_length, num_classes) scores: {decoded (top_paths, batch, max_length)
/// int32 labels, left-aligned, padded with -1; scores (batch, top_paths): for greedy, minus the
/// sum over valid steps of each step's largest score; for beam search, each path's
/// log-probability}. `sequence_lengths` (batch,) are the valid steps.
std::pair<Tensor, Tensor> ctc_decode(const Tensor& inputs, const Tensor& sequence_lengths,
                                     const CtcDecodeOptions& options = {});

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop

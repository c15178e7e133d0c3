#pragma once
// ctc_decode's "beam_search" strategy (Keras's prefix beam search, on the host).

#include <cstdint>
#include <utility>

#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// {paths (top_paths, batch, max_length) int32 padded with -1, scores (batch, top_paths)
/// float32: the log-probability of each path, best first} for scores (batch, max_length,
/// num_classes) (normalized here with log_softmax) and sequence_lengths (batch,).
std::pair<Tensor, Tensor> ctc_beam_search_decode(const Tensor& inputs,
                                                 const Tensor& sequence_lengths,
                                                 int64_t beam_width, int64_t top_paths,
                                                 int64_t mask_index);

}  // namespace keras::ops::detail

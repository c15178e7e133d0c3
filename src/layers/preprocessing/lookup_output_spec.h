#pragma once
// The output of a lookup layer on a symbolic (data-free) tensor: the shape and dtype Keras's
// compute_output_spec gives, made with ops on the input so the symbolic backend tracks it.

#include <string>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// int64 of the input's shape for "int"; (..., depth) int64 for one_hot, (batch, depth) or
/// (depth,) for multi_hot and count, float32 for tf_idf.
Tensor lookup_output_spec(const Tensor& inputs, const std::string& output_mode, int64_t depth);

}  // namespace keras::layers::detail

#pragma once
// Keras's numerical_utils.encode_categorical_inputs, as the TensorFlow-run preprocessing
// layers (Hashing, HashedCrossing) call it: bucket indices in [0, depth) to the layer's
// output.

#include <string>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// "int": `indices` cast to `dtype`. Otherwise a scalar is first one sample (shape (1,)), then
/// "one_hot" drops a last axis of extent 1 (rank > 1) and adds a last axis of `depth`;
/// "multi_hot" and "count" turn the last axis (the sample) into `depth` entries, reducing
/// over axis 1 for inputs of rank > 1 (axis 0 otherwise), as Keras does for every rank.
Tensor encode_categorical(const Tensor& indices, const std::string& output_mode, int64_t depth,
                          DType dtype);

}  // namespace keras::layers::detail

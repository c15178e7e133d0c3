#pragma once
// The per-sample functions behind Keras's accuracy metrics (keras.metrics.*_accuracy) and the
// cosine similarity metric: 1.0 where a sample is right, 0.0 where not, in floatx.

#include <cstdint>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

Tensor accuracy(const Tensor& y_true, const Tensor& y_pred);
Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, double threshold = 0.5);
Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);
Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);
Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k = 5);
Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k = 5,
                                         bool from_sorted_ids = false);
/// sum(l2_normalize(y_true) * l2_normalize(y_pred)) along axis (the loss is its negative).
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis = -1);

}  // namespace keras::metrics

#pragma GCC visibility pop

#pragma once
// The per-sample functions behind Keras's accuracy metrics (keras.metrics.*_accuracy) and the
// cosine similarity metric: 1.0 where a sample is right, 0.0 where not, in floatx.

#include <cstdint>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// 1.0 where y_true equals y_pred elementwise (Keras's keras.metrics.accuracy).
Tensor accuracy(const Tensor& y_true, const Tensor& y_pred);
/// 1.0 where y_true equals (y_pred > threshold) elementwise (Keras's binary_accuracy).
Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, double threshold = 0.5);
/// 1.0 where argmax(y_true) equals argmax(y_pred) along the last axis (one-hot labels).
Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);
/// 1.0 where the integer label y_true equals argmax(y_pred) along the last axis.
Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);
/// 1.0 where argmax(y_true) is among y_pred's `k` largest entries along the last axis.
Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k = 5);
/// 1.0 where the integer label y_true is among y_pred's top `k` classes.
/// With `from_sorted_ids`, y_pred holds class ids sorted by decreasing score, and the first `k` are
/// checked (Keras's argument).
Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k = 5,
                                         bool from_sorted_ids = false);
/// sum(l2_normalize(y_true) * l2_normalize(y_pred)) along axis (the loss is its negative).
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis = -1);

}  // namespace keras::metrics

#pragma GCC visibility pop

// The accuracy functions as keras/src/metrics/accuracy_metrics.py, shape rules included.

#include "keras/metrics/metric_functions.h"

#include "keras/core/config.h"
#include "keras/losses/loss.h"
#include "keras/ops/ops.h"

namespace keras::metrics {
namespace {

Tensor as_float(const Tensor& matches) {
  return ops::cast(matches, config::floatx());
}

}  // namespace

Tensor accuracy(const Tensor& y_true, const Tensor& y_pred) {
  auto [t, p] = losses::squeeze_or_expand_to_same_rank(ops::cast(y_true, y_pred.dtype()), y_pred);
  return as_float(ops::equal(t, p));
}

Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, double threshold) {
  auto [t, p] = losses::squeeze_or_expand_to_same_rank(y_true, y_pred);
  Tensor predicted = ops::cast(ops::greater(p, threshold), t.dtype());
  return as_float(ops::equal(t, predicted));
}

Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = ops::argmax(y_true, -1);
  Shape original = t.shape();
  bool reshape_matches = false;
  if (t.ndim() == y_pred.ndim()) {
    t = ops::squeeze(t, -1);
    reshape_matches = true;
  }
  Tensor p = ops::argmax(y_pred, -1);
  if (p.dtype() != t.dtype()) p = ops::cast(p, t.dtype());
  Tensor matches = as_float(ops::equal(t, p));
  return reshape_matches ? ops::reshape(matches, original) : matches;
}

Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = ops::cast(y_true, y_pred.dtype());
  Shape original = t.shape();
  bool reshape_matches = false;
  if (t.ndim() == y_pred.ndim() && t.ndim() > 0 && t.shape().back() == 1) {
    t = ops::squeeze(t, -1);
    reshape_matches = true;
  }
  Tensor p = ops::cast(ops::argmax(y_pred, -1), t.dtype());
  Tensor matches = as_float(ops::equal(t, p));
  if (reshape_matches) matches = ops::reshape(matches, original);
  if (matches.ndim() > 1 && matches.shape().back() == 1) matches = ops::squeeze(matches, -1);
  return matches;
}

namespace {

// Both top-k accuracies flatten leading axes, then restore y_true's shape.
Tensor top_k_matches(Tensor labels, Tensor y_pred, int64_t k, bool from_sorted_ids) {
  Shape original = labels.shape();
  bool reshape_matches = false;
  if (y_pred.ndim() > 2) y_pred = ops::reshape(y_pred, {-1, y_pred.shape().back()});
  if (labels.ndim() > 1) {
    reshape_matches = true;
    labels = ops::reshape(labels, {-1});
  }
  Tensor matches;
  if (from_sorted_ids) {
    Tensor first_k = y_pred.slice({{}, {0, k}});
    matches =
        ops::any(ops::equal(ops::expand_dims(ops::cast(labels, y_pred.dtype()), 1), first_k), 1);
  } else {
    matches = ops::in_top_k(ops::cast(labels, DType::Int32), y_pred, k);
  }
  matches = as_float(matches);
  return reshape_matches ? ops::reshape(matches, original) : matches;
}

}  // namespace

Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k) {
  return top_k_matches(ops::argmax(y_true, -1), y_pred, k, false);
}

Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k,
                                         bool from_sorted_ids) {
  return top_k_matches(y_true, y_pred, k, from_sorted_ids);
}

Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis) {
  auto [t, p] = losses::squeeze_or_expand_to_same_rank(ops::cast(y_true, y_pred.dtype()), y_pred);
  return ops::sum(ops::normalize(t, axis) * ops::normalize(p, axis), axis);
}

}  // namespace keras::metrics

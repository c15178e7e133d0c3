// The loss functions of keras.losses (per-sample values), following keras/src/losses/losses.py
// formula by formula, epsilon placement included.

#include <cmath>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/losses/losses.h"
#include "keras/ops/ops.h"
#include "keras/tensor/keras_mask.h"

namespace keras::losses {
namespace {

// y_true converted to y_pred's dtype, then both brought to the same rank as Keras does.
std::pair<Tensor, Tensor> aligned(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true.dtype() == y_pred.dtype() ? y_true : ops::cast(y_true, y_pred.dtype());
  return squeeze_or_expand_to_same_rank(t, y_pred);
}

Tensor as_pred_dtype(const Tensor& y_true, const Tensor& y_pred) {
  return y_true.dtype() == y_pred.dtype() ? y_true : ops::cast(y_true, y_pred.dtype());
}

Tensor eps_like(const Tensor& x) {
  return ops::full({}, config::epsilon(), x.dtype());
}

// Keras's convert_binary_labels_to_hinge: labels that are all 0/1 become -1/1.
Tensor binary_labels_to_hinge(const Tensor& y_true) {
  Tensor is_binary = ops::all(ops::logical_or(ops::equal(y_true, 0.0), ops::equal(y_true, 1.0)));
  return ops::where(is_binary, y_true * 2.0 - 1.0, y_true);
}

int canonical_axis(int axis, int rank, const char* what) {
  int a = axis < 0 ? axis + rank : axis;
  check(a >= 0 && a < rank, what, ": axis ", axis, " is out of range for predictions of rank ",
        rank, ".");
  return a;
}

ops::Axes axes_or_all(const std::optional<std::vector<int>>& axis) {
  return axis ? ops::Axes(*axis) : ops::Axes();
}

}  // namespace

Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred) {
  auto [t, p] = aligned(y_true, y_pred);
  return ops::mean(ops::square(t - p), -1);
}

Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred) {
  auto [t, p] = aligned(y_true, y_pred);
  return ops::mean(ops::abs(t - p), -1);
}

Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred) {
  auto [t, p] = aligned(y_true, y_pred);
  Tensor diff = ops::abs((t - p) / ops::maximum(ops::abs(t), eps_like(p)));
  return ops::mean(diff, -1) * 100.0;
}

Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred) {
  auto [t, p] = aligned(y_true, y_pred);
  Tensor first = ops::log(ops::maximum(p, eps_like(p)) + 1.0);
  Tensor second = ops::log(ops::maximum(t, eps_like(p)) + 1.0);
  return ops::mean(ops::square(first - second), -1);
}

Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis) {
  auto [t, p] = aligned(y_true, y_pred);
  Tensor pn = ops::normalize(p, axis);
  Tensor tn = ops::normalize(t, axis);
  return -ops::sum(tn * pn, axis);
}

Tensor ctc(const Tensor& y_true, const Tensor& y_pred) {
  check(y_true.ndim() == 2, "CTC: y_true must be (batch_size, max_length) integer labels; got "
        "y_true.shape=", y_true.shape(), ".");
  check(y_pred.ndim() == 3, "CTC: y_pred must be (batch_size, max_length, num_classes) logits; "
        "got y_pred.shape=", y_pred.shape(), ".");
  // Every label position and every step counts (Keras's losses.ctc), blank 0.
  const int64_t batch = y_pred.shape()[0];
  Tensor label_length = ops::full({batch}, y_true.shape()[1], DType::Int32);
  Tensor input_length = ops::full({batch}, y_pred.shape()[1], DType::Int32);
  return ops::ctc_loss(y_true, y_pred, label_length, input_length, 0);
}

Tensor huber(const Tensor& y_true, const Tensor& y_pred, double delta) {
  auto [t, p] = aligned(y_true, y_pred);
  Tensor error = p - t;
  Tensor abs_error = ops::abs(error);
  Tensor d = ops::full({}, delta, p.dtype());
  Tensor quadratic = ops::square(error) * 0.5;
  Tensor linear = abs_error * d - ops::square(d) * 0.5;
  return ops::mean(ops::where(abs_error <= d, quadratic, linear), -1);
}

Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred) {
  auto [t, p] = aligned(y_true, y_pred);
  Tensor x = p - t;
  // log(cosh(x)) = x + softplus(-2x) - log(2), stable for large |x|.
  return ops::mean(x + ops::softplus(x * -2.0) - std::log(2.0), -1);
}

Tensor hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = binary_labels_to_hinge(as_pred_dtype(y_true, y_pred));
  return ops::mean(ops::maximum(1.0 - t * y_pred, 0.0), -1);
}

Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = binary_labels_to_hinge(as_pred_dtype(y_true, y_pred));
  return ops::mean(ops::square(ops::maximum(1.0 - t * y_pred, 0.0)), -1);
}

Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  Tensor pos = ops::sum(t * y_pred, -1);
  Tensor neg = ops::max((1.0 - t) * y_pred, -1);
  return ops::maximum(neg - pos + 1.0, 0.0);
}

Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred) {
  double eps = config::epsilon();
  Tensor t = ops::clip(as_pred_dtype(y_true, y_pred), eps, 1.0);
  Tensor p = ops::clip(y_pred, eps, 1.0);
  return ops::sum(t * ops::log(t / p), -1);
}

Tensor poisson(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  return ops::mean(y_pred - t * ops::log(y_pred + eps_like(y_pred)), -1);
}

Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                           double label_smoothing, int axis) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  if (label_smoothing != 0) t = t * (1.0 - label_smoothing) + 0.5 * label_smoothing;
  return ops::mean(ops::binary_crossentropy(t, y_pred, from_logits), axis);
}

Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                 bool apply_class_balancing, double alpha, double gamma,
                                 bool from_logits, double label_smoothing, int axis) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  if (label_smoothing != 0) t = t * (1.0 - label_smoothing) + 0.5 * label_smoothing;
  Tensor p = from_logits ? ops::sigmoid(y_pred) : y_pred;
  Tensor bce = ops::binary_crossentropy(t, p, false);
  Tensor p_t = t * p + (1.0 - t) * (1.0 - p);
  Tensor focal = ops::power(1.0 - p_t, gamma) * bce;
  if (apply_class_balancing) focal = (t * alpha + (1.0 - t) * (1.0 - alpha)) * focal;
  return ops::mean(focal, axis);
}

Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                                double label_smoothing, int axis) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  int a = canonical_axis(axis, y_pred.ndim(), "categorical_crossentropy");
  if (label_smoothing != 0) {
    double num_classes = static_cast<double>(y_pred.shape()[a]);
    t = t * (1.0 - label_smoothing) + label_smoothing / num_classes;
  }
  return ops::categorical_crossentropy(t, y_pred, from_logits, a);
}

Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred, double alpha,
                                      double gamma, bool from_logits, double label_smoothing,
                                      int axis) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  int a = canonical_axis(axis, y_pred.ndim(), "categorical_focal_crossentropy");
  if (label_smoothing != 0) {
    double num_classes = static_cast<double>(y_pred.shape()[a]);
    t = t * (1.0 - label_smoothing) + label_smoothing / num_classes;
  }
  Tensor p = from_logits ? ops::softmax(y_pred, a) : y_pred;
  // Renormalize so each sample's probabilities sum to 1, then clip, as Keras.
  Tensor output = p / ops::sum(p, a, true);
  double eps = config::epsilon();
  output = ops::clip(output, eps, 1.0 - eps);
  Tensor cce = -t * ops::log(output);
  Tensor weighting = ops::power(1.0 - output, gamma) * alpha;
  return ops::sum(weighting * cce, a);
}

Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                                       std::optional<int64_t> ignore_class, int axis) {
  Tensor t = y_true;
  int a = canonical_axis(axis, y_pred.ndim(), "sparse_categorical_crossentropy");
  if (t.ndim() == y_pred.ndim() && t.shape()[a] == 1) t = ops::squeeze(t, a);
  Tensor p = y_pred;
  Tensor valid;
  if (ignore_class) {
    valid = ops::not_equal(ops::cast(t, y_pred.dtype()), static_cast<double>(*ignore_class));
    t = ops::where(valid, t, ops::zeros({}, t.dtype()));
    p = ops::where(ops::expand_dims(valid, a), p, ops::zeros({}, p.dtype()));
  }
  Tensor res = ops::sparse_categorical_crossentropy(t, p, from_logits, a);
  if (ignore_class) {
    res = ops::where(valid, res, ops::zeros({}, res.dtype()));
    set_keras_mask(res, valid);
  }
  return res;
}

Tensor dice(const Tensor& y_true, const Tensor& y_pred,
            const std::optional<std::vector<int>>& axis) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  ops::Axes ax = axes_or_all(axis);
  Tensor intersection = ops::sum(t * y_pred, ax);
  Tensor d = (intersection * 2.0) / (ops::sum(t, ax) + ops::sum(y_pred, ax) + config::epsilon());
  return 1.0 - d;
}

Tensor tversky(const Tensor& y_true, const Tensor& y_pred, double alpha, double beta,
               const std::optional<std::vector<int>>& axis) {
  Tensor t = as_pred_dtype(y_true, y_pred);
  ops::Axes ax = axes_or_all(axis);
  // As Keras 3 computes it: its tversky() names y_true "inputs" and y_pred "targets", so alpha
  // weighs sum((1 - y_pred) * y_true) and beta sum(y_pred * (1 - y_true)).
  Tensor intersection = ops::sum(t * y_pred, ax);
  Tensor fp = ops::sum((1.0 - y_pred) * t, ax);
  Tensor fn = ops::sum(y_pred * (1.0 - t), ax);
  Tensor tv = intersection / (intersection + fp * alpha + fn * beta + config::epsilon());
  return 1.0 - tv;
}

Tensor circle(const Tensor& y_true, const Tensor& y_pred, const Tensor& ref_labels,
              const Tensor& ref_embeddings, bool remove_diagonal, double gamma, double margin) {
  check(y_pred.ndim() == 2, "circle: y_pred must be embeddings of shape (batch, dim); got ",
        y_pred.shape(), ".");
  Tensor labels = ops::cast(y_true, DType::Int32);
  Tensor ref_emb = ref_embeddings.defined() ? ref_embeddings : y_pred;
  Tensor ref_lab = ref_labels.defined() ? ops::cast(ref_labels, DType::Int32) : labels;
  Tensor distances = ops::maximum(1.0 - ops::matmul(y_pred, ops::transpose(ref_emb)), 0.0);
  // Keras's build_pos_neg_masks.
  Tensor q = ops::reshape(labels, {-1, 1});
  Tensor k = ops::reshape(ref_lab, {-1, 1});
  Tensor positive = ops::equal(q, ops::transpose(k));
  Tensor negative = ops::logical_not(positive);
  if (remove_diagonal)
    positive =
        ops::logical_and(positive, ops::logical_not(ops::eye(q.size(), k.size(), 0, DType::Bool)));
  Tensor pos_f = ops::cast(positive, distances.dtype());
  Tensor neg_f = ops::cast(negative, distances.dtype());
  Tensor pos_w = ops::maximum((distances + margin) * pos_f, 0.0);
  Tensor neg_w = ops::maximum(((1.0 + margin) - distances) * neg_f, 0.0);
  Tensor pos_wd = pos_w * (margin - distances) * (-gamma);
  Tensor neg_wd = neg_w * ((1.0 - margin) - distances) * gamma;
  Tensor minus_inf = ops::full({}, -INFINITY, distances.dtype());
  Tensor p_loss = ops::logsumexp(ops::where(positive, pos_wd, minus_inf), 1);
  Tensor n_loss = ops::logsumexp(ops::where(negative, neg_wd, minus_inf), 1);
  Tensor loss = ops::softplus(p_loss + n_loss);
  set_keras_mask(loss, loss > 0.0);
  return loss;
}

Tensor categorical_generalized_cross_entropy(const Tensor& y_true, const Tensor& y_pred, double q) {
  check(q > 0 && q < 1, "categorical_generalized_cross_entropy: q must be in (0, 1); got ", q, ".");
  Tensor one_hot =
      ops::cast(ops::one_hot(ops::cast(y_true, DType::Int32), y_pred.shape().back()), y_pred.dtype());
  Tensor p = ops::sum(y_pred * one_hot, -1);
  return (1.0 - ops::power(p, q)) / q;
}

Tensor mse(const Tensor& y_true, const Tensor& y_pred) {
  return mean_squared_error(y_true, y_pred);
}
Tensor mae(const Tensor& y_true, const Tensor& y_pred) {
  return mean_absolute_error(y_true, y_pred);
}
Tensor mape(const Tensor& y_true, const Tensor& y_pred) {
  return mean_absolute_percentage_error(y_true, y_pred);
}
Tensor msle(const Tensor& y_true, const Tensor& y_pred) {
  return mean_squared_logarithmic_error(y_true, y_pred);
}

}  // namespace keras::losses

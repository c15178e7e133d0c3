#pragma once
// keras.metrics IoU family (keras/src/metrics/iou_metrics.py): intersection-over-union from a
// running confusion matrix, variable "total_confusion_matrix" of shape
// (num_classes, num_classes), rows the true classes and columns the predicted ones.
//
//   keras::metrics::MeanIoU miou(3);
//   miou.update_state(labels, predicted_classes);   // integer class ids, any shape
//
// Deviation: Keras's default dtype is "int" (fractional sample weights are truncated); here
// the confusion matrix is kept in the metric's float dtype (floatx by default) and an integer
// dtype read from a Keras config is taken as floatx.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/metrics/metric.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// Options of IoU and MeanIoU (Keras's keyword arguments and defaults).
struct IoUOptions {
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;  // empty: the snake-case class name
  /// Keras's `dtype`: the dtype of the confusion matrix and result; unset (or an integer dtype from
  /// a config) for floatx.
  std::optional<DType> dtype;
  /// Keras's `ignore_class`: a true class whose samples are left out of the matrix; unset for none.
  std::optional<int64_t> ignore_class;  // a true class left out of the matrix
  /// Keras's `sparse_y_true`: whether y_true holds class ids; false: it holds scores, argmax over
  /// `axis` first.
  bool sparse_y_true = true;            // false: argmax over `axis` first
  /// Keras's `sparse_y_pred`: whether y_pred holds class ids; false: it holds scores, argmax over
  /// `axis` first.
  bool sparse_y_pred = true;
  /// Keras's `axis`: the class axis of one-hot or score inputs.
  int axis = -1;
};

/// Options of OneHotIoU and OneHotMeanIoU (one-hot y_true).
struct OneHotIoUOptions {
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;
  /// Keras's `dtype`: the dtype of the confusion matrix and result; unset (or an integer dtype from
  /// a config) for floatx.
  std::optional<DType> dtype;
  /// Keras's `ignore_class`: a true class whose samples are left out of the matrix; unset for none.
  std::optional<int64_t> ignore_class;
  /// Keras's `sparse_y_pred`: whether y_pred holds class ids; false (the default): it holds scores,
  /// argmax over `axis` first.
  bool sparse_y_pred = false;
  /// Keras's `axis`: the class axis of y_true (and of y_pred unless sparse).
  int axis = -1;
};

/// Options of BinaryIoU.
struct BinaryIoUOptions {
  /// Keras's `target_class_ids`: the classes averaged, 0 (negatives), 1 (positives) or both.
  std::vector<int64_t> target_class_ids = {0, 1};
  /// Keras's `threshold`: y_pred >= threshold is class 1, the rest class 0.
  double threshold = 0.5;  // y_pred >= threshold is class 1
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;
  /// Keras's `dtype`: the dtype of the confusion matrix and result; unset (or an integer dtype from
  /// a config) for floatx.
  std::optional<DType> dtype;
};

/// Mean IoU over `target_class_ids`: tp / (tp + fp + fn) per class, classes with an empty
/// denominator left out.
class IoU : public Metric {
 public:
  /// The mean IoU of `target_class_ids` among `num_classes` classes.
  /// ValueError when num_classes < 1 or a target id is outside [0, num_classes), or none is given.
  IoU(int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "IoU"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
  /// The number of classes (Keras's `num_classes`): the confusion matrix is num_classes x
  /// num_classes.
  int64_t num_classes() const { return num_classes_; }

 protected:
  /// Which metric of the family this is (it decides the inputs' encoding and the config).
  enum class Kind { IoU, Binary, Mean, OneHot, OneHotMean };
  /// For the subclasses: `threshold` is BinaryIoU's; the checks are those of the public
  /// constructor.
  IoU(Kind kind, int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options,
      std::optional<double> threshold);
  /// The IoUOptions fields read from a Keras config (missing keys keep their defaults).
  static IoUOptions read_options(const Config& config);

 private:
  Kind kind_;
  int64_t num_classes_;
  std::vector<int64_t> target_class_ids_;
  IoUOptions options_;
  std::optional<double> threshold_;
  Variable total_cm_;
};

/// IoU averaged over every class.
class MeanIoU final : public IoU {
 public:
  /// A MeanIoU over `num_classes` classes; ValueError when num_classes < 1.
  explicit MeanIoU(int64_t num_classes, IoUOptions options = {});
  std::string class_name() const override { return "MeanIoU"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

/// IoU of binary predictions thresholded at `threshold`.
class BinaryIoU final : public IoU {
 public:
  /// A BinaryIoU metric; ValueError when `target_class_ids` is empty or holds an id other than 0
  /// or 1.
  explicit BinaryIoU(BinaryIoUOptions options = {});
  std::string class_name() const override { return "BinaryIoU"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

/// IoU with one-hot y_true (and, unless sparse_y_pred, class scores y_pred).
class OneHotIoU final : public IoU {
 public:
  /// The mean IoU of `target_class_ids` among `num_classes` classes, from one-hot y_true.
  /// ValueError when num_classes < 1 or a target id is outside [0, num_classes), or none is given.
  OneHotIoU(int64_t num_classes, std::vector<int64_t> target_class_ids,
            OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotIoU"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

/// MeanIoU with one-hot y_true.
class OneHotMeanIoU final : public IoU {
 public:
  /// A OneHotMeanIoU over `num_classes` classes; ValueError when num_classes < 1.
  explicit OneHotMeanIoU(int64_t num_classes, OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotMeanIoU"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

}  // namespace keras::metrics

#pragma GCC visibility pop

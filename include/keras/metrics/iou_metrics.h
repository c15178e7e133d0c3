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
  std::string name;  // empty: the snake-case class name
  std::optional<DType> dtype;
  std::optional<int64_t> ignore_class;  // a true class left out of the matrix
  bool sparse_y_true = true;            // false: argmax over `axis` first
  bool sparse_y_pred = true;
  int axis = -1;
};

/// Options of OneHotIoU and OneHotMeanIoU (one-hot y_true).
struct OneHotIoUOptions {
  std::string name;
  std::optional<DType> dtype;
  std::optional<int64_t> ignore_class;
  bool sparse_y_pred = false;
  int axis = -1;
};

/// Options of BinaryIoU.
struct BinaryIoUOptions {
  std::vector<int64_t> target_class_ids = {0, 1};
  double threshold = 0.5;  // y_pred >= threshold is class 1
  std::string name;
  std::optional<DType> dtype;
};

/// Mean IoU over `target_class_ids`: tp / (tp + fp + fn) per class, classes with an empty
/// denominator left out.
class IoU : public Metric {
 public:
  IoU(int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "IoU"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);
  int64_t num_classes() const { return num_classes_; }

 protected:
  enum class Kind { IoU, Binary, Mean, OneHot, OneHotMean };
  IoU(Kind kind, int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options,
      std::optional<double> threshold);
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
  explicit MeanIoU(int64_t num_classes, IoUOptions options = {});
  std::string class_name() const override { return "MeanIoU"; }
  static MetricPtr from_config(const Config& config);
};

/// IoU of binary predictions thresholded at `threshold`.
class BinaryIoU final : public IoU {
 public:
  explicit BinaryIoU(BinaryIoUOptions options = {});
  std::string class_name() const override { return "BinaryIoU"; }
  static MetricPtr from_config(const Config& config);
};

/// IoU with one-hot y_true (and, unless sparse_y_pred, class scores y_pred).
class OneHotIoU final : public IoU {
 public:
  OneHotIoU(int64_t num_classes, std::vector<int64_t> target_class_ids,
            OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotIoU"; }
  static MetricPtr from_config(const Config& config);
};

/// MeanIoU with one-hot y_true.
class OneHotMeanIoU final : public IoU {
 public:
  explicit OneHotMeanIoU(int64_t num_classes, OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotMeanIoU"; }
  static MetricPtr from_config(const Config& config);
};

}  // namespace keras::metrics

#pragma GCC visibility pop

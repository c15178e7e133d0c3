#pragma once
// CompileLoss: compile's loss argument resolved against the model's outputs (Keras's
// compile_utils.CompileLoss): one loss per output, weights, and a Mean tracker per output
// when there are several.

#include <memory>
#include <string>
#include <vector>

#include "keras/metrics/reduction_metrics.h"
#include "keras/trainers/options.h"

namespace keras::trainers {

class CompileLoss {
 public:
  CompileLoss(LossSpec loss, LossWeights loss_weights);

  /// The weighted total loss of a batch; builds on first use. Undefined when no output has a
  /// loss.
  Tensor operator()(const TensorStruct& y_true, const TensorList& y_pred,
                    const std::vector<std::string>& output_names,
                    const TensorStruct& sample_weight);
  /// The per-output trackers ("<output>_loss"), only when several outputs have losses.
  std::vector<std::shared_ptr<metrics::Mean>> metrics() const { return trackers_; }
  const LossSpec& spec() const { return spec_; }
  const LossWeights& weights() const { return weights_; }

 private:
  void build(const TensorStruct& y_true, const TensorList& y_pred,
             const std::vector<std::string>& output_names);

  struct Entry {
    size_t output;
    losses::LossPtr loss;
    double weight;
  };
  LossSpec spec_;
  LossWeights weights_;
  bool built_ = false;
  std::vector<Entry> entries_;
  std::vector<std::shared_ptr<metrics::Mean>> trackers_;
};

/// y_true as one tensor per output, in output order (a single tensor, a list, or a map keyed
/// by output name).
TensorList align_targets(const TensorStruct& y, size_t num_outputs,
                         const std::vector<std::string>& output_names, const char* what);

/// Keras's choice for "crossentropy"/"ce" and "accuracy"/"acc": binary when y_pred has one
/// column, sparse when y_true has one axis less or a last axis of 1, else categorical.
struct LabelKind {
  bool binary = false;
  bool sparse_categorical = false;
};
LabelKind label_kind(const Tensor& y_true, const Tensor& y_pred);

}  // namespace keras::trainers

#pragma once
// CompileMetrics: compile's metrics and weighted_metrics resolved against the outputs (Keras's
// compile_utils.CompileMetrics), with Keras's result names ("accuracy", "out_a_accuracy",
// "weighted_accuracy", ...).

#include <string>
#include <vector>

#include "keras/callbacks/callback.h"
#include "keras/trainers/options.h"

namespace keras::trainers {

class CompileMetrics {
 public:
  CompileMetrics(MetricsSpec metrics, MetricsSpec weighted_metrics);

  void update_state(const TensorStruct& y_true, const TensorList& y_pred,
                    const std::vector<std::string>& output_names,
                    const TensorStruct& sample_weight);
  void reset_state();
  /// Results by Keras's names.
  void add_results(Logs& logs) const;
  /// Every metric object (empty before the first update).
  std::vector<metrics::MetricPtr> metrics() const;
  bool built() const { return built_; }
  const MetricsSpec& spec() const { return spec_; }
  const MetricsSpec& weighted_spec() const { return weighted_spec_; }

 private:
  struct Group {
    std::string output_name;  // empty for single-output models
    size_t output;
    bool weighted;
    std::vector<metrics::MetricPtr> metrics;
  };
  void build(const TensorStruct& y_true, const TensorList& y_pred,
             const std::vector<std::string>& output_names);
  void build_set(const MetricsSpec& spec, bool weighted, const TensorList& targets,
                 const TensorList& y_pred, const std::vector<std::string>& output_names);

  MetricsSpec spec_, weighted_spec_;
  bool built_ = false;
  std::vector<Group> groups_;
};

}  // namespace keras::trainers

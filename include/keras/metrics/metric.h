#pragma once
// keras.metrics.Metric: a stateful quantity accumulated over batches (update_state), read
// (result) and cleared (reset_state), with Keras 3's stateless variants for custom loops.
//
//   class CountPositives : public keras::metrics::Metric {
//    public:
//     CountPositives() : Metric("count_positives") { count_ = add_variable({}, "count"); }
//     void update_state(const keras::Tensor&, const keras::Tensor& y_pred,
//                       const keras::Tensor&) override {
//       count_.assign_add(keras::ops::sum(keras::ops::cast(y_pred > 0.0, dtype())));
//     }
//     keras::Tensor result() const override { return count_.value(); }
//     std::string class_name() const override { return "CountPositives"; }
//    private:
//     keras::Variable count_;
//   };

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/autograd/variable.h"
#include "keras/core/dtype.h"
#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// Base of all metrics. A metric owns variables, so it is shared by pointer, not copied.
class Metric {
 public:
  /// `name` empty: a unique name from the class name, as Keras's auto_name.
  explicit Metric(std::string name, std::optional<DType> dtype = std::nullopt);
  virtual ~Metric() = default;
  Metric(const Metric&) = delete;
  Metric& operator=(const Metric&) = delete;

  /// Accumulates one batch.
  virtual void update_state(const Tensor& y_true, const Tensor& y_pred,
                            const Tensor& sample_weight) = 0;
  /// Accumulates one batch with every sample weighted 1.
  void update_state(const Tensor& y_true, const Tensor& y_pred) {
    update_state(y_true, y_pred, Tensor());
  }
  /// The current value.
  virtual Tensor result() const = 0;
  /// Sets every variable to zero (override when another start value is needed).
  virtual void reset_state();
  /// update_state then result (Keras's __call__).
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = Tensor());

  /// This metric's variables then its sub-metrics', in creation order.
  std::vector<Variable> variables() const;

  /// Keras 3's stateless API: the same computations on given variable values, returning the
  /// new values; the metric's own variables are left unchanged.
  std::vector<Tensor> stateless_update_state(const std::vector<Tensor>& metric_variables,
                                             const Tensor& y_true, const Tensor& y_pred,
                                             const Tensor& sample_weight = Tensor());
  /// result() computed from the given variable values (in variables() order), as Keras's
  /// stateless_result.
  Tensor stateless_result(const std::vector<Tensor>& metric_variables);
  /// The values the variables hold after reset_state(), leaving the metric's own variables
  /// unchanged.
  std::vector<Tensor> stateless_reset_state();

  /// The registered class name, as Keras writes it in configs ("Mean", "AUC").
  virtual std::string class_name() const = 0;
  /// {"name", "dtype"} plus the subclass's arguments.
  virtual Config get_config() const;

  /// The metric's name, shown in logs and history; set on first use from the class name when empty.
  const std::string& name() const;
  /// Renames the metric (compile names metrics by the identifier the user gave).
  void set_name(std::string name) { name_ = std::move(name); }
  /// The dtype of the metric's variables and result (floatx by default; a float dtype).
  DType dtype() const { return dtype_; }
  /// "up" when larger is better (accuracies), "down" for errors, "" when unknown; callbacks
  /// with mode "auto" read it.
  const std::string& direction() const { return direction_; }

 protected:
  /// Creates a non-trainable state variable, zero-initialized (Keras's add_variable).
  Variable add_variable(const Shape& shape, const std::string& name,
                        std::optional<DType> dtype = std::nullopt);
  /// Makes `metric`'s variables part of this one's (Keras tracks sub-metrics).
  void track_metric(std::shared_ptr<Metric> metric);
  /// Sets direction(): "up", "down" or "".
  void set_direction(std::string direction) { direction_ = std::move(direction); }

  /// Runs `body` with the variables temporarily holding `values`; returns their values after.
  std::vector<Tensor> with_values(const std::vector<Tensor>& values,
                                  const std::function<void()>& body);

 private:
  mutable std::string name_;
  DType dtype_;
  std::string direction_;
  std::vector<Variable> variables_;
  std::vector<std::shared_ptr<Metric>> submetrics_;
};

/// A shared metric: compile, the model and the caller hold one state.
using MetricPtr = std::shared_ptr<Metric>;

}  // namespace keras::metrics

#pragma GCC visibility pop

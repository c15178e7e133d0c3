#pragma once
// keras.optimizers.schedules: learning rates as functions of the optimizer's step, with
// Keras's arguments, defaults, formulas (computed in float32, as Keras does) and configs.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::optimizers::schedules {

/// Base of the schedules (keras.optimizers.schedules.LearningRateSchedule).
class LearningRateSchedule {
 public:
  virtual ~LearningRateSchedule() = default;
  /// The float32 learning rate at `step` (any shape; elementwise).
  virtual Tensor operator()(const Tensor& step) const = 0;
  /// The Keras class name ("ExponentialDecay", ...), written to configs.
  virtual std::string class_name() const = 0;
  /// The constructor arguments as Keras's get_config gives them (including `name`).
  virtual Config get_config() const = 0;
};

/// Shared, immutable handle to a schedule (an optimizer's `learning_rate`).
using SchedulePtr = std::shared_ptr<const LearningRateSchedule>;

/// initial_learning_rate * decay_rate ^ (step / decay_steps) (the exponent floored when
/// staircase).
class ExponentialDecay final : public LearningRateSchedule {
 public:
  /// Keras's ExponentialDecay: `decay_rate` is applied once per `decay_steps` steps; `staircase`
  /// decays in whole steps.
  /// ValueError unless `decay_steps` > 0.
  ExponentialDecay(double initial_learning_rate, double decay_steps, double decay_rate,
                   bool staircase = false, std::string name = "ExponentialDecay");
  Tensor operator()(const Tensor& step) const override;
  std::string class_name() const override { return "ExponentialDecay"; }
  Config get_config() const override;

 private:
  double initial_learning_rate_, decay_steps_, decay_rate_;
  bool staircase_;
  std::string name_;
};

/// values[0] while step <= boundaries[0], values[i] for boundaries[i-1] < step <= boundaries[i],
/// values.back() after the last boundary.
class PiecewiseConstantDecay final : public LearningRateSchedule {
 public:
  /// Keras's PiecewiseConstantDecay: `values` has one more entry than `boundaries` (ValueError
  /// otherwise, or when `boundaries` is empty).
  PiecewiseConstantDecay(std::vector<double> boundaries, std::vector<double> values,
                         std::string name = "PiecewiseConstant");
  Tensor operator()(const Tensor& step) const override;
  std::string class_name() const override { return "PiecewiseConstantDecay"; }
  Config get_config() const override;

 private:
  std::vector<double> boundaries_, values_;
  std::string name_;
};

/// (initial - end) * (1 - step / decay_steps) ^ power + end; with cycle, decay_steps grows to
/// the next multiple of itself past step.
class PolynomialDecay final : public LearningRateSchedule {
 public:
  /// Keras's PolynomialDecay: from `initial_learning_rate` to `end_learning_rate` over
  /// `decay_steps` along a polynomial of `power` (1: linear); `cycle` restarts it past
  /// `decay_steps`.
  /// ValueError unless `decay_steps` > 0.
  PolynomialDecay(double initial_learning_rate, double decay_steps,
                  double end_learning_rate = 0.0001, double power = 1.0, bool cycle = false,
                  std::string name = "PolynomialDecay");
  Tensor operator()(const Tensor& step) const override;
  std::string class_name() const override { return "PolynomialDecay"; }
  Config get_config() const override;

 private:
  double initial_learning_rate_, decay_steps_, end_learning_rate_, power_;
  bool cycle_;
  std::string name_;
};

/// initial_learning_rate / (1 + decay_rate * step / decay_steps) (floored when staircase).
class InverseTimeDecay final : public LearningRateSchedule {
 public:
  /// Keras's InverseTimeDecay: `decay_rate` sets how fast the rate falls per `decay_steps` steps;
  /// `staircase` decays in whole steps.
  /// ValueError unless `decay_steps` > 0.
  InverseTimeDecay(double initial_learning_rate, double decay_steps, double decay_rate,
                   bool staircase = false, std::string name = "InverseTimeDecay");
  Tensor operator()(const Tensor& step) const override;
  std::string class_name() const override { return "InverseTimeDecay"; }
  Config get_config() const override;

 private:
  double initial_learning_rate_, decay_steps_, decay_rate_;
  bool staircase_;
  std::string name_;
};

/// Cosine decay from initial_learning_rate (or, with warmup_target, a linear warmup to it over
/// warmup_steps first) down to alpha times it over decay_steps.
class CosineDecay final : public LearningRateSchedule {
 public:
  /// Keras's CosineDecay: `alpha` is the final rate as a fraction of the peak rate; with
  /// `warmup_target`, the rate first rises linearly from `initial_learning_rate` to it over
  /// `warmup_steps`, and the decay starts from `warmup_target`.
  /// ValueError unless `decay_steps` > 0 and `warmup_steps` >= 0.
  CosineDecay(double initial_learning_rate, double decay_steps, double alpha = 0.0,
              std::string name = "CosineDecay", std::optional<double> warmup_target = {},
              double warmup_steps = 0);
  Tensor operator()(const Tensor& step) const override;
  std::string class_name() const override { return "CosineDecay"; }
  Config get_config() const override;

 private:
  double initial_learning_rate_, decay_steps_, alpha_;
  std::string name_;
  std::optional<double> warmup_target_;
  double warmup_steps_;
};

/// Cosine decay with warm restarts (SGDR): periods first_decay_steps * t_mul^i, peaks
/// initial_learning_rate * m_mul^i.
class CosineDecayRestarts final : public LearningRateSchedule {
 public:
  /// Keras's CosineDecayRestarts: `t_mul` stretches and `m_mul` scales each period relative to the
  /// one before; `alpha` is the floor as a fraction of each peak.
  /// ValueError unless `first_decay_steps` > 0.
  CosineDecayRestarts(double initial_learning_rate, double first_decay_steps, double t_mul = 2.0,
                      double m_mul = 1.0, double alpha = 0.0, std::string name = "SGDRDecay");
  Tensor operator()(const Tensor& step) const override;
  std::string class_name() const override { return "CosineDecayRestarts"; }
  Config get_config() const override;

 private:
  double initial_learning_rate_, first_decay_steps_, t_mul_, m_mul_, alpha_;
  std::string name_;
};

/// serialize_keras_object: {module, class_name, config, registered_name}.
Config serialize(const SchedulePtr& schedule);
/// The schedule a serialized record (or {class_name, config}) describes.
SchedulePtr deserialize(const Config& config);

}  // namespace keras::optimizers::schedules

#pragma GCC visibility pop

#pragma once
// keras.callbacks.MonitorCallback: the base of callbacks that watch one metric (EarlyStopping,
// ReduceLROnPlateau, ModelCheckpoint): which direction is better ("min", "max", or "auto":
// less for losses, else the metric's direction), and min_delta.

#include <optional>
#include <string>

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Base of callbacks that watch one metric for improvement (Keras's MonitorCallback).
class MonitorCallback : public Callback {
 public:
  /// An unknown `mode` warns and falls back to "auto", as Keras. `class_name` names the
  /// callback in warnings and errors.
  MonitorCallback(std::string monitor, std::string mode, std::optional<double> baseline,
                  double min_delta, std::string class_name = "MonitorCallback");

  /// The name of the metric watched in the epoch logs (Keras's `monitor`, e.g. "val_loss").
  const std::string& monitor() const { return monitor_; }
  /// Which direction is better: "min", "max" or "auto" (Keras's `mode`).
  const std::string& mode() const { return mode_; }
  /// The best value seen (or the baseline), if any.
  std::optional<double> best() const { return best_; }

 protected:
  /// Decides the direction (Keras's _set_monitor_op); ValueError when "auto" cannot tell.
  void set_monitor_op();
  /// Whether set_monitor_op has decided the direction yet.
  bool monitor_op_set() const { return op_ != Op::None; }
  /// Whether `value` beats `reference` by more than min_delta (true when there is none).
  bool is_improvement(double value, std::optional<double> reference) const;
  /// True when smaller is better (after set_monitor_op).
  bool minimizing() const { return op_ == Op::Less; }

  /// The metric watched (Keras's `monitor`).
  std::string monitor_;
  /// "min", "max" or "auto"; an unknown mode was replaced by "auto" at construction.
  std::string mode_;
  /// The best value seen so far; starts at the baseline, if any.
  std::optional<double> best_;
  /// The least change that counts as an improvement (Keras's `min_delta`).
  /// Stored as its absolute value; set_monitor_op negates it when smaller is better.
  double min_delta_;

 private:
  enum class Op { None, Less, Greater };
  Op op_ = Op::None;
  std::string class_name_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

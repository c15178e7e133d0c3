#pragma once
// keras.callbacks.ReduceLROnPlateau: multiplies the learning rate by `factor` when the
// monitored metric has not improved for `patience` epochs.

#include <string>

#include "keras/callbacks/monitor_callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Arguments of keras.callbacks.ReduceLROnPlateau.
struct ReduceLROnPlateauOptions {
  /// The metric watched, by its name in the epoch logs.
  std::string monitor = "val_loss";
  /// new_lr = lr * factor; must be < 1.
  double factor = 0.1;
  /// Epochs without improvement after which the learning rate is reduced.
  int patience = 10;
  /// 0: silent; 1: print a message at every reduction.
  int verbose = 0;
  /// Which direction of `monitor` is better: "min", "max" or "auto" (from the metric's name).
  std::string mode = "auto";
  /// Changes smaller than this (in absolute value) are no improvement.
  double min_delta = 1e-4;
  /// Epochs to wait after a reduction before counting again.
  int cooldown = 0;
  /// The learning rate is never reduced below this.
  double min_lr = 0.0;
};

/// Reduces the learning rate when the monitored metric has stopped improving
/// (keras.callbacks.ReduceLROnPlateau).
/// Adds "learning_rate" to the epoch logs.
class ReduceLROnPlateau : public MonitorCallback {
 public:
  /// ValueError when factor >= 1.
  explicit ReduceLROnPlateau(ReduceLROnPlateauOptions options = {});

  void on_train_begin(const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;

  /// Whether the cooldown after a reduction is still running (no new reduction then).
  bool in_cooldown() const { return cooldown_counter_ > 0; }
  /// Epochs since the last improvement, not counting the cooldown.
  int wait() const { return wait_; }

 private:
  ReduceLROnPlateauOptions options_;
  int cooldown_counter_ = 0;
  int wait_ = 0;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

#pragma once
// keras.callbacks.ReduceLROnPlateau: multiplies the learning rate by `factor` when the
// monitored metric has not improved for `patience` epochs.

#include <string>

#include "keras/callbacks/monitor_callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

struct ReduceLROnPlateauOptions {
  std::string monitor = "val_loss";
  /// new_lr = lr * factor; must be < 1.
  double factor = 0.1;
  int patience = 10;
  int verbose = 0;
  std::string mode = "auto";
  double min_delta = 1e-4;
  /// Epochs to wait after a reduction before counting again.
  int cooldown = 0;
  double min_lr = 0.0;
};

class ReduceLROnPlateau : public MonitorCallback {
 public:
  /// ValueError when factor >= 1.
  explicit ReduceLROnPlateau(ReduceLROnPlateauOptions options = {});

  void on_train_begin(const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;

  bool in_cooldown() const { return cooldown_counter_ > 0; }
  int wait() const { return wait_; }

 private:
  ReduceLROnPlateauOptions options_;
  int cooldown_counter_ = 0;
  int wait_ = 0;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

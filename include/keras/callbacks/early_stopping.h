#pragma once
// keras.callbacks.EarlyStopping: stops fit when the monitored metric has stopped improving.
//
//   auto stop = std::make_shared<keras::callbacks::EarlyStopping>(
//       keras::callbacks::EarlyStoppingOptions{.monitor = "val_loss", .patience = 3,
//                                              .restore_best_weights = true});
//   model->fit(x, y, {.epochs = 100, .callbacks = {stop}, .validation_split = 0.2});

#include <optional>
#include <string>
#include <vector>

#include "keras/callbacks/monitor_callback.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Arguments of keras.callbacks.EarlyStopping.
struct EarlyStoppingOptions {
  /// The metric watched, by its name in the epoch logs.
  std::string monitor = "val_loss";
  /// Changes smaller than this (in absolute value) are no improvement.
  double min_delta = 0;
  /// Epochs without improvement after which training stops.
  int patience = 0;
  /// 0: silent; 1: print a message when the callback stops training or restores weights.
  int verbose = 0;
  /// "auto", "min" or "max".
  std::string mode = "auto";
  /// Training stops unless the metric beats this value within `patience` epochs.
  std::optional<double> baseline;
  /// At the end of training, put back the weights of the best epoch (when one was seen).
  bool restore_best_weights = false;
  /// Epochs to wait before watching the metric (warm-up).
  int start_from_epoch = 0;
};

/// Stops fit when the monitored metric has stopped improving (keras.callbacks.EarlyStopping).
class EarlyStopping : public MonitorCallback {
 public:
  /// An unknown `mode` warns and falls back to "auto", as Keras.
  explicit EarlyStopping(EarlyStoppingOptions options = {});

  void on_train_begin(const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;
  void on_train_end(const Logs& logs) override;

  /// The epoch (0-based) training was stopped at, 0 when it was not.
  int stopped_epoch() const { return stopped_epoch_; }
  /// The epoch (0-based) of the best value.
  int best_epoch() const { return best_epoch_; }
  /// Epochs since the last improvement.
  int wait() const { return wait_; }

 private:
  EarlyStoppingOptions options_;
  int wait_ = 0;
  int stopped_epoch_ = 0;
  int best_epoch_ = 0;
  std::optional<std::vector<Tensor>> best_weights_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

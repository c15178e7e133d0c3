#pragma once
// keras.callbacks.LearningRateScheduler: at the start of every epoch, sets the optimizer's
// learning rate to schedule(epoch, current_lr).
//
//   auto halve = std::make_shared<keras::callbacks::LearningRateScheduler>(
//       [](int epoch, double lr) { return epoch < 10 ? lr : lr * 0.5; });

#include <functional>

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Sets the optimizer's learning rate at the start of every epoch from a schedule
/// (keras.callbacks.LearningRateScheduler).
class LearningRateScheduler : public Callback {
 public:
  /// Maps the 0-based epoch and the current learning rate to the epoch's learning rate.
  using Schedule = std::function<double(int epoch, double learning_rate)>;
  /// `verbose` > 0 prints "Epoch N: LearningRateScheduler setting learning rate to lr."
  explicit LearningRateScheduler(Schedule schedule, int verbose = 0);

  void on_epoch_begin(int epoch, const Logs& logs) override;
  /// Adds "learning_rate" to the epoch's logs (so History records it), as Keras.
  void on_epoch_end(int epoch, const Logs& logs) override;

 private:
  Schedule schedule_;
  int verbose_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

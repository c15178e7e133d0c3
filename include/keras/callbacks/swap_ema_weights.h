#pragma once
// keras.callbacks.SwapEMAWeights: with an optimizer built with use_ema=true, evaluates (and
// predicts) with the exponential moving averages of the weights instead of the weights
// themselves, swapping them in at on_test_begin/on_predict_begin and back at the end.
// swap_on_epoch=true also holds the averages in the model between epochs (so ModelCheckpoint
// after it saves them), swapping the trained weights back at the next epoch's start.
//
//   model->compile({.optimizer = keras::optimizers::deserialize(
//                       {{"class_name", "SGD"}, {"config", {{"use_ema", true}}}}), ...});
//   model->fit(x, y, {.callbacks = {std::make_shared<keras::callbacks::SwapEMAWeights>()},
//                     .validation_split = 0.2});

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Evaluates and predicts with the optimizer's moving averages of the weights
/// (keras.callbacks.SwapEMAWeights).
class SwapEMAWeights : public Callback {
 public:
  /// `swap_on_epoch`: also hold the averages in the model from each epoch end to the next epoch's
  /// start, so that a ModelCheckpoint listed after it saves them.
  explicit SwapEMAWeights(bool swap_on_epoch = false) : swap_on_epoch_(swap_on_epoch) {}

  void on_epoch_begin(int epoch, const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;
  void on_test_begin(const Logs& logs) override;
  void on_test_end(const Logs& logs) override;
  void on_predict_begin(const Logs& logs) override;
  void on_predict_end(const Logs& logs) override;

  /// Whether the model currently holds the moving averages.
  bool ema_weights_in_model() const { return ema_weights_in_model_; }

 private:
  void swap_variables();
  void finalize_ema_values();

  bool swap_on_epoch_;
  bool ema_weights_in_model_ = false;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

#pragma once
// keras.callbacks.History: every epoch's logs, which fit returns.
//
//   auto history = model->fit(x, y, {.epochs = 5, .validation_split = 0.1});
//   history->history.at("val_loss").back();

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Records every epoch's logs; fit adds one and returns it (keras.callbacks.History).
class History : public Callback {
 public:
  /// Each metric's value after every epoch, by name ("loss", "accuracy", "val_loss", ...).
  std::map<std::string, std::vector<double>> history;
  /// The epoch numbers recorded (0-based, as Keras).
  std::vector<int> epoch;

  void on_train_begin(const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

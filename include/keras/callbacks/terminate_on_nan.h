#pragma once
// keras.callbacks.TerminateOnNaN: stops training (or raises) when a batch's loss is NaN or
// infinite.

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Stops training when a batch's loss is NaN or infinite (keras.callbacks.TerminateOnNaN).
class TerminateOnNaN : public Callback {
 public:
  /// `raise_error`: throw RuntimeError instead of stopping quietly after the batch.
  explicit TerminateOnNaN(bool raise_error = false) : raise_error_(raise_error) {}

  void on_train_batch_end(int64_t batch, const Logs& logs) override;

 private:
  bool raise_error_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

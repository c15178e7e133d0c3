#pragma once
// keras.callbacks.LambdaCallback: a callback made of functions.
//
//   auto print = std::make_shared<keras::callbacks::LambdaCallback>(
//       keras::callbacks::LambdaCallbackOptions{
//           .on_epoch_end = [](int epoch, const keras::Logs& logs) { ... }});

#include <functional>

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// The functions of a LambdaCallback, one per hook (Keras's LambdaCallback arguments).
/// An empty function skips that hook.
struct LambdaCallbackOptions {
  /// An epoch hook: the 0-based epoch and the logs.
  using EpochFn = std::function<void(int epoch, const Logs& logs)>;
  /// A batch hook: the 0-based batch index (within the epoch in fit) and the logs.
  using BatchFn = std::function<void(int64_t batch, const Logs& logs)>;
  /// A hook of a whole run (train, test or predict): the logs.
  using LogsFn = std::function<void(const Logs& logs)>;
  /// \var LambdaCallbackOptions::on_epoch_begin
  /// Called at the start of every epoch (Keras's `on_epoch_begin`).
  /// \var LambdaCallbackOptions::on_epoch_end
  /// Called at the end of every epoch, with its logs (Keras's `on_epoch_end`).
  EpochFn on_epoch_begin, on_epoch_end;
  /// \var LambdaCallbackOptions::on_train_begin
  /// Called at the start of fit (Keras's `on_train_begin`).
  /// \var LambdaCallbackOptions::on_train_end
  /// Called at the end of fit (Keras's `on_train_end`).
  LogsFn on_train_begin, on_train_end;
  /// \var LambdaCallbackOptions::on_train_batch_begin
  /// Called before every training batch (Keras's `on_train_batch_begin`).
  /// \var LambdaCallbackOptions::on_train_batch_end
  /// Called after every training batch, with its logs (Keras's `on_train_batch_end`).
  BatchFn on_train_batch_begin, on_train_batch_end;
  // Keras passes other hooks as **kwargs; here they are named.
  /// \var LambdaCallbackOptions::on_test_begin
  /// Called at the start of evaluate or of fit's validation.
  /// \var LambdaCallbackOptions::on_test_end
  /// Called at the end of evaluate or of fit's validation, with its results.
  /// \var LambdaCallbackOptions::on_predict_begin
  /// Called at the start of predict.
  /// \var LambdaCallbackOptions::on_predict_end
  /// Called at the end of predict.
  LogsFn on_test_begin, on_test_end, on_predict_begin, on_predict_end;
  /// \var LambdaCallbackOptions::on_test_batch_begin
  /// Called before every evaluation batch.
  /// \var LambdaCallbackOptions::on_test_batch_end
  /// Called after every evaluation batch, with its logs.
  /// \var LambdaCallbackOptions::on_predict_batch_begin
  /// Called before every predict batch.
  /// \var LambdaCallbackOptions::on_predict_batch_end
  /// Called after every predict batch.
  BatchFn on_test_batch_begin, on_test_batch_end, on_predict_batch_begin, on_predict_batch_end;
};

/// A callback made of functions (keras.callbacks.LambdaCallback).
class LambdaCallback : public Callback {
 public:
  /// Calls the functions set in `options` from the matching hooks.
  explicit LambdaCallback(LambdaCallbackOptions options) : f_(std::move(options)) {}

  void on_epoch_begin(int e, const Logs& l) override { if (f_.on_epoch_begin) f_.on_epoch_begin(e, l); }
  void on_epoch_end(int e, const Logs& l) override { if (f_.on_epoch_end) f_.on_epoch_end(e, l); }
  void on_train_begin(const Logs& l) override { if (f_.on_train_begin) f_.on_train_begin(l); }
  void on_train_end(const Logs& l) override { if (f_.on_train_end) f_.on_train_end(l); }
  void on_train_batch_begin(int64_t b, const Logs& l) override {
    if (f_.on_train_batch_begin) f_.on_train_batch_begin(b, l);
  }
  void on_train_batch_end(int64_t b, const Logs& l) override {
    if (f_.on_train_batch_end) f_.on_train_batch_end(b, l);
  }
  void on_test_begin(const Logs& l) override { if (f_.on_test_begin) f_.on_test_begin(l); }
  void on_test_end(const Logs& l) override { if (f_.on_test_end) f_.on_test_end(l); }
  void on_predict_begin(const Logs& l) override { if (f_.on_predict_begin) f_.on_predict_begin(l); }
  void on_predict_end(const Logs& l) override { if (f_.on_predict_end) f_.on_predict_end(l); }
  void on_test_batch_begin(int64_t b, const Logs& l) override {
    if (f_.on_test_batch_begin) f_.on_test_batch_begin(b, l);
  }
  void on_test_batch_end(int64_t b, const Logs& l) override {
    if (f_.on_test_batch_end) f_.on_test_batch_end(b, l);
  }
  void on_predict_batch_begin(int64_t b, const Logs& l) override {
    if (f_.on_predict_batch_begin) f_.on_predict_batch_begin(b, l);
  }
  void on_predict_batch_end(int64_t b, const Logs& l) override {
    if (f_.on_predict_batch_end) f_.on_predict_batch_end(b, l);
  }

 private:
  LambdaCallbackOptions f_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

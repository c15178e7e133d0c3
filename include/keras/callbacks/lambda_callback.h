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

struct LambdaCallbackOptions {
  using EpochFn = std::function<void(int epoch, const Logs& logs)>;
  using BatchFn = std::function<void(int64_t batch, const Logs& logs)>;
  using LogsFn = std::function<void(const Logs& logs)>;
  EpochFn on_epoch_begin, on_epoch_end;
  LogsFn on_train_begin, on_train_end;
  BatchFn on_train_batch_begin, on_train_batch_end;
  // Keras passes other hooks as **kwargs; here they are named.
  LogsFn on_test_begin, on_test_end, on_predict_begin, on_predict_end;
  BatchFn on_test_batch_begin, on_test_batch_end, on_predict_batch_begin, on_predict_batch_end;
};

class LambdaCallback : public Callback {
 public:
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

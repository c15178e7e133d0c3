#pragma once
// keras.callbacks.Callback: hooks fit/evaluate/predict call at the start and end of training,
// epochs and batches, with the logs of that moment (metric name -> value).
//
//   struct PrintLoss : keras::callbacks::Callback {
//     void on_epoch_end(int epoch, const keras::Logs& logs) override {
//       std::cout << epoch << ": " << logs.at("loss") << "\n";
//     }
//   };
//   model->fit(x, y, {.epochs = 3, .callbacks = {std::make_shared<PrintLoss>()}});

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace keras {

class Model;

/// Metric values by name, sorted by name as Keras's logs are.
using Logs = std::map<std::string, double>;

namespace callbacks {

/// What fit/evaluate/predict tell callbacks about the run (Keras's callback.params).
struct CallbackParams {
  int verbose = 0;
  int epochs = 1;
  /// Steps per epoch, when known.
  std::optional<int64_t> steps;
};

/// Base of all callbacks; override the hooks you need.
class Callback {
 public:
  virtual ~Callback() = default;

  virtual void set_params(const CallbackParams& params) { params_ = params; }
  virtual void set_model(Model* model) { model_ = model; }
  /// The model being trained (null outside fit/evaluate/predict).
  Model* model() const { return model_; }
  const CallbackParams& params() const { return params_; }

  virtual void on_train_begin(const Logs& /*logs*/) {}
  virtual void on_train_end(const Logs& /*logs*/) {}
  virtual void on_epoch_begin(int /*epoch*/, const Logs& /*logs*/) {}
  virtual void on_epoch_end(int /*epoch*/, const Logs& /*logs*/) {}
  virtual void on_train_batch_begin(int64_t /*batch*/, const Logs& /*logs*/) {}
  virtual void on_train_batch_end(int64_t /*batch*/, const Logs& /*logs*/) {}
  virtual void on_test_begin(const Logs& /*logs*/) {}
  virtual void on_test_end(const Logs& /*logs*/) {}
  virtual void on_test_batch_begin(int64_t /*batch*/, const Logs& /*logs*/) {}
  virtual void on_test_batch_end(int64_t /*batch*/, const Logs& /*logs*/) {}
  virtual void on_predict_begin(const Logs& /*logs*/) {}
  virtual void on_predict_end(const Logs& /*logs*/) {}
  virtual void on_predict_batch_begin(int64_t /*batch*/, const Logs& /*logs*/) {}
  virtual void on_predict_batch_end(int64_t /*batch*/, const Logs& /*logs*/) {}

 protected:
  /// Adds an entry to the epoch logs the callbacks after this one (and History) receive, as
  /// Keras's callbacks do to their shared logs dict (ReduceLROnPlateau and
  /// LearningRateScheduler add "learning_rate"). Only inside on_epoch_end called by a
  /// CallbackList; a no-op otherwise.
  void add_to_epoch_logs(const std::string& name, double value) {
    if (epoch_logs_ != nullptr) (*epoch_logs_)[name] = value;
  }

 private:
  friend class CallbackList;
  CallbackParams params_;
  Model* model_ = nullptr;
  Logs* epoch_logs_ = nullptr;
};

using CallbackPtr = std::shared_ptr<Callback>;

/// Runs a list of callbacks in order (Keras's CallbackList).
class CallbackList {
 public:
  explicit CallbackList(std::vector<CallbackPtr> callbacks = {});
  void append(CallbackPtr callback) { callbacks_.push_back(std::move(callback)); }
  const std::vector<CallbackPtr>& callbacks() const { return callbacks_; }
  void set_params(const CallbackParams& params);
  void set_model(Model* model);

  void on_train_begin(const Logs& logs = {});
  void on_train_end(const Logs& logs = {});
  void on_epoch_begin(int epoch, const Logs& logs = {});
  void on_epoch_end(int epoch, const Logs& logs = {});
  void on_train_batch_begin(int64_t batch, const Logs& logs = {});
  void on_train_batch_end(int64_t batch, const Logs& logs = {});
  void on_test_begin(const Logs& logs = {});
  void on_test_end(const Logs& logs = {});
  void on_test_batch_begin(int64_t batch, const Logs& logs = {});
  void on_test_batch_end(int64_t batch, const Logs& logs = {});
  void on_predict_begin(const Logs& logs = {});
  void on_predict_end(const Logs& logs = {});
  void on_predict_batch_begin(int64_t batch, const Logs& logs = {});
  void on_predict_batch_end(int64_t batch, const Logs& logs = {});

 private:
  std::vector<CallbackPtr> callbacks_;
};

}  // namespace callbacks
}  // namespace keras

#pragma GCC visibility pop

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
  /// Verbosity of the run: 0 silent, 1 progress bar, 2 one line per epoch.
  int verbose = 0;
  /// fit's `epochs`, the epoch count training runs up to (1 for evaluate and predict).
  int epochs = 1;
  /// Steps per epoch, when known.
  std::optional<int64_t> steps;
};

/// Base of all callbacks; override the hooks you need.
class Callback {
 public:
  virtual ~Callback() = default;

  /// Stores the run's parameters; fit/evaluate/predict call it before the first hook.
  virtual void set_params(const CallbackParams& params) { params_ = params; }
  /// Sets the model the callback acts on; fit/evaluate/predict call it before the first hook.
  virtual void set_model(Model* model) { model_ = model; }
  /// The model being trained (null outside fit/evaluate/predict).
  Model* model() const { return model_; }
  /// The run's parameters, as last set by set_params (Keras's `callback.params`).
  const CallbackParams& params() const { return params_; }

  /// Called once at the start of fit; `logs` is empty.
  virtual void on_train_begin(const Logs& /*logs*/) {}
  /// Called once at the end of fit, with the last epoch's logs.
  virtual void on_train_end(const Logs& /*logs*/) {}
  /// Called at the start of each training epoch (0-based `epoch`); `logs` is empty.
  virtual void on_epoch_begin(int /*epoch*/, const Logs& /*logs*/) {}
  /// Called at the end of each training epoch (0-based `epoch`).
  /// `logs` holds the epoch's metric results, and "val_"-prefixed validation results on epochs that
  /// validate.
  virtual void on_epoch_end(int /*epoch*/, const Logs& /*logs*/) {}
  /// Called before a training batch (`batch` counts from 0 within the epoch); `logs` is empty.
  /// With steps_per_execution > 1 it runs only at the first batch of each group.
  virtual void on_train_batch_begin(int64_t /*batch*/, const Logs& /*logs*/) {}
  /// Called after a training batch, with the epoch's running metric results in `logs`.
  /// With steps_per_execution > 1 it runs only at the last batch of each group.
  virtual void on_train_batch_end(int64_t /*batch*/, const Logs& /*logs*/) {}
  /// Called once at the start of evaluate (or fit's validation); `logs` is empty.
  virtual void on_test_begin(const Logs& /*logs*/) {}
  /// Called once at the end of evaluate (or fit's validation), with its metric results.
  virtual void on_test_end(const Logs& /*logs*/) {}
  /// Called before an evaluation batch (`batch` counts from 0); `logs` is empty.
  virtual void on_test_batch_begin(int64_t /*batch*/, const Logs& /*logs*/) {}
  /// Called after an evaluation batch, with the running metric results in `logs`.
  virtual void on_test_batch_end(int64_t /*batch*/, const Logs& /*logs*/) {}
  /// Called once at the start of predict; `logs` is empty.
  virtual void on_predict_begin(const Logs& /*logs*/) {}
  /// Called once at the end of predict; `logs` is empty.
  virtual void on_predict_end(const Logs& /*logs*/) {}
  /// Called before a predict batch (`batch` counts from 0); `logs` is empty.
  virtual void on_predict_batch_begin(int64_t /*batch*/, const Logs& /*logs*/) {}
  /// Called after a predict batch; `logs` is empty (Keras passes the batch's outputs there).
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

/// A shared reference to a callback, as fit/evaluate/predict's `callbacks` take them.
using CallbackPtr = std::shared_ptr<Callback>;

/// Runs a list of callbacks in order (Keras's CallbackList).
class CallbackList {
 public:
  /// Runs `callbacks` in the given order.
  explicit CallbackList(std::vector<CallbackPtr> callbacks = {});
  /// Adds `callback` at the end of the list.
  void append(CallbackPtr callback) { callbacks_.push_back(std::move(callback)); }
  /// The callbacks, in the order they run.
  const std::vector<CallbackPtr>& callbacks() const { return callbacks_; }
  /// Calls set_params on every callback.
  void set_params(const CallbackParams& params);
  /// Calls set_model on every callback.
  void set_model(Model* model);

  /// Calls on_train_begin on every callback, in order.
  void on_train_begin(const Logs& logs = {});
  /// Calls on_train_end on every callback, in order.
  void on_train_end(const Logs& logs = {});
  /// Calls on_epoch_begin on every callback, in order.
  void on_epoch_begin(int epoch, const Logs& logs = {});
  /// Calls on_epoch_end on every callback, in order, with one shared copy of `logs`.
  /// Entries a callback adds with add_to_epoch_logs reach the callbacks after it.
  void on_epoch_end(int epoch, const Logs& logs = {});
  /// Calls on_train_batch_begin on every callback, in order.
  void on_train_batch_begin(int64_t batch, const Logs& logs = {});
  /// Calls on_train_batch_end on every callback, in order.
  void on_train_batch_end(int64_t batch, const Logs& logs = {});
  /// Calls on_test_begin on every callback, in order.
  void on_test_begin(const Logs& logs = {});
  /// Calls on_test_end on every callback, in order.
  void on_test_end(const Logs& logs = {});
  /// Calls on_test_batch_begin on every callback, in order.
  void on_test_batch_begin(int64_t batch, const Logs& logs = {});
  /// Calls on_test_batch_end on every callback, in order.
  void on_test_batch_end(int64_t batch, const Logs& logs = {});
  /// Calls on_predict_begin on every callback, in order.
  void on_predict_begin(const Logs& logs = {});
  /// Calls on_predict_end on every callback, in order.
  void on_predict_end(const Logs& logs = {});
  /// Calls on_predict_batch_begin on every callback, in order.
  void on_predict_batch_begin(int64_t batch, const Logs& logs = {});
  /// Calls on_predict_batch_end on every callback, in order.
  void on_predict_batch_end(int64_t batch, const Logs& logs = {});

 private:
  std::vector<CallbackPtr> callbacks_;
};

}  // namespace callbacks
}  // namespace keras

#pragma GCC visibility pop

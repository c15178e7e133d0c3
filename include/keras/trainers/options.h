#pragma once
// The keyword arguments of Model::compile, fit, evaluate and predict, with Keras 3's names and
// defaults:
//
//   model->compile({.optimizer = "adam",
//                   .loss = "sparse_categorical_crossentropy",
//                   .metrics = {"accuracy"}});
//   auto history = model->fit(x, y, {.batch_size = 128, .epochs = 5, .validation_split = 0.1});
//   keras::Logs scores = model->evaluate(x_test, y_test);
//   keras::Tensor probs = model->predict(x_test).single();

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "keras/callbacks/callback.h"
#include "keras/losses/loss.h"
#include "keras/metrics/metrics.h"
#include "keras/optimizers/optimizer.h"
#include "keras/trainers/tensor_struct.h"

#pragma GCC visibility push(default)
namespace keras {

/// compile's `optimizer`: a Keras name ("adam", "sgd", ...), a shared optimizer (used as is,
/// so you can inspect it later), or an optimizer value (copied, unbuilt).
class OptimizerArg {
 public:
  /// The optimizer a Keras name gives, with default arguments; ValueError for an unknown name.
  OptimizerArg(const char* name) : ptr_(optimizers::get(name)) {}          // NOLINT
  /// The optimizer a Keras name gives, with default arguments; ValueError for an unknown name.
  OptimizerArg(const std::string& name) : ptr_(optimizers::get(name)) {}   // NOLINT
  /// A shared optimizer, used as is.
  template <typename T>
    requires std::is_base_of_v<optimizers::Optimizer, T>
  OptimizerArg(std::shared_ptr<T> optimizer) : ptr_(std::move(optimizer)) {}  // NOLINT
  /// A copy of an optimizer value, unbuilt.
  template <typename T>
    requires std::is_base_of_v<optimizers::Optimizer, T>
  OptimizerArg(const T& optimizer) : ptr_(optimizer.clone()) {}  // NOLINT
  /// The optimizer compile uses.
  const optimizers::OptimizerPtr& get() const { return ptr_; }

 private:
  optimizers::OptimizerPtr ptr_;
};

/// compile's `loss`: one loss for every output, one per output (a list in output order), or
/// one per output name (outputs left out get none).
class LossSpec {
 public:
  LossSpec() = default;
  /// One loss for every output.
  LossSpec(losses::LossArg loss) : single_(std::move(loss)) {}  // NOLINT
  /// One loss, by Keras name, for every output.
  LossSpec(const char* name) : single_(name) {}                 // NOLINT
  /// One loss, by Keras name, for every output.
  LossSpec(const std::string& name) : single_(name) {}          // NOLINT
  /// One loss (a loss object, shared loss or callable) for every output.
  template <typename T>
    requires std::is_constructible_v<losses::LossArg, T> &&
             (!std::is_convertible_v<T, std::string>)
  LossSpec(T loss) : single_(losses::LossArg(std::move(loss))) {}  // NOLINT
  /// One loss per output, in output order.
  LossSpec(std::vector<losses::LossArg> per_output) : list_(std::move(per_output)) {}  // NOLINT
  /// Losses by output name; outputs left out get none.
  LossSpec(std::map<std::string, losses::LossArg> by_name) : map_(std::move(by_name)) {}  // NOLINT

  /// Whether no loss was given (Keras's `loss=None`).
  bool empty() const { return !single_ && !list_ && !map_; }
  /// The loss for every output, when one was given.
  const std::optional<losses::LossArg>& single() const { return single_; }
  /// The losses per output, when a list was given.
  const std::optional<std::vector<losses::LossArg>>& list() const { return list_; }
  /// The losses by output name, when a map was given.
  const std::optional<std::map<std::string, losses::LossArg>>& map() const { return map_; }

 private:
  std::optional<losses::LossArg> single_;
  std::optional<std::vector<losses::LossArg>> list_;
  std::optional<std::map<std::string, losses::LossArg>> map_;
};

/// compile's `metrics` / `weighted_metrics`: a list for a single-output model (or applied to
/// the only output), a list of lists (one per output), or lists by output name.
class MetricsSpec {
 public:
  MetricsSpec() = default;
  /// Metrics for a single-output model, or applied to the only output.
  MetricsSpec(std::vector<metrics::MetricArg> metrics) : flat_(std::move(metrics)) {}  // NOLINT
  /// Metrics for a single-output model, or applied to the only output.
  MetricsSpec(std::initializer_list<metrics::MetricArg> metrics)  // NOLINT
      : flat_(std::vector<metrics::MetricArg>(metrics)) {}
  /// One list of metrics per output, in output order.
  MetricsSpec(std::vector<std::vector<metrics::MetricArg>> per_output)  // NOLINT
      : per_output_(std::move(per_output)) {}
  /// Lists of metrics by output name.
  MetricsSpec(std::map<std::string, std::vector<metrics::MetricArg>> by_name)  // NOLINT
      : by_name_(std::move(by_name)) {}

  /// Whether no metrics were given.
  bool empty() const { return !flat_ && !per_output_ && !by_name_; }
  /// The metrics of the single output, when a flat list was given.
  const std::optional<std::vector<metrics::MetricArg>>& flat() const { return flat_; }
  /// The metrics per output, when a list of lists was given.
  const std::optional<std::vector<std::vector<metrics::MetricArg>>>& per_output() const {
    return per_output_;
  }
  /// The metrics by output name, when a map was given.
  const std::optional<std::map<std::string, std::vector<metrics::MetricArg>>>& by_name() const {
    return by_name_;
  }

 private:
  std::optional<std::vector<metrics::MetricArg>> flat_;
  std::optional<std::vector<std::vector<metrics::MetricArg>>> per_output_;
  std::optional<std::map<std::string, std::vector<metrics::MetricArg>>> by_name_;
};

/// compile's `loss_weights`: one factor, one per output, or by output name.
using LossWeights = std::variant<std::monostate, double, std::vector<double>,
                                 std::map<std::string, double>>;

/// The keyword arguments of Model::compile (Keras's compile).
struct CompileOptions {
  /// Keras's default is "rmsprop".
  OptimizerArg optimizer = "rmsprop";
  /// Keras's `loss`: the objective to minimize; with none, only the layers' own losses count.
  LossSpec loss;
  /// Keras's `loss_weights`: factors on the per-output losses before they are summed; unset: 1.
  LossWeights loss_weights;
  /// Keras's `metrics`: what fit and evaluate report besides the loss (e.g. {"accuracy"}).
  MetricsSpec metrics;
  /// Metrics that receive the sample weights (and class weights).
  MetricsSpec weighted_metrics;
  /// Batches per execution. keras-cpp runs eagerly, so this only groups the batches callbacks
  /// see (on_train_batch_begin/end once per group), as Keras does.
  int steps_per_execution = 1;
  /// "auto", "true" or "false". "true" and "auto" compile the default train_step, test_step
  /// and predict_step with keras::jit (keras/compiler/jit.h): traced per input signature, then
  /// replayed. A step that cannot replay (it reads tensor values on the host) runs eagerly with
  /// one warning. An overridden train_step/test_step/predict_step runs as written (wrap its
  /// tensor work in keras::jit to compile it).
  std::string jit_compile = "auto";
  /// True runs every step eagerly, whatever jit_compile says (Keras's run_eagerly).
  bool run_eagerly = false;
  /// Under a model policy of "mixed_float16", wrap the optimizer in a LossScaleOptimizer
  /// (dynamic loss scaling), as Keras does; an optimizer that is one already is kept.
  bool auto_scale_loss = true;
};

/// fit's/evaluate's `verbose`: 0 silent, 1 progress bar, 2 one line per epoch, or "auto"
/// (1, as Keras on a console).
class Verbosity {
 public:
  /// A level 0, 1 or 2; another value is a ValueError when fit, evaluate or predict runs.
  Verbosity(int level) : level_(level) {}  // NOLINT
  /// "auto", which means 1; ValueError for any other text.
  Verbosity(const char* text);             // NOLINT: "auto"
  /// The level: 0, 1 or 2.
  int level() const { return level_; }

 private:
  int level_ = 1;
};

namespace data {
class Dataset;
}

/// validation_data: (x, y) or (x, y, sample_weight), or a keras::data::Dataset of batches.
struct ValidationData {
  /// Validation inputs, targets and optional sample weights.
  ValidationData(TensorStruct x, TensorStruct y = {}, TensorStruct sample_weight = {})  // NOLINT
      : x(std::move(x)), y(std::move(y)), sample_weight(std::move(sample_weight)) {}
  /// Validation batches from a Dataset of (x, y[, sample_weight]).
  ValidationData(const data::Dataset& dataset);  // NOLINT: .validation_data = val_ds
  /// \var ValidationData::x
  /// The validation inputs.
  /// \var ValidationData::y
  /// The validation targets.
  /// \var ValidationData::sample_weight
  /// The validation sample weights; undefined for none.
  TensorStruct x, y, sample_weight;
  /// Set when validating on a Dataset (then x, y and sample_weight are empty).
  std::shared_ptr<const data::Dataset> dataset;
};

/// The keyword arguments of Model::fit (Keras's fit).
struct FitOptions {
  /// Samples per gradient update; Keras's None means 32.
  std::optional<int64_t> batch_size;
  /// Keras's `epochs`: the epoch count to train up to; fit runs epochs - initial_epoch epochs.
  int epochs = 1;
  /// Keras's `verbose`: 0 silent, 1 progress bar, 2 one line per epoch; "auto" is 1.
  Verbosity verbose = "auto";
  /// Keras's `callbacks`: run in order during training and validation; fit appends History,
  /// and a ProgbarLogger when verbose is not 0 and none is given.
  std::vector<callbacks::CallbackPtr> callbacks;
  /// The last fraction of the samples (before shuffling) held out for validation.
  double validation_split = 0.0;
  /// Keras's `validation_data`: data to evaluate at the end of epochs; takes precedence over
  /// validation_split.
  std::optional<ValidationData> validation_data;
  /// Shuffle the training samples before each epoch (seeded by keras::utils::set_random_seed).
  bool shuffle = true;
  /// Per-class loss weights for integer (or one-hot) labels of a single output.
  std::map<int64_t, double> class_weight;
  /// Per-sample loss weights (shape (samples,) or like y).
  TensorStruct sample_weight;
  /// The epoch to start from (resuming a previous run).
  int initial_epoch = 0;
  /// Batches per epoch; default all of the data.
  std::optional<int64_t> steps_per_epoch;
  /// Keras's `validation_steps`: batches per validation; unset: all of the validation data.
  std::optional<int64_t> validation_steps;
  /// Keras's `validation_batch_size`: samples per validation batch; unset: batch_size (32 when
  /// x is a Dataset, PyDataset or generator).
  std::optional<int64_t> validation_batch_size;
  /// Validate after every this many epochs.
  int validation_freq = 1;
};

/// The keyword arguments of Model::evaluate (Keras's evaluate).
struct EvaluateOptions {
  /// Samples per batch; Keras's None means 32. Must be unset when x yields batches (a Dataset).
  std::optional<int64_t> batch_size;
  /// Keras's `verbose`: 0 silent, 1 progress bar, 2 one line; "auto" is 1.
  Verbosity verbose = "auto";
  /// Per-sample weights of the loss and weighted metrics (shape (samples,) or like y).
  TensorStruct sample_weight;
  /// Batches to evaluate; unset: all of the data.
  std::optional<int64_t> steps;
  /// Keras's `callbacks`: their on_test_* hooks run during evaluation.
  std::vector<callbacks::CallbackPtr> callbacks;
};

/// The keyword arguments of Model::predict (Keras's predict).
struct PredictOptions {
  /// Samples per batch; Keras's None means 32. Must be unset when x yields batches (a Dataset).
  std::optional<int64_t> batch_size;
  /// Keras's `verbose`: 0 silent, 1 progress bar, 2 one line; "auto" is 1.
  Verbosity verbose = "auto";
  /// Batches to predict; unset: all of the data.
  std::optional<int64_t> steps;
  /// Keras's `callbacks`: their on_predict_* hooks run during prediction.
  std::vector<callbacks::CallbackPtr> callbacks;
};

/// One batch as train_step/test_step/predict_step receive it (Keras's `data` tuple).
struct StepData {
  /// \var StepData::x
  /// The batch's inputs.
  /// \var StepData::y
  /// The batch's targets; undefined in predict (and for unsupervised data).
  /// \var StepData::sample_weight
  /// The batch's sample weights; undefined for none.
  TensorStruct x, y, sample_weight;
};

}  // namespace keras

#pragma GCC visibility pop

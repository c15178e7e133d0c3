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
  OptimizerArg(const char* name) : ptr_(optimizers::get(name)) {}          // NOLINT
  OptimizerArg(const std::string& name) : ptr_(optimizers::get(name)) {}   // NOLINT
  template <typename T>
    requires std::is_base_of_v<optimizers::Optimizer, T>
  OptimizerArg(std::shared_ptr<T> optimizer) : ptr_(std::move(optimizer)) {}  // NOLINT
  template <typename T>
    requires std::is_base_of_v<optimizers::Optimizer, T>
  OptimizerArg(const T& optimizer) : ptr_(optimizer.clone()) {}  // NOLINT
  const optimizers::OptimizerPtr& get() const { return ptr_; }

 private:
  optimizers::OptimizerPtr ptr_;
};

/// compile's `loss`: one loss for every output, one per output (a list in output order), or
/// one per output name (outputs left out get none).
class LossSpec {
 public:
  LossSpec() = default;
  LossSpec(losses::LossArg loss) : single_(std::move(loss)) {}  // NOLINT
  LossSpec(const char* name) : single_(name) {}                 // NOLINT
  LossSpec(const std::string& name) : single_(name) {}          // NOLINT
  template <typename T>
    requires std::is_constructible_v<losses::LossArg, T> &&
             (!std::is_convertible_v<T, std::string>)
  LossSpec(T loss) : single_(losses::LossArg(std::move(loss))) {}  // NOLINT
  LossSpec(std::vector<losses::LossArg> per_output) : list_(std::move(per_output)) {}  // NOLINT
  LossSpec(std::map<std::string, losses::LossArg> by_name) : map_(std::move(by_name)) {}  // NOLINT

  bool empty() const { return !single_ && !list_ && !map_; }
  const std::optional<losses::LossArg>& single() const { return single_; }
  const std::optional<std::vector<losses::LossArg>>& list() const { return list_; }
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
  MetricsSpec(std::vector<metrics::MetricArg> metrics) : flat_(std::move(metrics)) {}  // NOLINT
  MetricsSpec(std::initializer_list<metrics::MetricArg> metrics)  // NOLINT
      : flat_(std::vector<metrics::MetricArg>(metrics)) {}
  MetricsSpec(std::vector<std::vector<metrics::MetricArg>> per_output)  // NOLINT
      : per_output_(std::move(per_output)) {}
  MetricsSpec(std::map<std::string, std::vector<metrics::MetricArg>> by_name)  // NOLINT
      : by_name_(std::move(by_name)) {}

  bool empty() const { return !flat_ && !per_output_ && !by_name_; }
  const std::optional<std::vector<metrics::MetricArg>>& flat() const { return flat_; }
  const std::optional<std::vector<std::vector<metrics::MetricArg>>>& per_output() const {
    return per_output_;
  }
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

struct CompileOptions {
  /// Keras's default is "rmsprop".
  OptimizerArg optimizer = "rmsprop";
  LossSpec loss;
  LossWeights loss_weights;
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
  Verbosity(int level) : level_(level) {}  // NOLINT
  Verbosity(const char* text);             // NOLINT: "auto"
  int level() const { return level_; }

 private:
  int level_ = 1;
};

namespace data {
class Dataset;
}

/// validation_data: (x, y) or (x, y, sample_weight), or a keras::data::Dataset of batches.
struct ValidationData {
  ValidationData(TensorStruct x, TensorStruct y = {}, TensorStruct sample_weight = {})  // NOLINT
      : x(std::move(x)), y(std::move(y)), sample_weight(std::move(sample_weight)) {}
  ValidationData(const data::Dataset& dataset);  // NOLINT: .validation_data = val_ds
  TensorStruct x, y, sample_weight;
  /// Set when validating on a Dataset (then x, y and sample_weight are empty).
  std::shared_ptr<const data::Dataset> dataset;
};

struct FitOptions {
  /// Samples per gradient update; Keras's None means 32.
  std::optional<int64_t> batch_size;
  int epochs = 1;
  Verbosity verbose = "auto";
  std::vector<callbacks::CallbackPtr> callbacks;
  /// The last fraction of the samples (before shuffling) held out for validation.
  double validation_split = 0.0;
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
  std::optional<int64_t> validation_steps;
  std::optional<int64_t> validation_batch_size;
  /// Validate after every this many epochs.
  int validation_freq = 1;
};

struct EvaluateOptions {
  std::optional<int64_t> batch_size;
  Verbosity verbose = "auto";
  TensorStruct sample_weight;
  std::optional<int64_t> steps;
  std::vector<callbacks::CallbackPtr> callbacks;
};

struct PredictOptions {
  std::optional<int64_t> batch_size;
  Verbosity verbose = "auto";
  std::optional<int64_t> steps;
  std::vector<callbacks::CallbackPtr> callbacks;
};

/// One batch as train_step/test_step/predict_step receive it (Keras's `data` tuple).
struct StepData {
  TensorStruct x, y, sample_weight;
};

}  // namespace keras

#pragma GCC visibility pop

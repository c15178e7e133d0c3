#pragma once
// keras::Model: a layer made of layers. Subclass it (override call(), track sublayers) for a
// custom model; keras::Functional and keras::Sequential build the other two kinds.
//
//   class Mlp : public keras::Model {
//    public:
//     Mlp() {
//       hidden_ = track("hidden", keras::layers::Dense(64, {.activation = "relu"}));
//       out_ = track("out", keras::layers::Dense(10));
//     }
//     keras::Tensor call(const keras::Tensor& x, const keras::CallContext&) override {
//       return out_(hidden_(x));
//     }
//    private:
//     keras::LayerPtr<keras::layers::DenseLayer> hidden_, out_;
//   };

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/callbacks/callback.h"
#include "keras/compiler/jit.h"
#include "keras/layers/layer.h"
#include "keras/trainers/options.h"

#pragma GCC visibility push(default)
namespace keras {

namespace callbacks {
class History;
}
namespace random {
class SeedGenerator;
}
namespace trainers {
struct CompileState;
struct CompiledStep;
class BatchSource;
}
namespace data {
class Dataset;
}
namespace saving {
struct ExportOptions;
}
namespace utils {
class PyDataset;
}

/// model.summary()'s keyword arguments.
struct SummaryOptions {
  /// Total width; 0 uses Keras's default (88 columns, or 108 with "Connected to"), capped by
  /// the terminal width minus 4.
  int line_length = 0;
  /// Also list the layers inside nested models.
  bool expand_nested = false;
  /// Adds a "Trainable" column.
  bool show_trainable = false;
};

/// The base of every model.
class Model : public Layer {
 public:
  /// `default_name` is the prefix of the automatic name; without it the name comes from
  /// class_name().
  explicit Model(LayerOptions options = {}, std::string default_name = {});

  /// The model's layers: the tracked sublayers of a subclassed model; the graph's layers for
  /// Functional (Input layers included) and Sequential (without them), as in Keras.
  virtual std::vector<std::shared_ptr<Layer>> layers() const;
  /// The layer called `name`; ValueError listing the names otherwise.
  std::shared_ptr<Layer> get_layer(const std::string& name) const;
  /// The layer at `index` of layers().
  std::shared_ptr<Layer> get_layer(int index) const;

  /// Keras's Model.quantize: quantizes every layer without sublayers that can be (Dense,
  /// EinsumDense, Embedding) with `mode` ("int8") and `config` (null: the mode's default); a
  /// layer that cannot is skipped with a warning, as Keras. The model must be built. The
  /// compiled train/test/predict steps are dropped (Keras resets its train_function etc.): they
  /// were traced with the float weights.
  void quantize(const std::string& mode,
                quantizers::QuantizationConfigPtr config = nullptr) override;

  /// Prints the Keras summary table to stdout.
  void summary(const SummaryOptions& options = {}) const;
  /// The same text as a string.
  std::string summary_string(const SummaryOptions& options = {}) const;

  /// The output shape summary() shows for one of layers() ("?" when unknown).
  virtual std::string layer_output_shape(const Layer& layer) const;
  /// The "Connected to" entries of a layer (empty for sequential-like models).
  virtual std::string layer_connections(const Layer& layer) const;
  /// Whether summary() uses the three-column (sequential-like) table.
  virtual bool sequential_like() const { return true; }

  /// The names x may use as map keys (Functional: its Input layers' names).
  virtual std::vector<std::string> input_names() const { return {}; }
  /// The names of the outputs, which name per-output losses and metrics (Functional: the
  /// layers producing them; Sequential: its last layer).
  virtual std::vector<std::string> output_names() const { return {}; }

  // ---- training (keras/trainers; see keras/trainers/options.h) -----------------------------
  /// Configures training: optimizer, loss, metrics (Keras's compile).
  void compile(const CompileOptions& options = {});
  /// Whether compile() (or compile_from_config) has run.
  bool compiled() const { return static_cast<bool>(compile_state_); }
  /// Trains for `epochs` epochs; returns the History (also history()).
  std::shared_ptr<callbacks::History> fit(const TensorStruct& x, const TensorStruct& y = {},
                                          const FitOptions& options = {});
  /// The loss and metrics on the given data, by name.
  Logs evaluate(const TensorStruct& x, const TensorStruct& y = {},
                const EvaluateOptions& options = {});
  /// The model's outputs for every sample, computed in batches (inference mode).
  TensorStruct predict(const TensorStruct& x, const PredictOptions& options = {});
  // ---- data pipelines (keras/data/dataset.h, keras/utils/py_dataset.h) --------------------
  // The data arrives in batches, so batch_size (and sample_weight, validation_split) must not
  // be given: ValueError, as Keras. A Dataset that repeats forever needs steps_per_epoch (or
  // steps); one of unknown size runs until exhausted. validation_data may be a Dataset too.
  /// Trains on a Dataset of (x, y[, sample_weight]) batches.
  std::shared_ptr<callbacks::History> fit(const data::Dataset& dataset,
                                          const FitOptions& options = {});
  /// Trains on a PyDataset: its batches in index order, on_epoch_end after every epoch.
  std::shared_ptr<callbacks::History> fit(utils::PyDataset& dataset,
                                          const FitOptions& options = {});
  /// Trains on a generator of batches, consumed across epochs as a Python generator is.
  std::shared_ptr<callbacks::History> fit(const std::function<std::optional<StepData>()>& generator,
                                          const FitOptions& options = {});
  /// The loss and metrics over a Dataset of (x, y[, sample_weight]) batches, by name.
  Logs evaluate(const data::Dataset& dataset, const EvaluateOptions& options = {});
  /// The loss and metrics over a PyDataset's batches, by name.
  Logs evaluate(utils::PyDataset& dataset, const EvaluateOptions& options = {});
  /// The loss and metrics over a generator's batches, by name (nullopt ends the data).
  Logs evaluate(const std::function<std::optional<StepData>()>& generator,
                const EvaluateOptions& options = {});
  /// The outputs for every batch's x (y, if present, is ignored), concatenated.
  TensorStruct predict(const data::Dataset& dataset, const PredictOptions& options = {});
  /// The outputs for every batch's x of a PyDataset, concatenated.
  TensorStruct predict(utils::PyDataset& dataset, const PredictOptions& options = {});
  /// The outputs for every batch's x of a generator, concatenated.
  TensorStruct predict(const std::function<std::optional<StepData>()>& generator,
                       const PredictOptions& options = {});

  /// One gradient update on one batch; the metrics after it.
  Logs train_on_batch(const TensorStruct& x, const TensorStruct& y = {},
                      const TensorStruct& sample_weight = {},
                      const std::map<int64_t, double>& class_weight = {});
  /// The loss and metrics on one batch; the metrics are reset first, so they cover it alone.
  Logs test_on_batch(const TensorStruct& x, const TensorStruct& y = {},
                     const TensorStruct& sample_weight = {});
  /// The model's outputs for one batch, in inference mode.
  TensorStruct predict_on_batch(const TensorStruct& x);

  /// One training step (override for custom training; fit calls it for every batch). The
  /// default: forward under a GradientTape, compute_loss, the optimizer's apply, then
  /// compute_metrics; compiled with keras::jit unless jit_compile is "false" (the default
  /// test_step and predict_step too). An override runs as written.
  virtual Logs train_step(const StepData& data);
  /// One evaluation step (override for custom evaluation; evaluate calls it for every batch).
  /// The default: forward in inference mode, compute_loss, then compute_metrics.
  virtual Logs test_step(const StepData& data);
  /// One predict step (override for custom inference; predict calls it for every batch).
  /// The default: the forward pass in inference mode.
  virtual TensorStruct predict_step(const StepData& data);
  /// The compiled loss plus the layers' losses (regularization), as a scalar.
  virtual Tensor compute_loss(const TensorStruct& x, const TensorStruct& y,
                              const TensorStruct& y_pred, const TensorStruct& sample_weight,
                              bool training = true);
  /// Updates the compiled metrics; returns get_metrics_result().
  virtual Logs compute_metrics(const TensorStruct& x, const TensorStruct& y,
                               const TensorStruct& y_pred, const TensorStruct& sample_weight);
  /// Every metric's current value by name.
  Logs get_metrics_result() const;
  /// The loss tracker, the compiled metrics and the per-output loss trackers.
  std::vector<metrics::MetricPtr> metrics() const;
  /// Resets the state of every metric in metrics() (fit does so at each epoch start).
  void reset_metrics();
  /// The compiled optimizer; ValueError before compile.
  const optimizers::OptimizerPtr& optimizer() const;
  /// The Mean that fit's "loss" reports (Keras's _loss_tracker), for custom train_step.
  metrics::Mean& loss_tracker();
  /// The compile arguments, for saving (Keras's get_compile_config).
  const CompileOptions& compile_options() const;

  /// The compiled forms of the default steps (Keras's train_function, test_function,
  /// predict_function): undefined until a step has run compiled (jit_compile "true"/"auto").
  CompiledFunction train_function() const;
  /// The compiled default test_step; undefined until it has run compiled.
  CompiledFunction test_function() const;
  /// The compiled default predict_step; undefined until it has run compiled.
  CompiledFunction predict_function() const;

  /// Runs the model on x in any form (a tensor, a list in input order, or a map by input
  /// name) and returns the outputs (a tensor for one output, else a list).
  TensorStruct call_struct(const TensorStruct& x, bool training);

  /// Set by callbacks (EarlyStopping, TerminateOnNaN) to end fit after this batch/epoch.
  bool stop_training() const { return stop_training_; }
  /// Asks fit to stop after the current batch (Keras's `model.stop_training = True`).
  void set_stop_training(bool stop) { stop_training_ = stop; }
  /// The History of the last fit.
  std::shared_ptr<callbacks::History> history() const { return history_; }
  /// Makes the next fit start at this epoch (BackupAndRestore after a restart).
  void set_resume_epoch(std::optional<int> epoch) { resume_epoch_ = epoch; }
  /// During fit, the generator that shuffles the training samples (null otherwise), so
  /// BackupAndRestore can save and restore it and a resumed run shuffles as the original.
  random::SeedGenerator* shuffle_generator() const { return shuffle_generator_; }

  /// Moves the weights, the optimizer's state and the metrics' variables to `backend` (every
  /// Variable handle stays valid), so the model computes there; fit/evaluate/predict then move
  /// each batch to that backend. Python Keras has no equivalent (a process has one backend).
  void to(std::string_view backend);

  // ---- saving (keras/saving) ---------------------------------------------------------------
  /// saving::save_model: the whole model as a Keras 3 `.keras` file (config, weights,
  /// optimizer state), which Python Keras 3 and keras::saving::load_model read.
  void save(const std::string& path) const;
  /// saving::export_model: the inference graph as an ONNX file (Keras's model.export; the
  /// trailing underscore because `export` is a C++ keyword).
  void export_(const std::string& filepath) const;
  /// Exports with `options` (opset, input signature, verbosity); see saving::ExportOptions.
  void export_(const std::string& filepath, const saving::ExportOptions& options) const;
  /// The model's serialize_keras_object record as JSON text (Keras's to_json, without the
  /// weights); keras::models::model_from_json reads it back.
  std::string to_json() const;
  /// The compile arguments as Keras saves them ({} when not compiled).
  Config get_compile_config() const;
  /// Compiles from a saved compile_config and builds the optimizer (Keras's
  /// compile_from_config), so the optimizer's saved variables can be loaded.
  void compile_from_config(const Config& config);
  /// saving::save_weights: a Keras 3 .weights.h5 file (with the optimizer's variables).
  void save_weights(const std::string& path) const;
  /// saving::load_weights, with the optimizer's variables when the file has them.
  void load_weights(const std::string& path, bool skip_mismatch = false);

 private:
  trainers::CompileState& state() const;
  /// Forgets the compiled default steps, so the next call traces again (Keras's
  /// `self.train_function = None` ...): after the layers' variables were replaced.
  void reset_compiled_steps();
  // The loops, over any source of batches (in-memory tensors, Dataset, PyDataset).
  std::shared_ptr<callbacks::History> run_fit(trainers::BatchSource& train,
                                              std::unique_ptr<trainers::BatchSource> validation,
                                              const FitOptions& options);
  Logs run_test_loop(trainers::BatchSource& batches, callbacks::CallbackList& callbacks);
  Logs run_evaluate(trainers::BatchSource& batches, const EvaluateOptions& options);
  TensorStruct run_predict(trainers::BatchSource& batches, const PredictOptions& options);

  std::shared_ptr<trainers::CompileState> compile_state_;
  // predict runs compiled without compile() too (Keras's jit_compile "auto").
  std::shared_ptr<trainers::CompiledStep> compiled_predict_;
  bool stop_training_ = false;
  std::shared_ptr<callbacks::History> history_;
  std::optional<int> resume_epoch_;
  random::SeedGenerator* shuffle_generator_ = nullptr;
};

/// A shared reference to a model, callable like one.
template <typename T = Model>
using ModelPtr = LayerPtr<T>;

}  // namespace keras

#pragma GCC visibility pop

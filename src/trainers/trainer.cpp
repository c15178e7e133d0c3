// Model::compile/fit/evaluate/predict and the default steps, following Keras 3's trainer
// (keras/src/trainers/trainer.py and backend/torch/trainer.py): the same loop, logs, callback
// order and reductions, run with keras-cpp's autograd; the default steps compiled with keras::jit
// unless jit_compile is "false".

#include <cmath>
#include <iostream>
#include <mutex>

#include "keras/autograd/gradient_tape.h"
#include "keras/callbacks/history.h"
#include "keras/callbacks/progbar_logger.h"
#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/core/runtime_errors.h"
#include "keras/layers/host_layer.h"
#include "keras/models/model.h"
#include "keras/ops/ops.h"
#include "keras/optimizers/loss_scale_optimizer.h"
#include "trainers/compile_state.h"
#include "trainers/compiled_step.h"
#include "trainers/placement.h"
#include "trainers/data_sources.h"
#include "trainers/epoch_iterator.h"
#include "trainers/interrupt.h"
#include "trainers/data_parallel.h"
#include "trainers/sharded_variables.h"
#include "autograd/gradient_ready.h"
#include "distribution/overlapped_all_reduce.h"
#include "random/replica_streams.h"
#include "keras/distribution/collectives.h"
#include "keras/distribution/runtime.h"

namespace keras {

using trainers::CompileState;

Verbosity::Verbosity(const char* text) {
  check(std::string(text) == "auto", "verbose must be 0, 1, 2 or \"auto\"; got \"", text, "\".");
  level_ = 1;
}

namespace {

constexpr int64_t kDefaultBatchSize = 32;

int checked_verbose(const Verbosity& v) {
  check(v.level() >= 0 && v.level() <= 2, "verbose must be 0, 1, 2 or \"auto\"; got ", v.level(),
        ".");
  return v.level();
}

int64_t batch_size_of(std::optional<int64_t> batch_size) {
  return batch_size.value_or(kDefaultBatchSize);
}

double batch_size_of(const TensorStruct& x) {
  TensorList flat = x.flat();
  return flat.empty() || flat[0].ndim() == 0 ? 1.0 : static_cast<double>(flat[0].shape()[0]);
}

TensorStruct outputs_struct(TensorList outputs) {
  if (outputs.size() == 1) return TensorStruct(outputs[0]);
  return TensorStruct(std::move(outputs));
}

void add_progbar_and_history(callbacks::CallbackList& list, int verbose,
                             std::shared_ptr<callbacks::History> history) {
  bool has_progbar = false;
  for (const auto& c : list.callbacks())
    has_progbar = has_progbar || dynamic_cast<callbacks::ProgbarLogger*>(c.get());
  if (history) list.append(history);
  if (verbose != 0 && !has_progbar) list.append(std::make_shared<callbacks::ProgbarLogger>());
}

// The train or test step: eagerly, or compiled, its logs then read from the metrics after the
// replay (a trace cannot read results on the host).
Logs run_metric_step(Model& model, bool jit, trainers::CompiledStep& compiled, const char* name,
                     const StepData& data, bool training,
                     const std::function<Logs(const StepData&)>& step) {
  if (!jit) return step(data);
  trainers::run_compiled(compiled, name, data, training, [step](const StepData& d) {
    step(d);
    return TensorList{};
  });
  return model.get_metrics_result();
}

}  // namespace

trainers::CompileState& Model::state() const {
  check(compile_state_ != nullptr, "Model '", name(),
        "' must be compiled first: call model->compile({.optimizer = ..., .loss = ...}).");
  return *compile_state_;
}

void Model::compile(const CompileOptions& options) {
  check(options.steps_per_execution >= 1, "compile: steps_per_execution must be >= 1; got ",
        options.steps_per_execution, ".");
  const std::string& jit = options.jit_compile;
  check(jit == "auto" || jit == "true" || jit == "false",
        "compile: jit_compile must be \"auto\", \"true\" or \"false\"; got \"", jit, "\".");
  check(options.optimizer.get() != nullptr, "compile: optimizer is null.");
  compile_state_ = std::make_shared<CompileState>(options);
  // Keras resolves jit_compile "auto" to False for a model with a layer that cannot compile.
  if (jit == "auto" && layers::contains_host_computed_layer(*this)) compile_state_->jit = false;
  // Keras's auto_scale_loss: float16 gradients underflow without loss scaling.
  optimizers::OptimizerPtr& opt = compile_state_->optimizer;
  if (options.auto_scale_loss && dtype_policy().name == "mixed_float16" &&
      !std::dynamic_pointer_cast<optimizers::LossScaleOptimizer>(opt)) {
    opt = std::make_shared<optimizers::LossScaleOptimizer>(
        opt, optimizers::LossScaleOptimizerOptions{.name = "loss_scale_optimizer"});
    compile_state_->optimizer_auto_wrapped = true;
  }
}

const optimizers::OptimizerPtr& Model::optimizer() const { return state().optimizer; }
metrics::Mean& Model::loss_tracker() { return *state().loss_tracker; }
const CompileOptions& Model::compile_options() const { return state().options; }

std::vector<metrics::MetricPtr> Model::metrics() const {
  std::vector<metrics::MetricPtr> out;
  if (!compile_state_) return out;
  out.push_back(compile_state_->loss_tracker);
  for (auto& m : compile_state_->metrics.metrics()) out.push_back(m);
  if (compile_state_->loss)
    for (auto& m : compile_state_->loss->metrics()) out.push_back(m);
  return out;
}

void Model::reset_metrics() {
  for (auto& m : metrics()) m->reset_state();
}

Logs Model::get_metrics_result() const {
  if (!compile_state_ || trainers::metric_results_deferred()) return {};
  // In a data-parallel job, the results of every process's batches together.
  return trainers::with_global_metrics(metrics(), compile_state_->metrics_global, [this] {
    Logs logs;
    // Keras: the loss tracker, then the compile metrics (with their own naming), then the
    // per-output loss trackers. Logs are sorted by name, as Keras's pythonify_logs leaves them.
    logs[compile_state_->loss_tracker->name()] =
        compile_state_->loss_tracker->result().item<double>();
    compile_state_->metrics.add_results(logs);
    if (compile_state_->loss)
      for (auto& m : compile_state_->loss->metrics()) logs[m->name()] = m->result().item<double>();
    return logs;
  });
}

TensorStruct Model::call_struct(const TensorStruct& x, bool training) {
  check(x.defined(), "Model '", name(), "' was given no input (x is empty).");
  TensorList inputs;
  if (x.kind() == TensorStruct::Kind::Map) {
    std::vector<std::string> names = input_names();
    check(!names.empty(), "Model '", name(),
          "' has no named inputs; pass x as a tensor or a list, not a map.");
    for (const std::string& n : names) {
      auto it = x.map().find(n);
      std::string known;
      for (const auto& [k, v] : x.map()) known += (known.empty() ? "" : ", ") + k;
      check(it != x.map().end(), "x has no entry for the model's input '", n,
            "'; its keys: ", known, ".");
      inputs.push_back(it->second);
    }
  } else {
    inputs = x.flat();
  }
  CallContext ctx;
  ctx.training = training;
  return outputs_struct((*this)(inputs, ctx));
}

Tensor Model::compute_loss(const TensorStruct&, const TensorStruct& y, const TensorStruct& y_pred,
                           const TensorStruct& sample_weight, bool) {
  CompileState& s = state();
  TensorList losses_found;
  if (s.loss) {
    Tensor l = (*s.loss)(y, y_pred.flat(), output_names(), sample_weight);
    if (l.defined()) losses_found.push_back(l);
  }
  for (const Tensor& extra : losses()) {
    Tensor e = is_floating(extra.dtype()) ? extra : ops::cast(extra, config::floatx());
    losses_found.push_back(ops::sum(e));
  }
  check(!losses_found.empty(),
        "No loss to compute. Provide a `loss` argument in compile() (or override "
        "compute_loss/train_step).");
  Tensor total = losses_found[0];
  for (size_t i = 1; i < losses_found.size(); ++i) total = ops::add(total, losses_found[i]);
  return total;
}

Logs Model::compute_metrics(const TensorStruct&, const TensorStruct& y, const TensorStruct& y_pred,
                            const TensorStruct& sample_weight) {
  CompileState& s = state();
  if (y.defined()) {
    NoGradScope no_grad;
    s.metrics.update_state(y, y_pred.flat(), output_names(), sample_weight);
  }
  return get_metrics_result();
}

Logs Model::train_step(const StepData& data) {
  // ModelParallel's sharded variables: whole for the passes, this process's slices for the
  // update (sharded_variables.h). Such steps run eagerly.
  trainers::ShardedVariables* sharding = trainers::active_sharding(this);
  auto step = [this, sharding](const StepData& d) {
    CompileState& s = state();
    if (sharding) sharding->gather(false);
    std::vector<Variable> trainable = trainable_weights();
    Tensor loss;
    std::vector<Tensor> grads;
    TensorStruct y_pred;
    // Each process of a data-parallel job draws its own dropout and noise, and adds what its
    // rows change in the metrics to the others' (with the gradients).
    random::detail::ReplicaStreamScope streams(trainers::replica_index());
    trainers::GlobalMetricUpdate global_metrics(metrics());
    const bool replicas = trainers::replicas_active();
    const auto local_rows = static_cast<int64_t>(batch_size_of(d.x));
    // The gradients' all-reduce starts bucket by bucket during the backward pass.
    std::unique_ptr<distribution::detail::OverlappedAllReduce> overlap;
    if (replicas && distribution::detail::overlap_enabled())
      overlap = std::make_unique<distribution::detail::OverlappedAllReduce>(
          trainable.size(), "the all-reduce of the gradients");
    {
      GradientTape tape;
      y_pred = call_struct(d.x, true);
      loss = compute_loss(d.x, d.y, y_pred, d.sample_weight, true);
      {
        NoGradScope no_grad;
        s.loss_tracker->update_state(loss, ops::full({}, batch_size_of(d.x), loss.dtype()));
      }
      Tensor scaled = s.optimizer->scale_loss(loss);
      autograd::detail::GradientReadyScope hook(trainers::gradient_hook(overlap.get(), local_rows));
      if (!trainable.empty()) grads = tape.gradient(scaled, trainable);
    }
    // Let the step's graph go before the update: its nodes hold the weights they saved for
    // the backward pass, and a weight still held elsewhere is copied on assign instead of
    // updated in place. The metrics need only the values.
    loss = Tensor();
    TensorList values;
    for (const Tensor& t : y_pred.flat()) values.push_back(ops::stop_gradient(t));
    y_pred = y_pred.with_flat(values);
    if (replicas) compute_metrics(d.x, d.y, y_pred, d.sample_weight);  // before the sum
    std::vector<Tensor> metric_deltas;
    if (replicas) metric_deltas = global_metrics.deltas(metrics());
    trainers::all_reduce_gradients(grads, local_rows, &metric_deltas, overlap.get());
    if (replicas) {
      global_metrics.apply(metric_deltas);
      s.metrics_global = true;
    }
    if (sharding) {
      sharding->shard(false);
      grads = sharding->local_gradients(grads, trainable);
    }
    if (!trainable.empty()) s.optimizer->apply(grads, trainable);
    trainers::average_non_trainable(non_trainable_weights());
    return replicas ? get_metrics_result() : compute_metrics(d.x, d.y, y_pred, d.sample_weight);
  };
  CompileState& s = state();
  return run_metric_step(*this, s.jit && !sharding, s.train, "train_step", data, true, step);
}

Logs Model::test_step(const StepData& data) {
  trainers::ShardedVariables* sharding = trainers::active_sharding(this);
  auto step = [this, sharding](const StepData& d) {
    CompileState& s = state();
    NoGradScope no_grad;
    trainers::WholeValuesScope whole(sharding ? this : nullptr, false);
    trainers::GlobalMetricUpdate global_metrics(metrics());
    TensorStruct y_pred = call_struct(d.x, false);
    Tensor loss = compute_loss(d.x, d.y, y_pred, d.sample_weight, false);
    s.loss_tracker->update_state(loss, ops::full({}, batch_size_of(d.x), loss.dtype()));
    Logs logs = compute_metrics(d.x, d.y, y_pred, d.sample_weight);
    if (!trainers::replicas_active()) return logs;
    std::vector<Tensor> deltas = global_metrics.deltas(metrics());
    distribution::all_reduce_sum(deltas, "the sum of the metrics over the processes");
    global_metrics.apply(deltas);
    s.metrics_global = true;
    return get_metrics_result();
  };
  CompileState& s = state();
  return run_metric_step(*this, s.jit && !sharding, s.test, "test_step", data, false, step);
}

TensorStruct Model::predict_step(const StepData& data) {
  NoGradScope no_grad;
  const bool jit =
      compile_state_ ? compile_state_->jit : !layers::contains_host_computed_layer(*this);
  if (!jit) return call_struct(data.x, false);
  trainers::CompiledStep* step = compile_state_ ? &compile_state_->predict : nullptr;
  if (!step) {
    // predict may run on several threads at once (DESIGN: thread-safe inference).
    static std::mutex creating;
    std::lock_guard<std::mutex> lock(creating);
    if (!compiled_predict_) compiled_predict_ = std::make_shared<trainers::CompiledStep>();
    step = compiled_predict_.get();
  }
  auto body = [this](const StepData& d) {
    NoGradScope no_grad;
    return call_struct(d.x, false).flat();
  };
  return outputs_struct(
      trainers::run_compiled(*step, "predict_step", StepData{data.x, {}, {}}, false, body));
}

CompiledFunction Model::train_function() const {
  return compile_state_ ? compile_state_->train.function : CompiledFunction();
}

CompiledFunction Model::test_function() const {
  return compile_state_ ? compile_state_->test.function : CompiledFunction();
}

CompiledFunction Model::predict_function() const {
  if (compile_state_) return compile_state_->predict.function;
  return compiled_predict_ ? compiled_predict_->function : CompiledFunction();
}

namespace {

// y, sample_weight and class_weight combined as Keras's data adapters do.
StepData with_class_weight(StepData data, const std::map<int64_t, double>& class_weight) {
  if (class_weight.empty()) return data;
  check(!data.sample_weight.defined(),
        "You cannot use class_weight and sample_weight at the same time.");
  check(data.y.defined() && data.y.size() == 1,
        "class_weight is only supported for models with a single output (and needs y).");
  data.sample_weight =
      TensorStruct(trainers::class_weight_to_sample_weights(data.y.flat()[0], class_weight));
  return data;
}

}  // namespace

std::shared_ptr<callbacks::History> Model::fit(const TensorStruct& x, const TensorStruct& y,
                                               const FitOptions& o) {
  state();
  check(o.validation_split >= 0 && o.validation_split < 1,
        "fit: validation_split must be in [0, 1); got ", o.validation_split, ".");
  StepData train{x, y, o.sample_weight};
  std::unique_ptr<trainers::BatchSource> validation;
  int64_t batch_size = batch_size_of(o.batch_size);
  int64_t val_batch = o.validation_batch_size.value_or(batch_size);
  if (o.validation_data && o.validation_data->dataset) {
    validation = std::make_unique<trainers::DatasetSource>(*o.validation_data->dataset,
                                                           o.validation_steps, "validation_steps");
  } else if (o.validation_data) {
    validation = std::make_unique<trainers::EpochIterator>(
        StepData{o.validation_data->x, o.validation_data->y, o.validation_data->sample_weight},
        val_batch, o.validation_steps, false);
  } else if (o.validation_split > 0) {
    auto [t, v] = trainers::split_validation(train, o.validation_split);
    train = std::move(t);
    validation = std::make_unique<trainers::EpochIterator>(std::move(v), val_batch,
                                                           o.validation_steps, false);
  }
  trainers::EpochIterator iterator(train, batch_size, o.steps_per_epoch, o.shuffle);
  return run_fit(iterator, std::move(validation), o);
}

std::shared_ptr<callbacks::History> Model::run_fit(
    trainers::BatchSource& train, std::unique_ptr<trainers::BatchSource> validation,
    const FitOptions& o) {
  CompileState& s = state();
  trainers::WeightsBackendScope on_weights(*this);
  int verbose = checked_verbose(o.verbose);
  if (distribution::process_id() != 0) verbose = 0;  // one progress bar per job
  check(o.epochs >= 0, "fit: epochs must be >= 0; got ", o.epochs, ".");
  check(o.class_weight.empty() || !o.sample_weight.defined(),
        "You cannot use class_weight and sample_weight at the same time.");
  check(o.validation_freq >= 1, "fit: validation_freq must be >= 1; got ", o.validation_freq, ".");

  history_ = std::make_shared<callbacks::History>();
  callbacks::CallbackList cbs(o.callbacks);
  add_progbar_and_history(cbs, verbose, history_);
  cbs.set_model(this);
  cbs.set_params({.verbose = verbose, .epochs = o.epochs, .steps = train.num_batches()});

  stop_training_ = false;
  resume_epoch_.reset();
  auto* in_memory = dynamic_cast<trainers::EpochIterator*>(&train);
  shuffle_generator_ = in_memory ? &in_memory->generator() : nullptr;
  struct ClearGenerator {
    random::SeedGenerator*& g;
    ~ClearGenerator() { g = nullptr; }
  } clear_generator{shuffle_generator_};
  // The processes of a data-parallel job shuffle alike (process 0's seed) and start from
  // process 0's weights (at the first batch, once the model is built).
  trainers::synchronize_shuffling(shuffle_generator_);
  bool replicas_synchronized = false;
  std::unique_ptr<trainers::ShardedVariables> sharding;
  std::optional<trainers::ActiveShardingScope> sharding_scope;
  Logs training_logs;
  // Ctrl-C stops after the running batch (interrupt.h), with on_train_batch_end called.
  trainers::InterruptGuard interrupt_guard;
  cbs.on_train_begin();
  int initial_epoch = resume_epoch_.value_or(o.initial_epoch);
  for (int epoch = initial_epoch; epoch < o.epochs; ++epoch) {
    reset_metrics();
    cbs.on_epoch_begin(epoch);
    train.begin_epoch();
    Logs logs;
    StepData batch;
    // As Keras, callbacks see batches in groups of steps_per_execution.
    const int64_t per_execution = s.options.steps_per_execution;
    const std::optional<int64_t> total = train.num_batches();
    for (int64_t step = 0; train.next(batch); ++step) {
      if (step % per_execution == 0) cbs.on_train_batch_begin(step);
      StepData local = trainers::local_rows(batch);
      if (!replicas_synchronized) {
        trainers::synchronize_replicas(*this, local, batch.x.num_samples("x"));
        replicas_synchronized = true;
        sharding = std::make_unique<trainers::ShardedVariables>(*this);
        if (!sharding->empty()) {
          sharding->shard(true);
          sharding_scope.emplace(this, sharding.get());
        }
      }
      logs = train_step(
          trainers::on_weights_backend(*this, with_class_weight(std::move(local), o.class_weight)));
      const bool group_end = (step + 1) % per_execution == 0 || (total && step + 1 == *total);
      if (group_end) cbs.on_train_batch_end(step, logs);
      if (stop_training_) break;
      if (group_end && trainers::interrupt_requested()) {
        // After the callbacks saw the batch (a checkpoint saved there has it). As Python's
        // KeyboardInterrupt out of Keras's fit: no on_train_end (which, for BackupAndRestore,
        // would delete the backup this run should resume from).
        throw KeyboardInterrupt("fit interrupted (SIGINT) after batch " + std::to_string(step + 1) +
                                " of epoch " + std::to_string(epoch + 1) +
                                "; the model holds the weights of that batch, and every "
                                "checkpoint written is complete.");
      }
    }
    train.end_epoch();
    if (train.ran_out()) {
      // Keras's warning; as Keras, the next epoch starts a fresh pass over the data.
      std::cerr << "UserWarning: Your input ran out of data; interrupting training. Make sure "
                   "that your dataset or generator can generate at least `steps_per_epoch * "
                   "epochs` batches. You may need to use the `.repeat()` function when building "
                   "your dataset.\n";
    }
    Logs epoch_logs = get_metrics_result();
    if (epoch_logs.empty()) epoch_logs = logs;  // a custom train_step with its own logs
    if (validation && (epoch + 1) % o.validation_freq == 0) {
      Logs val_logs = run_test_loop(*validation, cbs);
      for (const auto& [k, v] : val_logs) epoch_logs["val_" + k] = v;
    }
    cbs.on_epoch_end(epoch, epoch_logs);
    training_logs = epoch_logs;
    if (stop_training_) break;
    if (trainers::interrupt_requested())  // it came during validation or an epoch's callbacks
      throw KeyboardInterrupt("fit interrupted (SIGINT) at the end of epoch " +
                              std::to_string(epoch + 1) +
                              "; every checkpoint written is complete.");
  }
  // The model leaves fit whole on every process (its optimizer too).
  if (sharding && !sharding->empty()) sharding->gather(true);
  sharding_scope.reset();
  if (o.epochs > 0) s.optimizer->finalize_variable_values(trainable_weights());
  cbs.on_train_end(training_logs);
  return history_;
}

Logs Model::run_test_loop(trainers::BatchSource& batches, callbacks::CallbackList& cbs) {
  cbs.on_test_begin();
  reset_metrics();
  batches.begin_epoch();
  Logs logs;
  StepData batch;
  for (int64_t step = 0; batches.next(batch); ++step) {
    cbs.on_test_batch_begin(step);
    logs = test_step(trainers::on_weights_backend(*this, trainers::local_rows(batch)));
    cbs.on_test_batch_end(step, logs);
  }
  batches.end_epoch();
  Logs result = get_metrics_result();
  if (result.empty()) result = logs;
  cbs.on_test_end(result);
  return result;
}

Logs Model::evaluate(const TensorStruct& x, const TensorStruct& y, const EvaluateOptions& o) {
  state();
  trainers::EpochIterator batches(StepData{x, y, o.sample_weight}, batch_size_of(o.batch_size),
                                  o.steps, false);
  return run_evaluate(batches, o);
}

Logs Model::run_evaluate(trainers::BatchSource& batches, const EvaluateOptions& o) {
  state();
  trainers::WeightsBackendScope on_weights(*this);
  int verbose = checked_verbose(o.verbose);
  if (distribution::process_id() != 0) verbose = 0;
  callbacks::CallbackList cbs(o.callbacks);
  add_progbar_and_history(cbs, verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.verbose = verbose, .epochs = 1, .steps = batches.num_batches()});
  trainers::synchronize_weights(*this);
  return run_test_loop(batches, cbs);
}

TensorStruct Model::predict(const TensorStruct& x, const PredictOptions& o) {
  trainers::EpochIterator batches(StepData{x, {}, {}}, batch_size_of(o.batch_size), o.steps,
                                  false);
  return run_predict(batches, o);
}

TensorStruct Model::run_predict(trainers::BatchSource& batches, const PredictOptions& o) {
  trainers::WeightsBackendScope on_weights(*this);
  int verbose = checked_verbose(o.verbose);
  if (distribution::process_id() != 0) verbose = 0;
  callbacks::CallbackList cbs(o.callbacks);
  add_progbar_and_history(cbs, verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.verbose = verbose, .epochs = 1, .steps = batches.num_batches()});
  trainers::synchronize_weights(*this);
  cbs.on_predict_begin();
  batches.begin_epoch();
  std::vector<TensorList> pieces;  // per output, the batches' outputs
  TensorStruct first;
  StepData batch;
  for (int64_t step = 0; batches.next(batch); ++step) {
    cbs.on_predict_batch_begin(step);
    StepData local = trainers::local_rows(StepData{batch.x, {}, {}});
    TensorStruct out = predict_step(trainers::on_weights_backend(*this, std::move(local)));
    if (!first.defined()) first = out;
    TensorList flat = trainers::gather_rows(out.flat(), batch.x.num_samples("x"));
    if (pieces.empty()) pieces.resize(flat.size());
    for (size_t i = 0; i < flat.size(); ++i) pieces[i].push_back(flat[i]);
    cbs.on_predict_batch_end(step);
  }
  batches.end_epoch();
  cbs.on_predict_end();
  check(first.defined(), "predict: the data produced no batches, so there is nothing to predict.");
  TensorList joined;
  for (const TensorList& p : pieces) joined.push_back(p.size() == 1 ? p[0] : ops::concatenate(p, 0));
  return first.with_flat(joined);
}

Logs Model::train_on_batch(const TensorStruct& x, const TensorStruct& y,
                           const TensorStruct& sample_weight,
                           const std::map<int64_t, double>& class_weight) {
  state();
  trainers::WeightsBackendScope on_weights(*this);
  // As Keras: the logs of train_on_batch/test_on_batch describe this batch alone.
  reset_metrics();
  StepData data = with_class_weight(StepData{x, y, sample_weight}, class_weight);
  return train_step(trainers::on_weights_backend(*this, std::move(data)));
}

Logs Model::test_on_batch(const TensorStruct& x, const TensorStruct& y,
                          const TensorStruct& sample_weight) {
  state();
  trainers::WeightsBackendScope on_weights(*this);
  reset_metrics();
  return test_step(trainers::on_weights_backend(*this, StepData{x, y, sample_weight}));
}

TensorStruct Model::predict_on_batch(const TensorStruct& x) {
  trainers::WeightsBackendScope on_weights(*this);
  return predict_step(trainers::on_weights_backend(*this, StepData{x, {}, {}}));
}

}  // namespace keras

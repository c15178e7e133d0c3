// fit/evaluate/predict on a keras::data::Dataset, a generator or a keras::utils::PyDataset:
// Keras's argument rules for data that arrives in batches, then the shared loops of
// trainer.cpp over a DatasetSource or PyDatasetSource.

#include "keras/core/errors.h"
#include "keras/models/model.h"
#include "trainers/data_sources.h"
#include "trainers/epoch_iterator.h"

namespace keras {

ValidationData::ValidationData(const data::Dataset& dataset)
    : dataset(std::make_shared<const data::Dataset>(dataset)) {}

namespace {

// `kind` names the data in messages ("a Dataset", "a PyDataset", "a generator").
void check_batched_fit(const FitOptions& o, const char* kind) {
  check(!o.batch_size, "fit: batch_size must not be given when x is ", kind,
        ", which yields batches already; got batch_size=", o.batch_size.value_or(0),
        ". Set the batch size when building the data (e.g. dataset.batch(n)).");
  check(!o.sample_weight.defined(), "fit: sample_weight must not be given when x is ", kind,
        "; yield (x, y, sample_weight) batches instead.");
  check(o.validation_split == 0, "fit: validation_split is only supported for tensors, not ", kind,
        "; got validation_split=", o.validation_split,
        ". Pass validation_data (e.g. a separate Dataset) instead.");
}

void check_batched(const std::optional<int64_t>& batch_size, const char* what, const char* kind) {
  check(!batch_size, what, ": batch_size must not be given when x is ", kind,
        ", which yields batches already; got batch_size=", batch_size.value_or(0), ".");
}

void check_no_weights(const TensorStruct& sample_weight, const char* kind) {
  check(!sample_weight.defined(), "evaluate: sample_weight must not be given when x is ", kind,
        "; yield (x, y, sample_weight) batches instead.");
}

std::unique_ptr<trainers::BatchSource> validation_source(const FitOptions& o) {
  if (!o.validation_data) return nullptr;
  const ValidationData& v = *o.validation_data;
  if (v.dataset)
    return std::make_unique<trainers::DatasetSource>(*v.dataset, o.validation_steps,
                                                     "validation_steps");
  return std::make_unique<trainers::EpochIterator>(StepData{v.x, v.y, v.sample_weight},
                                                   o.validation_batch_size.value_or(32),
                                                   o.validation_steps, false);
}

}  // namespace

std::shared_ptr<callbacks::History> Model::fit(const data::Dataset& dataset, const FitOptions& o) {
  check_batched_fit(o, "a Dataset");
  trainers::DatasetSource source(dataset, o.steps_per_epoch, "steps_per_epoch");
  return run_fit(source, validation_source(o), o);
}

std::shared_ptr<callbacks::History> Model::fit(utils::PyDataset& dataset, const FitOptions& o) {
  check_batched_fit(o, "a PyDataset");
  trainers::PyDatasetSource source(dataset, o.steps_per_epoch);
  return run_fit(source, validation_source(o), o);
}

std::shared_ptr<callbacks::History> Model::fit(
    const std::function<std::optional<StepData>()>& generator, const FitOptions& o) {
  check_batched_fit(o, "a generator");
  trainers::DatasetSource source(data::Dataset::from_generator(generator), o.steps_per_epoch,
                                 "steps_per_epoch");
  return run_fit(source, validation_source(o), o);
}

Logs Model::evaluate(const data::Dataset& dataset, const EvaluateOptions& o) {
  check_batched(o.batch_size, "evaluate", "a Dataset");
  check_no_weights(o.sample_weight, "a Dataset");
  trainers::DatasetSource source(dataset, o.steps, "steps");
  return run_evaluate(source, o);
}

Logs Model::evaluate(utils::PyDataset& dataset, const EvaluateOptions& o) {
  check_batched(o.batch_size, "evaluate", "a PyDataset");
  check_no_weights(o.sample_weight, "a PyDataset");
  trainers::PyDatasetSource source(dataset, o.steps);
  return run_evaluate(source, o);
}

Logs Model::evaluate(const std::function<std::optional<StepData>()>& generator,
                     const EvaluateOptions& o) {
  check_batched(o.batch_size, "evaluate", "a generator");
  check_no_weights(o.sample_weight, "a generator");
  trainers::DatasetSource source(data::Dataset::from_generator(generator), o.steps, "steps");
  return run_evaluate(source, o);
}

TensorStruct Model::predict(const data::Dataset& dataset, const PredictOptions& o) {
  check_batched(o.batch_size, "predict", "a Dataset");
  trainers::DatasetSource source(dataset, o.steps, "steps");
  return run_predict(source, o);
}

TensorStruct Model::predict(utils::PyDataset& dataset, const PredictOptions& o) {
  check_batched(o.batch_size, "predict", "a PyDataset");
  trainers::PyDatasetSource source(dataset, o.steps);
  return run_predict(source, o);
}

TensorStruct Model::predict(const std::function<std::optional<StepData>()>& generator,
                            const PredictOptions& o) {
  check_batched(o.batch_size, "predict", "a generator");
  trainers::DatasetSource source(data::Dataset::from_generator(generator), o.steps, "steps");
  return run_predict(source, o);
}

}  // namespace keras

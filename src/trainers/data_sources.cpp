#include "trainers/data_sources.h"

#include <algorithm>

#include "keras/core/errors.h"

namespace keras::trainers {

DatasetSource::DatasetSource(data::Dataset dataset, std::optional<int64_t> steps,
                             const char* steps_name)
    : dataset_(std::move(dataset)), steps_(steps) {
  check(!steps_ || *steps_ >= 1, steps_name, " must be a positive integer; got ",
        steps_.value_or(0), ".");
  check(steps_ || dataset_.cardinality() != data::INFINITE,
        "The dataset repeats forever (cardinality INFINITE): pass ", steps_name,
        " to say how many batches to use, or end it with take(n).");
}

std::optional<int64_t> DatasetSource::num_batches() const {
  if (steps_) return steps_;
  int64_t n = dataset_.cardinality();
  return n >= 0 ? std::optional<int64_t>(n) : std::nullopt;
}

void DatasetSource::begin_epoch() {
  step_ = 0;
  ran_out_ = false;
  // With steps, epochs continue one pass (a restart only after the data ran out).
  if (!steps_ || !pass_) pass_ = dataset_.iterator();
}

bool DatasetSource::next(StepData& batch) {
  if (steps_ && step_ >= *steps_) return false;
  if (!pass_) return false;
  std::optional<data::Element> e;
  try {
    e = pass_->next();
  } catch (const data::ProducerError& error) {
    // Said in the loop's terms: the batch of this epoch, as Keras users count them.
    throw Error(
        keras::detail::cat("Producing batch ", step_, " of the data failed: ", error.cause()));
  }
  if (!e) {
    pass_.reset();
    ran_out_ = steps_.has_value() || step_ == 0;
    return false;
  }
  batch = std::move(*e);
  ++step_;
  return true;
}

PyDatasetSource::PyDatasetSource(utils::PyDataset& dataset, std::optional<int64_t> steps)
    : dataset_(dataset), steps_(steps) {
  check(!steps_ || *steps_ >= 1, "steps must be a positive integer; got ", steps_.value_or(0), ".");
  check(dataset_.workers() >= 1, "PyDataset: workers must be >= 1; got ", dataset_.workers(), ".");
  check(dataset_.max_queue_size() >= 1, "PyDataset: max_queue_size must be >= 1; got ",
        dataset_.max_queue_size(), ".");
  int64_t n = dataset_.size();
  check(n >= 1, "PyDataset: size() must be a positive number of batches; got ", n, ".");
}

// Waits for the calls in flight: none outlives the source.
PyDatasetSource::~PyDatasetSource() {
  ahead_.clear();
}

std::optional<int64_t> PyDatasetSource::num_batches() const {
  return steps_ ? *steps_ : dataset_.size();
}

StepData PyDatasetSource::fetch(int64_t index, int64_t step) {
  try {
    return dataset_.get(index);
  } catch (const std::exception& error) {
    throw Error(keras::detail::cat("PyDataset: get(", index, ") failed while producing batch ",
                                   step, ": ", error.what()));
  }
}

void PyDatasetSource::launch_ahead() {
  // Only this epoch's batches: the next epoch may start with on_epoch_begin's changes.
  int64_t last = std::min(dataset_.size(), cursor_ + (*num_batches() - step_));
  auto depth = static_cast<size_t>(std::min(dataset_.workers(), dataset_.max_queue_size()));
  while (ahead_.size() < depth && launched_ < last) {
    int64_t index = launched_++, step = step_ + static_cast<int64_t>(ahead_.size());
    ahead_.push_back(
        std::async(std::launch::async, [this, index, step] { return fetch(index, step); }));
  }
}

void PyDatasetSource::begin_epoch() {
  step_ = 0;
  ran_out_ = false;
  // With steps, epochs continue through the indices (Keras's steps_per_epoch).
  if (!steps_) cursor_ = 0;
  ahead_.clear();
  launched_ = cursor_;
  dataset_.on_epoch_begin();
}

bool PyDatasetSource::next(StepData& batch) {
  if (step_ >= *num_batches()) return false;
  if (cursor_ >= dataset_.size()) {
    // Out of batches before the steps asked for: Keras warns, and the next epoch restarts.
    ran_out_ = true;
    cursor_ = 0;
    return false;
  }
  if (dataset_.workers() <= 1) {
    batch = fetch(cursor_, step_);
  } else {
    launch_ahead();
    std::future<StepData> front = std::move(ahead_.front());
    ahead_.pop_front();
    batch = front.get();
  }
  ++cursor_;
  ++step_;
  return true;
}

void PyDatasetSource::end_epoch() {
  ahead_.clear();
  dataset_.on_epoch_end();
}

}  // namespace keras::trainers

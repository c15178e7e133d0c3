#include "trainers/data_sources.h"

#include <algorithm>
#include <iostream>

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
    throw Error(keras::detail::cat("Producing batch ", step_, " of the data failed: ",
                                   error.cause()));
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
  check(!steps_ || *steps_ >= 1, "steps must be a positive integer; got ", steps_.value_or(0),
        ".");
  check(dataset_.workers() >= 1, "PyDataset: workers must be >= 1; got ", dataset_.workers(),
        ".");
  check(dataset_.max_queue_size() >= 1, "PyDataset: max_queue_size must be >= 1; got ",
        dataset_.max_queue_size(), ".");
  int64_t n = dataset_.size();
  check(n >= 1, "PyDataset: size() must be a positive number of batches; got ", n, ".");
}

PyDatasetSource::~PyDatasetSource() { ahead_.clear(); }  // waits for calls in flight

std::optional<int64_t> PyDatasetSource::num_batches() const {
  return steps_ ? *steps_ : dataset_.size();
}

StepData PyDatasetSource::fetch(int64_t index) {
  try {
    return dataset_.get(index % dataset_.size());
  } catch (const std::exception& error) {
    throw Error(keras::detail::cat("PyDataset: get(", index % dataset_.size(),
                                   ") failed while producing batch ", index, ": ",
                                   error.what()));
  }
}

void PyDatasetSource::launch_ahead() {
  int64_t total = *num_batches();
  size_t depth = static_cast<size_t>(std::min(dataset_.workers(), dataset_.max_queue_size()));
  while (ahead_.size() < depth && launched_ < total) {
    int64_t i = launched_++;
    ahead_.push_back(std::async(std::launch::async, [this, i] { return fetch(i); }));
  }
}

void PyDatasetSource::begin_epoch() {
  step_ = 0;
  launched_ = 0;
  ahead_.clear();
  dataset_.on_epoch_begin();
}

bool PyDatasetSource::next(StepData& batch) {
  if (step_ >= *num_batches()) return false;
  if (dataset_.workers() <= 1) {
    batch = fetch(step_++);
    return true;
  }
  launch_ahead();
  std::future<StepData> front = std::move(ahead_.front());
  ahead_.pop_front();
  ++step_;
  batch = front.get();
  return true;
}

void PyDatasetSource::end_epoch() {
  ahead_.clear();
  dataset_.on_epoch_end();
}

}  // namespace keras::trainers

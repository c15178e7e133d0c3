#include "trainers/epoch_iterator.h"

#include <cmath>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::trainers {

EpochIterator::EpochIterator(StepData data, int64_t batch_size,
                             std::optional<int64_t> steps_per_epoch, bool shuffle)
    : data_(std::move(data)), batch_size_(batch_size), steps_per_epoch_(steps_per_epoch),
      shuffle_(shuffle),
      // Only a shuffling iterator takes a seed from the global generator: predict and evaluate
      // leave it as they found it (and touch no state shared with other threads).
      generator_(shuffle ? std::nullopt : std::optional<uint64_t>(0)) {
  check(batch_size_ >= 1, "batch_size must be a positive integer; got ", batch_size_, ".");
  check(!steps_per_epoch_ || *steps_per_epoch_ >= 1,
        "steps_per_epoch must be a positive integer; got ", steps_per_epoch_.value_or(0), ".");
  num_samples_ = data_.x.num_samples("x");
  if (data_.y.defined()) {
    int64_t ny = data_.y.num_samples("y");
    check(ny == num_samples_, "x has ", num_samples_, " samples but y has ", ny,
          "; they must match.");
  }
  if (data_.sample_weight.defined()) {
    int64_t nw = data_.sample_weight.num_samples("sample_weight");
    check(nw == num_samples_, "x has ", num_samples_, " samples but sample_weight has ", nw,
          "; they must match.");
  }
  check(num_samples_ > 0, "There is no data: x has 0 samples.");
  batches_per_pass_ = (num_samples_ + batch_size_ - 1) / batch_size_;
}

std::optional<int64_t> EpochIterator::num_batches() const {
  return steps_per_epoch_ ? *steps_per_epoch_ : batches_per_pass_;
}

void EpochIterator::start_pass() {
  cursor_ = 0;
  pass_started_ = true;
  if (shuffle_)
    order_ = random::shuffle(ops::arange(0, num_samples_, 1, DType::Int64), 0, generator_);
}

void EpochIterator::begin_epoch() {
  step_in_epoch_ = 0;
  // Without steps_per_epoch every epoch is one full pass; with it, epochs continue the pass.
  if (!steps_per_epoch_ || !pass_started_) start_pass();
}

bool EpochIterator::next(StepData& batch) {
  if (step_in_epoch_ >= *num_batches()) return false;
  if (cursor_ >= batches_per_pass_) start_pass();
  int64_t start = cursor_ * batch_size_;
  int64_t stop = std::min(start + batch_size_, num_samples_);
  auto pick = [&](const TensorStruct& s) {
    if (!s.defined()) return s;
    if (!shuffle_) return s.slice(start, stop);
    return s.take(order_.slice({{start, stop}}));
  };
  batch.x = pick(data_.x);
  batch.y = pick(data_.y);
  batch.sample_weight = pick(data_.sample_weight);
  ++cursor_;
  ++step_in_epoch_;
  return true;
}

std::pair<StepData, StepData> split_validation(const StepData& data, double fraction) {
  check(fraction > 0 && fraction < 1, "validation_split must be in [0, 1); got ", fraction, ".");
  int64_t n = data.x.num_samples("x");
  int64_t split_at = static_cast<int64_t>(std::floor(static_cast<double>(n) * (1.0 - fraction)));
  check(split_at > 0 && split_at < n, "validation_split=", fraction, " leaves ",
        split_at == 0 ? "no training" : "no validation", " samples out of ", n, ".");
  auto part = [](const TensorStruct& s, int64_t a, int64_t b) {
    return s.defined() ? s.slice(a, b) : s;
  };
  StepData train{part(data.x, 0, split_at), part(data.y, 0, split_at),
                 part(data.sample_weight, 0, split_at)};
  StepData val{part(data.x, split_at, n), part(data.y, split_at, n),
               part(data.sample_weight, split_at, n)};
  return {train, val};
}

Tensor class_weight_to_sample_weights(const Tensor& y, const std::map<int64_t, double>& weights) {
  Tensor labels = y;
  if (labels.ndim() > 1)
    labels = labels.shape().back() != 1 ? ops::argmax(labels, -1) : ops::squeeze(labels, -1);
  std::vector<double> values = ops::round(ops::cast(labels, DType::Float64)).to_vector<double>();
  std::vector<double> out(values.size(), 1.0);
  for (size_t i = 0; i < values.size(); ++i) {
    auto it = weights.find(static_cast<int64_t>(values[i]));
    if (it != weights.end()) out[i] = it->second;
  }
  return ops::cast(Tensor::from_vector(out, {static_cast<int64_t>(out.size())}),
                   config::floatx());
}

}  // namespace keras::trainers

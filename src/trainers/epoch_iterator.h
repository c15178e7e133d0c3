#pragma once
// EpochIterator: batches of in-memory data for fit/evaluate/predict, shuffled per epoch when
// asked (with a seeded keras::random generator, so runs are reproducible), optionally
// limited to steps_per_epoch batches that continue where the previous epoch stopped.

#include <optional>

#include "keras/random/random.h"
#include "keras/trainers/options.h"
#include "trainers/batch_source.h"

namespace keras::trainers {

class EpochIterator : public BatchSource {
 public:
  EpochIterator(StepData data, int64_t batch_size, std::optional<int64_t> steps_per_epoch,
                bool shuffle);
  /// Batches per epoch (always known).
  std::optional<int64_t> num_batches() const override;
  /// Starts an epoch (reshuffles unless steps_per_epoch continues the previous pass).
  void begin_epoch() override;
  /// The next batch of this epoch, or false when the epoch is over.
  bool next(StepData& batch) override;
  int64_t num_samples() const { return num_samples_; }
  /// The shuffling generator's state, so BackupAndRestore can resume a run exactly.
  random::SeedGenerator& generator() { return generator_; }

 private:
  void start_pass();

  StepData data_;
  int64_t batch_size_;
  std::optional<int64_t> steps_per_epoch_;
  bool shuffle_;
  int64_t num_samples_ = 0;
  int64_t batches_per_pass_ = 0;
  random::SeedGenerator generator_;
  Tensor order_;  // the current pass's sample order (int64), when shuffling
  int64_t cursor_ = 0;  // next batch of the current pass
  int64_t step_in_epoch_ = 0;
  bool pass_started_ = false;
};

/// Keras's train_validation_split: the last `fraction` of the samples (before any shuffling)
/// become validation data.
std::pair<StepData, StepData> split_validation(const StepData& data, double fraction);

/// Keras's class_weight_to_sample_weights for the labels of a single-output model.
Tensor class_weight_to_sample_weights(const Tensor& y, const std::map<int64_t, double>& weights);

}  // namespace keras::trainers

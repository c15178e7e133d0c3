#pragma once
// BatchSource: what fit/evaluate/predict loop over, whatever the data is: in-memory tensors
// (EpochIterator), a keras::data::Dataset or a generator (DatasetSource), a PyDataset
// (PyDatasetSource).

#include <cstdint>
#include <optional>

#include "keras/trainers/options.h"

namespace keras::trainers {

class BatchSource {
 public:
  virtual ~BatchSource() = default;
  /// Batches per epoch; std::nullopt when unknown until the data ends (the progress bar then
  /// shows no total).
  virtual std::optional<int64_t> num_batches() const = 0;
  /// Starts an epoch.
  virtual void begin_epoch() = 0;
  /// The next batch of this epoch, or false when the epoch is over.
  virtual bool next(StepData& batch) = 0;
  /// Ends an epoch (PyDataset.on_epoch_end).
  virtual void end_epoch() {}
  /// Whether the data ended before the steps asked for, or gave no batch (fit warns as
  /// Keras does).
  virtual bool ran_out() const { return false; }
};

}  // namespace keras::trainers

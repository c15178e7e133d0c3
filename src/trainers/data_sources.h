#pragma once
// The BatchSources for keras::data::Dataset (and generators, through from_generator) and for
// keras::utils::PyDataset, as Keras's TF-dataset, generator and PyDataset adapters.

#include <deque>
#include <future>
#include <memory>
#include <optional>

#include "keras/data/dataset.h"
#include "keras/utils/py_dataset.h"
#include "trainers/batch_source.h"

namespace keras::trainers {

/// A Dataset whose elements are batches. With `steps`, an epoch is that many batches and the
/// next epoch continues the same pass (Keras's steps_per_epoch); without, an epoch is one
/// pass. An infinite dataset without steps is a ValueError naming `steps_name`.
class DatasetSource : public BatchSource {
 public:
  DatasetSource(data::Dataset dataset, std::optional<int64_t> steps, const char* steps_name);
  std::optional<int64_t> num_batches() const override;
  void begin_epoch() override;
  bool next(StepData& batch) override;
  bool ran_out() const override { return ran_out_; }

 private:
  data::Dataset dataset_;
  std::optional<int64_t> steps_;
  std::optional<data::Dataset::Iterator> pass_;
  int64_t step_ = 0;
  bool ran_out_ = false;
};

/// A PyDataset's batches 0..size()-1 in order each epoch (with `steps`, epochs continue through
/// the indices as Keras's steps_per_epoch); with workers > 1, that many batches (at most
/// max_queue_size) are fetched ahead on threads and handed out in order.
class PyDatasetSource : public BatchSource {
 public:
  PyDatasetSource(utils::PyDataset& dataset, std::optional<int64_t> steps);
  ~PyDatasetSource() override;
  std::optional<int64_t> num_batches() const override;
  void begin_epoch() override;
  bool next(StepData& batch) override;
  void end_epoch() override;
  bool ran_out() const override { return ran_out_; }

 private:
  void launch_ahead();
  StepData fetch(int64_t index, int64_t step);

  utils::PyDataset& dataset_;
  std::optional<int64_t> steps_;
  int64_t step_ = 0;      // batches given this epoch
  int64_t cursor_ = 0;    // the next index to give
  int64_t launched_ = 0;  // the next index to fetch ahead
  bool ran_out_ = false;
  std::deque<std::future<StepData>> ahead_;
};

}  // namespace keras::trainers

#pragma once
// keras::utils::PyDataset: Keras's base class for user data served by index (a
// keras.utils.PyDataset / Sequence). Subclass it, return the number of batches from size()
// and batch i from get(i); fit, evaluate and predict take it directly.
//
//   class Images : public keras::utils::PyDataset {
//    public:
//     Images() : PyDataset({.workers = 4}) {}
//     int64_t size() const override { return (n + 31) / 32; }
//     keras::StepData get(int64_t i) override { return {load_x(i), load_y(i)}; }
//     void on_epoch_end() override { reshuffle_my_files(); }  // shuffling is yours, as in Keras
//   };
//   model.fit(images, {.epochs = 3});

#include <cstdint>

#include "keras/trainers/options.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// PyDataset's constructor arguments (keras.utils.PyDataset's `workers`, `use_multiprocessing`,
/// `max_queue_size`).
struct PyDatasetOptions {
  /// Threads calling get() ahead of the training loop; batches still arrive in order.
  int workers = 1;
  /// Accepted for compatibility: keras-cpp uses threads, never processes.
  bool use_multiprocessing = false;
  /// The most batches prepared ahead when workers > 1.
  int max_queue_size = 10;
};

/// Keras's base class for data served by index (keras.utils.PyDataset): subclass it and override
/// size() and get().
class PyDataset {
 public:
  /// Subclasses pass their options up, as Keras's `super().__init__(**kwargs)`.
  explicit PyDataset(PyDatasetOptions options = {});
  virtual ~PyDataset() = default;

  /// The number of batches per epoch (Keras's __len__ / num_batches).
  virtual int64_t size() const = 0;
  /// Batch `index` in [0, size()) (Keras's __getitem__). With workers > 1 it is called from
  /// several threads at once.
  virtual StepData get(int64_t index) = 0;
  /// Called at the start of every epoch.
  virtual void on_epoch_begin() {}
  /// Called after every epoch (shuffle your indices here, as in Keras).
  virtual void on_epoch_end() {}

  /// Threads calling get() ahead of the training loop (Keras's `workers`).
  int workers() const { return options_.workers; }
  /// Keras's `use_multiprocessing`, accepted but ignored: keras-cpp uses threads.
  bool use_multiprocessing() const { return options_.use_multiprocessing; }
  /// The most batches prepared ahead when workers > 1 (Keras's `max_queue_size`).
  int max_queue_size() const { return options_.max_queue_size; }

 private:
  PyDatasetOptions options_;
};

}  // namespace keras::utils

#pragma GCC visibility pop

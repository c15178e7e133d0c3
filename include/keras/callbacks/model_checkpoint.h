#pragma once
// keras.callbacks.ModelCheckpoint: saves the model's weights at the end of every epoch (or
// every `save_freq` batches), optionally only when the monitored metric improved. The file
// name may hold Python format fields filled from the epoch (1-based), the batch and the logs:
//
//   auto ckpt = std::make_shared<keras::callbacks::ModelCheckpoint>(
//       "ckpt/w.{epoch:02d}-{val_loss:.2f}.weights.h5",
//       keras::callbacks::ModelCheckpointOptions{.save_best_only = true,
//                                                .save_weights_only = true});
//
// With save_weights_only the files are .weights.h5 (saving::save_weights); otherwise whole
// .keras models (saving::save_model). Both are written atomically. The legacy .h5 model format
// is not written (NotImplementedError when the callback is created).

#include <cstdint>
#include <optional>
#include <string>

#include "keras/callbacks/monitor_callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// `save_freq`: "epoch", or a number of batches.
class SaveFreq {
 public:
  /// Per epoch; ValueError unless `text` is "epoch".
  SaveFreq(const char* text);         // NOLINT: "epoch"
  /// Per epoch; ValueError unless `text` is "epoch".
  SaveFreq(const std::string& text);  // NOLINT
  /// Every `batches` batches; ValueError when `batches` < 1.
  SaveFreq(int batches);              // NOLINT
  /// Every `batches` batches; ValueError when `batches` < 1.
  SaveFreq(int64_t batches);          // NOLINT
  /// Whether saves happen at the end of every epoch ("epoch").
  bool per_epoch() const { return batches_ == 0; }
  /// Batches between saves (when not per epoch).
  int64_t batches() const { return batches_; }

 private:
  int64_t batches_ = 0;
};

/// Keras's batch counting for `save_freq=<int>` (supports steps_per_execution): true when
/// `save_freq` batches have been seen since the last save.
class BatchSaveCounter {
 public:
  /// Counts the batches up to `batch` (0-based within the epoch) and tells whether to save now.
  /// A `batch` not after the last one seen starts a new epoch; the count restarts after each save.
  bool should_save(int64_t batch, int64_t save_freq);
  /// Forgets the last batch seen, so that the next batch counts as the start of an epoch.
  void reset_epoch() { last_batch_seen_.reset(); }
  /// Sets the last batch seen, e.g. to the batch a restored backup recorded.
  void set_last_batch_seen(std::optional<int64_t> b) { last_batch_seen_ = b; }

 private:
  int64_t since_last_save_ = 0;
  std::optional<int64_t> last_batch_seen_;
};

/// Arguments of keras.callbacks.ModelCheckpoint beyond `filepath`.
struct ModelCheckpointOptions {
  /// The metric that decides the best model (with save_best_only), by its name in the logs.
  std::string monitor = "val_loss";
  /// 0: silent; 1: print a message whenever the callback saves (or skips a save).
  int verbose = 0;
  /// Save only when the monitored value improved (then a fixed filepath keeps the best).
  bool save_best_only = false;
  /// true: save the weights only (a ".weights.h5" filepath); false: the whole model (a
  /// ".keras" filepath; a legacy ".h5" one is a NotImplementedError).
  bool save_weights_only = false;
  /// Which direction of `monitor` is better: "min", "max" or "auto" (from the metric's name).
  std::string mode = "auto";
  /// "epoch": save at the end of every epoch; a number N: save every N batches.
  SaveFreq save_freq = "epoch";
  /// The value the monitored metric must beat before the first save (save_best_only).
  std::optional<double> initial_value_threshold;
};

/// Saves the model or its weights during fit (keras.callbacks.ModelCheckpoint).
class ModelCheckpoint : public MonitorCallback {
 public:
  /// ValueError for a filepath without the right extension ("*.weights.h5" with
  /// save_weights_only, "*.keras"/"*.h5" otherwise); NotImplementedError for legacy .h5 models.
  explicit ModelCheckpoint(std::string filepath, ModelCheckpointOptions options = {});

  void on_train_batch_end(int64_t batch, const Logs& logs) override;
  void on_epoch_begin(int epoch, const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;

  /// The path for this epoch (0-based), batch (0-based, if any) and logs.
  std::string file_path(int epoch, std::optional<int64_t> batch, const Logs& logs) const;

 private:
  bool should_save_model(int epoch, const Logs& logs, const std::string& filepath);
  void save_model(int epoch, std::optional<int64_t> batch, const Logs& logs);

  std::string filepath_;
  ModelCheckpointOptions options_;
  int current_epoch_ = 0;
  BatchSaveCounter counter_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

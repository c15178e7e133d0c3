#pragma once
// keras.callbacks.BackupAndRestore: backs up the training state (weights, optimizer variables,
// the epoch, and keras-cpp's shuffle generator state) in `backup_dir`, so that a fit that was
// interrupted (killed, preempted) resumes where the last backup left it when it is run again
// with the same callback:
//
//   auto backup = std::make_shared<keras::callbacks::BackupAndRestore>("/tmp/backup");
//   model->fit(x, y, {.epochs = 10, .callbacks = {backup}});  // restart after a crash: same call
//
// Files, as Keras: backup_dir/latest.weights.h5 (saving::save_weights, with optimizer) and
// backup_dir/training_metadata.json ({"epoch": E, "batch": B}); with double_checkpoint, the
// previous pair as *.bkp. keras-cpp also stores the metadata (plus the shuffle generator's
// state) as a root attribute of the weights file, so that one atomic rename replaces weights
// and state together: a kill at any moment leaves a consistent backup.
//
// As in Keras, a resumed fit starts at the beginning of the epoch recorded (a save every
// `save_freq` batches records the epoch in progress, whose batches then run again).

#include <optional>
#include <string>

#include "keras/callbacks/model_checkpoint.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Options of BackupAndRestore beyond `backup_dir` (keras.callbacks.BackupAndRestore's arguments).
struct BackupAndRestoreOptions {
  /// "epoch" or a number of batches.
  SaveFreq save_freq = "epoch";
  /// Keep the previous backup too (*.bkp) and fall back to it when the latest cannot be read.
  bool double_checkpoint = false;
  /// Remove backup_dir when training ends normally.
  bool delete_checkpoint = true;
};

/// Backs up the training state every epoch (or `save_freq` batches) and resumes an interrupted
/// fit from it (keras.callbacks.BackupAndRestore).
class BackupAndRestore : public Callback {
 public:
  /// ValueError for an empty backup_dir.
  explicit BackupAndRestore(std::string backup_dir, BackupAndRestoreOptions options = {});

  void on_train_begin(const Logs& logs) override;
  void on_epoch_begin(int epoch, const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;
  void on_train_batch_end(int64_t batch, const Logs& logs) override;
  void on_train_end(const Logs& logs) override;

  /// The backup's weights file, `backup_dir`/latest.weights.h5.
  const std::string& weights_path() const { return weights_path_; }
  /// The backup's metadata file, `backup_dir`/training_metadata.json (the epoch and batch saved).
  const std::string& metadata_path() const { return metadata_path_; }
  /// The epoch the last on_train_begin restored (nullopt when there was no backup).
  std::optional<int> restored_epoch() const { return restored_epoch_; }

 private:
  void load_model();
  void save_model();

  std::string backup_dir_;
  BackupAndRestoreOptions options_;
  std::string weights_path_, metadata_path_, prev_weights_path_, prev_metadata_path_;
  int current_epoch_ = 0;
  int64_t last_batch_seen_ = 0;
  BatchSaveCounter counter_;
  // The shuffle generator's (seed, counter) when the current epoch began, i.e. the state a
  // run resuming at the start of that epoch needs.
  std::optional<std::pair<uint64_t, uint64_t>> generator_at_epoch_start_;
  std::optional<int> restored_epoch_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

#pragma once
// keras.callbacks.TensorBoard: writes TensorFlow event files that TensorBoard reads, without
// TensorFlow (the TFRecord framing and the Event protobuf are written directly). What Keras 3.15
// writes on the JAX backend, with the same tags, steps and plugins:
//   log_dir/train:      epoch_<name> per epoch (the logs without "val_", plus learning_rate,
//                       plus steps_per_second with write_steps_per_second), batch_<name> every
//                       update_freq batches, <weight path>/histogram every histogram_freq
//                       epochs, the model's JSON ("keras", plugin graph_keras_model) with
//                       write_graph for Functional and Sequential models;
//   log_dir/validation: epoch_<name> for the val_ logs, evaluation_<name>_vs_iterations at
//                       the end of every evaluation (step: the optimizer's iterations).
// Scalars are float32 tensor summaries with plugin "scalars" (tf.summary.scalar), histograms
// float64 (k, 3) tensors with plugin "histograms" (tf.summary.histogram, 30 buckets).
//
//   namespace cb = keras::callbacks;
//   auto tb = std::make_shared<cb::TensorBoard>("logs",
//                                               cb::TensorBoardOptions{.histogram_freq = 1});
//   model->fit(x, y, {.epochs = 5, .callbacks = {tb}, .validation_split = 0.2});
//
// Not available (NotImplementedError at construction when asked for): write_images (PNG image
// summaries), profile_batch != 0 (no profiler; Keras on JAX under Python < 3.12 also turns it
// off), embeddings_freq != 0 (the projector).

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

namespace tensorboard {
class EventFileWriter;
}

/// `update_freq`: "epoch", "batch" (= 1), or a number of batches.
class UpdateFreq {
 public:
  /// Per epoch ("epoch") or every batch ("batch"); ValueError for any other text.
  UpdateFreq(const char* text);         // NOLINT: "epoch" or "batch"
  /// Per epoch ("epoch") or every batch ("batch"); ValueError for any other text.
  UpdateFreq(const std::string& text);  // NOLINT
  /// Every `batches` batches; ValueError when `batches` < 1.
  UpdateFreq(int batches);              // NOLINT
  /// Every `batches` batches; ValueError when `batches` < 1.
  UpdateFreq(int64_t batches);          // NOLINT
  /// Whether summaries are written only at epoch ends ("epoch").
  bool per_epoch() const { return batches_ == 0; }
  /// Batches between batch-level summaries (when not per epoch).
  int64_t batches() const { return batches_; }

 private:
  int64_t batches_ = 0;
};

/// Arguments of keras.callbacks.TensorBoard beyond `log_dir`.
struct TensorBoardOptions {
  /// Epochs between weight histograms (0: none).
  int histogram_freq = 0;
  /// Writes the model's JSON for TensorBoard's conceptual graph (Functional and Sequential).
  bool write_graph = true;
  /// Must be false (image summaries are not available).
  bool write_images = false;
  /// Logs epoch_steps_per_second (and batch_steps_per_second with batch summaries).
  bool write_steps_per_second = false;
  /// "epoch": write the metrics at epoch ends only; "batch" or N: also batch_* summaries every N
  /// batches.
  UpdateFreq update_freq = "epoch";
  /// Must be 0 (no profiler); negative values are Keras's ValueError.
  int profile_batch = 0;
  /// Must be 0 (the embedding projector is not available).
  int embeddings_freq = 0;
  /// Accepted for Keras's signature; used only by the projector.
  std::map<std::string, std::string> embeddings_metadata;
};

/// Writes TensorBoard event files of the metrics, weight histograms and model graph
/// (keras.callbacks.TensorBoard).
class TensorBoard : public Callback {
 public:
  /// Writes under `log_dir`/train and `log_dir`/validation, created when first written.
  /// ValueError for a negative histogram_freq or profile_batch; NotImplementedError when
  /// write_images, profile_batch or embeddings_freq asks for what is not available.
  explicit TensorBoard(std::string log_dir = "logs", TensorBoardOptions options = {});
  ~TensorBoard() override;

  void set_model(Model* model) override;
  void on_train_begin(const Logs& logs) override;
  void on_train_end(const Logs& logs) override;
  void on_test_begin(const Logs& logs) override;
  void on_test_end(const Logs& logs) override;
  void on_train_batch_begin(int64_t batch, const Logs& logs) override;
  void on_train_batch_end(int64_t batch, const Logs& logs) override;
  void on_test_batch_begin(int64_t batch, const Logs& logs) override;
  void on_epoch_begin(int epoch, const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;

  /// The folder the event files go to (Keras's `log_dir`).
  const std::string& log_dir() const { return log_dir_; }

 private:
  // Keras enters `writer.as_default(step)` and `tf.summary.record_if(step % update_freq == 0)`
  // around batches (with update_freq != "epoch"); the innermost pair decides whether any
  // summary is recorded and where batch summaries go.
  struct WriterScope {
    tensorboard::EventFileWriter* writer;
    bool record;
  };
  tensorboard::EventFileWriter& train_writer();
  tensorboard::EventFileWriter& val_writer();
  void push_writer(tensorboard::EventFileWriter& writer, int64_t step);
  void pop_writer();
  bool recording() const { return scopes_.empty() || scopes_.back().record; }
  void close_writers();
  void log_epoch_metrics(int epoch, const Logs& logs);
  void log_weights(int epoch);
  void add_learning_rate(Logs& logs) const;

  std::string log_dir_;
  TensorBoardOptions options_;
  std::unique_ptr<tensorboard::EventFileWriter> train_;
  std::unique_ptr<tensorboard::EventFileWriter> val_;
  std::vector<WriterScope> scopes_;
  int64_t global_train_batch_ = 0;
  int64_t global_test_batch_ = 0;
  double previous_epoch_iterations_ = 0;
  std::chrono::steady_clock::time_point epoch_start_;
  std::chrono::steady_clock::time_point batch_start_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

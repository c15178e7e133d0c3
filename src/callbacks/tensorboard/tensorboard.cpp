// keras.callbacks.TensorBoard (keras/src/callbacks/tensorboard.py) on the event file writer.

#include "keras/callbacks/tensorboard.h"

#include <filesystem>

#include "callbacks/tensorboard/event_file_writer.h"
#include "keras/core/errors.h"
#include "keras/layers/layer.h"
#include "keras/models/model.h"
#include "keras/optimizers/loss_scale_optimizer.h"
#include "keras/optimizers/optimizer.h"

namespace keras::callbacks {

using tensorboard::EventFileWriter;

namespace {

// Keras's optimizer.iterations: the step counter divided by the accumulation steps.
int64_t keras_iterations(const optimizers::Optimizer& optimizer) {
  auto count = optimizer.iterations().value().item<int64_t>();
  auto steps = optimizer.options().gradient_accumulation_steps;
  return steps ? count / *steps : count;
}

}  // namespace

UpdateFreq::UpdateFreq(const char* text) : UpdateFreq(std::string(text)) {}
UpdateFreq::UpdateFreq(const std::string& text) {
  check(text == "epoch" || text == "batch",
        "TensorBoard: update_freq must be \"epoch\", \"batch\" or a number of batches; got \"",
        text, "\".");
  batches_ = text == "batch" ? 1 : 0;
}
UpdateFreq::UpdateFreq(int batches) : UpdateFreq(static_cast<int64_t>(batches)) {}
UpdateFreq::UpdateFreq(int64_t batches) : batches_(batches) {
  check(batches > 0, "TensorBoard: update_freq must be a positive number of batches, \"batch\" or ",
        "\"epoch\"; got ", batches, ".");
}

TensorBoard::TensorBoard(std::string log_dir, TensorBoardOptions options)
    : log_dir_(std::move(log_dir)), options_(std::move(options)) {
  check(options_.histogram_freq >= 0, "TensorBoard: histogram_freq must be >= 0; got ",
        options_.histogram_freq, ".");
  check(options_.profile_batch >= 0,
        "profile_batch must be a non-negative integer or 2-tuple of positive integers. A pair "
        "of positive integers signifies a range of batches to profile. Found: ",
        options_.profile_batch);
  check<NotImplementedError>(options_.profile_batch == 0,
                             "TensorBoard: profiling is not available in keras-cpp; got "
                             "profile_batch=",
                             options_.profile_batch, " (must be 0).");
  check<NotImplementedError>(!options_.write_images,
                             "TensorBoard: write_images=true is not available in keras-cpp (no "
                             "image summaries); use histogram_freq for the weights.");
  check<NotImplementedError>(options_.embeddings_freq == 0,
                             "TensorBoard: the embedding projector is not available in "
                             "keras-cpp; got embeddings_freq=",
                             options_.embeddings_freq, " (must be 0).");
}

TensorBoard::~TensorBoard() = default;

EventFileWriter& TensorBoard::train_writer() {
  if (!train_)
    train_ =
        std::make_unique<EventFileWriter>((std::filesystem::path(log_dir_) / "train").string());
  return *train_;
}

EventFileWriter& TensorBoard::val_writer() {
  if (!val_)
    val_ = std::make_unique<EventFileWriter>(
        (std::filesystem::path(log_dir_) / "validation").string());
  return *val_;
}

void TensorBoard::set_model(Model* model) {
  Callback::set_model(model);
  train_.reset();  // Keras resets its writers here (a new fit writes new files)
  val_.reset();
  scopes_.clear();
  if (model == nullptr || !options_.write_graph) return;
  // Keras's keras_model_summary("keras", model, step=0): the model's JSON, for TensorBoard's
  // conceptual graph; only Functional and Sequential models.
  std::string cls = model->class_name();
  if (cls == "Functional" || cls == "Sequential")
    train_writer().text(0, "keras", model->to_json(), {"graph_keras_model", "1"});
}

void TensorBoard::push_writer(EventFileWriter& writer, int64_t step) {
  if (options_.update_freq.per_epoch()) return;
  scopes_.push_back({&writer, step % options_.update_freq.batches() == 0});
}

void TensorBoard::pop_writer() {
  if (options_.update_freq.per_epoch() || scopes_.empty()) return;
  scopes_.pop_back();
}

void TensorBoard::close_writers() {
  if (train_) train_->flush();
  if (val_) val_->flush();
}

void TensorBoard::on_train_begin(const Logs&) {
  global_train_batch_ = 0;
  previous_epoch_iterations_ = 0;
  push_writer(train_writer(), global_train_batch_);
}

void TensorBoard::on_train_end(const Logs&) {
  pop_writer();
  close_writers();
}

void TensorBoard::on_test_begin(const Logs&) {
  push_writer(val_writer(), global_test_batch_);
}

void TensorBoard::on_test_end(const Logs& logs) {
  if (model() != nullptr && model()->optimizer() && recording()) {
    auto iterations = keras_iterations(*model()->optimizer());
    for (const auto& [name, value] : logs)
      val_writer().scalar(iterations, "evaluation_" + name + "_vs_iterations",
                          static_cast<float>(value));
  }
  pop_writer();
}

void TensorBoard::on_train_batch_begin(int64_t, const Logs&) {
  ++global_train_batch_;
  if (!options_.update_freq.per_epoch()) {
    pop_writer();
    push_writer(train_writer(), global_train_batch_);
  }
  if (options_.write_steps_per_second) batch_start_ = std::chrono::steady_clock::now();
}

void TensorBoard::on_train_batch_end(int64_t, const Logs& logs) {
  // Batch summaries go to the writer of the innermost scope; with update_freq="epoch" there is
  // none, and Keras's tf.summary.scalar calls write nothing.
  if (scopes_.empty() || !recording()) return;
  EventFileWriter& writer = *scopes_.back().writer;
  if (options_.write_steps_per_second) {
    std::chrono::duration<double> run = std::chrono::steady_clock::now() - batch_start_;
    writer.scalar(global_train_batch_, "batch_steps_per_second",
                  static_cast<float>(1.0 / run.count()));
  }
  for (const auto& [name, value] : logs)
    writer.scalar(global_train_batch_, "batch_" + name, static_cast<float>(value));
}

void TensorBoard::on_test_batch_begin(int64_t, const Logs&) {
  ++global_test_batch_;
  if (!options_.update_freq.per_epoch()) {
    pop_writer();
    push_writer(val_writer(), global_test_batch_);
  }
}

void TensorBoard::on_epoch_begin(int, const Logs&) {
  if (!options_.write_steps_per_second) return;
  previous_epoch_iterations_ = static_cast<double>(keras_iterations(*model()->optimizer()));
  epoch_start_ = std::chrono::steady_clock::now();
}

void TensorBoard::on_epoch_end(int epoch, const Logs& logs) {
  log_epoch_metrics(epoch, logs);
  if (options_.histogram_freq && epoch % options_.histogram_freq == 0) log_weights(epoch);
}

// Keras's _collect_learning_rate: the (inner, for a LossScaleOptimizer) optimizer's rate.
void TensorBoard::add_learning_rate(Logs& logs) const {
  if (model() == nullptr || !model()->optimizer()) return;
  const optimizers::Optimizer* optimizer = model()->optimizer().get();
  if (auto* scaled = dynamic_cast<const optimizers::LossScaleOptimizer*>(optimizer))
    optimizer = scaled->inner_optimizer().get();
  logs["learning_rate"] = static_cast<float>(optimizer->learning_rate());
}

void TensorBoard::log_epoch_metrics(int epoch, const Logs& logs) {
  if (logs.empty()) return;
  Logs train_logs, val_logs;
  for (const auto& [name, value] : logs) {
    if (name.rfind("val_", 0) == 0)
      val_logs[name.substr(4)] = value;
    else
      train_logs[name] = value;
  }
  add_learning_rate(train_logs);
  if (options_.write_steps_per_second) {
    // float32 arithmetic, as Keras's (iterations - previous) / seconds on tensors.
    auto now = static_cast<float>(keras_iterations(*model()->optimizer()));
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - epoch_start_;
    train_logs["steps_per_second"] = (now - static_cast<float>(previous_epoch_iterations_)) /
                                     static_cast<float>(seconds.count());
  }
  if (!recording()) return;
  for (const auto& [name, value] : train_logs)
    train_writer().scalar(epoch, "epoch_" + name, static_cast<float>(value));
  for (const auto& [name, value] : val_logs)
    val_writer().scalar(epoch, "epoch_" + name, static_cast<float>(value));
}

void TensorBoard::log_weights(int epoch) {
  if (!recording()) return;
  EventFileWriter& writer = train_writer();
  for (const auto& layer : model()->layers()) {
    for (const Variable& weight : layer->weights()) {
      std::string name = weight.path();
      for (char& c : name)
        if (c == ':') c = '_';
      writer.histogram(epoch, name + "/histogram", weight.value().to_vector<double>());
    }
  }
  writer.flush();
}

}  // namespace keras::callbacks

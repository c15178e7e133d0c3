// ModelCheckpoint (keras/src/callbacks/model_checkpoint.py).

#include "keras/callbacks/model_checkpoint.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "callbacks/format.h"
#include "keras/core/errors.h"
#include "keras/models/model.h"
#include "keras/saving/save_model.h"
#include "keras/distribution/runtime.h"
#include "keras/saving/save_weights.h"
#include "trainers/sharded_variables.h"

namespace keras::callbacks {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string fixed5(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.5f", v);
  return buf;
}

}  // namespace

SaveFreq::SaveFreq(const char* text) : SaveFreq(std::string(text)) {}
SaveFreq::SaveFreq(const std::string& text) {
  check(text == "epoch", "Unrecognized save_freq: ", text,
        ". Expected save_freq are 'epoch' or integer values");
}
SaveFreq::SaveFreq(int batches) : SaveFreq(static_cast<int64_t>(batches)) {}
SaveFreq::SaveFreq(int64_t batches) : batches_(batches) {
  check(batches >= 1, "Unrecognized save_freq: ", batches,
        ". Expected save_freq are 'epoch' or positive integer values");
}

bool BatchSaveCounter::should_save(int64_t batch, int64_t save_freq) {
  int64_t add = (!last_batch_seen_ || batch <= *last_batch_seen_) ? batch + 1  // new epoch
                                                                  : batch - *last_batch_seen_;
  since_last_save_ += add;
  last_batch_seen_ = batch;
  if (since_last_save_ >= save_freq) {
    since_last_save_ = 0;
    return true;
  }
  return false;
}

ModelCheckpoint::ModelCheckpoint(std::string filepath, ModelCheckpointOptions options)
    : MonitorCallback(options.monitor, options.mode, options.initial_value_threshold, 0.0,
                      "ModelCheckpoint"),
      filepath_(std::move(filepath)), options_(std::move(options)) {
  if (options_.save_weights_only) {
    check(ends_with(filepath_, ".weights.h5"),
          "When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
          "end in `.weights.h5` (Keras weights format). Received: filepath=",
          filepath_);
  } else {
    check(ends_with(filepath_, ".keras") || ends_with(filepath_, ".h5"),
          "The filepath provided must end in `.keras` (Keras model format). Received: filepath=",
          filepath_);
    if (ends_with(filepath_, ".h5"))
      throw NotImplementedError(
          "ModelCheckpoint: keras-cpp writes whole models in the Keras 3 format only; the "
          "legacy .h5 format is read but not written. Use a \".keras\" filepath (or "
          "save_weights_only=true with \".weights.h5\"). Received: filepath=" + filepath_);
  }
}

void ModelCheckpoint::on_train_batch_end(int64_t batch, const Logs& logs) {
  if (options_.save_freq.per_epoch()) return;
  if (counter_.should_save(batch, options_.save_freq.batches()))
    save_model(current_epoch_, batch, logs);
}

void ModelCheckpoint::on_epoch_begin(int epoch, const Logs&) { current_epoch_ = epoch; }

void ModelCheckpoint::on_epoch_end(int epoch, const Logs& logs) {
  if (!monitor_op_set()) set_monitor_op();
  if (options_.save_freq.per_epoch()) save_model(epoch, std::nullopt, logs);
}

std::string ModelCheckpoint::file_path(int epoch, std::optional<int64_t> batch,
                                       const Logs& logs) const {
  std::map<std::string, detail::FormatValue> fields;
  for (const auto& [k, v] : logs) fields[k] = v;
  fields["epoch"] = int64_t{epoch} + 1;
  if (batch && !logs.count("batch")) fields["batch"] = *batch + 1;
  return detail::py_format(filepath_, fields);
}

bool ModelCheckpoint::should_save_model(int epoch, const Logs& logs, const std::string& filepath) {
  if (!options_.save_best_only) {
    if (options_.verbose > 0)
      std::cout << "\nEpoch " << epoch + 1 << ": saving model to " << filepath << "\n";
    return true;
  }
  auto it = logs.find(monitor_);
  if (it == logs.end()) {
    detail::warn("Can save best model only with " + monitor_ + " available.");
    return true;
  }
  double current = it->second;
  std::string best_str = best_ ? fixed5(*best_) : "None";
  if (!monitor_op_set()) set_monitor_op();  // a batch-level save before the first epoch end
  if (is_improvement(current, best_)) {
    if (options_.verbose > 0)
      std::cout << "\nEpoch " << epoch + 1 << ": " << monitor_ << " improved from " << best_str
                << " to " << fixed5(current) << ", saving model to " << filepath << "\n";
    best_ = current;
    return true;
  }
  if (options_.verbose > 0)
    std::cout << "\nEpoch " << epoch + 1 << ": " << monitor_ << " did not improve from "
              << best_str << "\n";
  return false;
}

void ModelCheckpoint::save_model(int epoch, std::optional<int64_t> batch, const Logs& logs) {
  std::string filepath = file_path(epoch, batch, logs);
  if (!should_save_model(epoch, logs, filepath)) return;
  // In a job of several processes the replicas are equal (ModelParallel's sharded variables
  // gathered whole by every process meanwhile); process 0 alone writes the file.
  trainers::WholeValuesScope whole(model());
  if (distribution::process_id() != 0) return;
  namespace fs = std::filesystem;
  check<IOError>(!fs::is_directory(filepath),
                 "Please specify a non-directory filepath for ModelCheckpoint. Filepath used is "
                 "an existing directory: ",
                 filepath);
  fs::path dir = fs::path(filepath).parent_path();
  std::error_code ec;
  if (!dir.empty() && !fs::exists(dir)) fs::create_directories(dir, ec);
  check<IOError>(!ec, "ModelCheckpoint: cannot create the folder ", dir.string(), " for ", filepath,
                 ": ", ec.message(), ".");
  if (options_.save_weights_only) saving::save_weights(*model(), filepath);
  else saving::save_model(*model(), filepath);
  if (options_.verbose > 0)
    std::cout << "\nEpoch " << epoch + 1 << ": finished saving model to " << filepath << "\n";
}

}  // namespace keras::callbacks

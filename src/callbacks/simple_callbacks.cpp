// LearningRateScheduler, CSVLogger and TerminateOnNaN (keras/src/callbacks/
// {learning_rate_scheduler,csv_logger,terminate_on_nan}.py).

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "callbacks/format.h"
#include "keras/callbacks/csv_logger.h"
#include "keras/callbacks/learning_rate_scheduler.h"
#include "keras/callbacks/terminate_on_nan.h"
#include "keras/core/errors.h"
#include "keras/distribution/runtime.h"
#include "keras/models/model.h"

namespace keras::callbacks {

// ---- LearningRateScheduler --------------------------------------------------------------------

LearningRateScheduler::LearningRateScheduler(Schedule schedule, int verbose)
    : schedule_(std::move(schedule)), verbose_(verbose) {
  check(static_cast<bool>(schedule_), "LearningRateScheduler: the schedule is empty.");
}

void LearningRateScheduler::on_epoch_begin(int epoch, const Logs&) {
  const optimizers::OptimizerPtr& optimizer = model()->optimizer();
  double lr = schedule_(epoch, optimizer->learning_rate());
  check(std::isfinite(lr), "The output of the `schedule` function should be a float. Got: ",
        detail::py_float(lr));
  optimizer->set_learning_rate(lr);
  if (verbose_ > 0)
    std::cout << "\nEpoch " << epoch + 1 << ": LearningRateScheduler setting learning rate to "
              << detail::py_float(lr) << ".\n";
}

void LearningRateScheduler::on_epoch_end(int, const Logs&) {
  add_to_epoch_logs("learning_rate", model()->optimizer()->learning_rate());
}

// ---- CSVLogger --------------------------------------------------------------------------------

CSVLogger::CSVLogger(std::string filename, std::string separator, bool append)
    : filename_(std::move(filename)), separator_(std::move(separator)), append_(append) {
  check(separator_.size() == 1, "CSVLogger: separator must be a 1-character string; got \"",
        separator_, "\".");
}

void CSVLogger::on_train_begin(const Logs&) {
  text_.clear();
  append_header_ = true;
  if (append_ && std::filesystem::exists(filename_)) {
    std::ifstream in(filename_, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    text_ = s.str();
    append_header_ = text_.empty();  // Keras: not len(f.readline())
  }
  keys_.reset();
  header_done_ = false;
  // Keras opens (and so creates or truncates) the file here. In a job of several processes,
  // process 0 alone writes it.
  if (distribution::process_id() == 0) detail::write_file_atomic(filename_, text_);
}

// Python's csv.writer with the excel dialect: fields holding the delimiter, a quote or a line
// break are quoted (quotes doubled); rows end with "\r\n".
std::string CSVLogger::row(const std::vector<std::string>& fields) const {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += separator_;
    const std::string& f = fields[i];
    if (f.find_first_of(separator_ + "\"\r\n") != std::string::npos) {
      out += '"';
      for (char c : f) out += c == '"' ? std::string("\"\"") : std::string(1, c);
      out += '"';
    } else {
      out += f;
    }
  }
  return out + "\r\n";
}

void CSVLogger::on_epoch_end(int epoch, const Logs& logs) {
  if (!keys_) {
    std::vector<std::string> keys;
    bool val_found = false;
    for (const auto& [k, v] : logs) {
      keys.push_back(k);
      val_found = val_found || k.rfind("val_", 0) == 0;
    }
    if (!val_found && !keys.empty()) {
      size_t n = keys.size();
      for (size_t i = 0; i < n; ++i) keys.push_back("val_" + keys[i]);
    }
    keys_ = keys;
  }
  if (!header_done_) {
    header_done_ = true;
    if (append_header_) {
      std::vector<std::string> header{"epoch"};
      header.insert(header.end(), keys_->begin(), keys_->end());
      text_ += row(header);
    }
  }
  std::vector<std::string> fields{std::to_string(epoch)};
  for (const std::string& k : *keys_) {
    auto it = logs.find(k);
    fields.push_back(it == logs.end() ? "NA" : detail::py_float(it->second));
  }
  text_ += row(fields);
  if (distribution::process_id() == 0) detail::write_file_atomic(filename_, text_);
}

void CSVLogger::on_train_end(const Logs&) { keys_.reset(); }

// ---- TerminateOnNaN ---------------------------------------------------------------------------

void TerminateOnNaN::on_train_batch_end(int64_t batch, const Logs& logs) {
  auto it = logs.find("loss");
  if (it == logs.end()) return;
  double loss = it->second;
  if (!std::isnan(loss) && !std::isinf(loss)) return;
  if (raise_error_)
    throw RuntimeError("NaN or Inf loss encountered at batch " + std::to_string(batch) +
                       ". Loss value: " + detail::py_float(loss) +
                       ". Terminating training immediately.");
  std::cout << "Batch " << batch << ": Invalid loss, terminating training\n";
  model()->set_stop_training(true);
}

}  // namespace keras::callbacks

#pragma once
// keras.callbacks.CSVLogger: one CSV row per epoch ("epoch", then the sorted metric names;
// Python's csv module layout: excel dialect, "\r\n" line ends, minimal quoting). The file is
// rewritten atomically (temp file + rename) after every epoch.

#include <optional>
#include <string>
#include <vector>

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Writes every epoch's logs as a row of the CSV file `filename` (keras.callbacks.CSVLogger).
class CSVLogger : public Callback {
 public:
  /// `append`: keep the rows of an existing file (the header is written only when it is
  /// empty or missing).
  explicit CSVLogger(std::string filename, std::string separator = ",", bool append = false);

  void on_train_begin(const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;
  void on_train_end(const Logs& logs) override;

 private:
  std::string row(const std::vector<std::string>& fields) const;

  std::string filename_;
  std::string separator_;
  bool append_;
  std::string text_;  // the file's content so far
  bool append_header_ = true;
  std::optional<std::vector<std::string>> keys_;
  bool header_done_ = false;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

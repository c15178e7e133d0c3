#pragma once
// keras.callbacks.ProgbarLogger: "Epoch 1/5" and the progress bar (utils::Progbar) during fit,
// evaluate and predict. fit adds one itself when verbose is not 0.

#include <memory>

#include "keras/callbacks/callback.h"
#include "keras/utils/progbar.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Prints the epoch header and a progress bar during fit, evaluate and predict
/// (keras.callbacks.ProgbarLogger).
class ProgbarLogger : public Callback {
 public:
  /// `out` (default std::cout) and `dynamic_display` as in utils::ProgbarOptions.
  explicit ProgbarLogger(std::ostream* out = nullptr,
                         std::optional<bool> dynamic_display = std::nullopt);

  void set_params(const CallbackParams& params) override;
  void on_train_begin(const Logs& logs) override;
  void on_test_begin(const Logs& logs) override;
  void on_predict_begin(const Logs& logs) override;
  void on_epoch_begin(int epoch, const Logs& logs) override;
  void on_train_batch_end(int64_t batch, const Logs& logs) override;
  void on_test_batch_end(int64_t batch, const Logs& logs) override;
  void on_predict_batch_end(int64_t batch, const Logs& logs) override;
  void on_epoch_end(int epoch, const Logs& logs) override;
  void on_test_end(const Logs& logs) override;
  void on_predict_end(const Logs& logs) override;

 private:
  void reset_progbar();
  void maybe_init_progbar();
  void update_progbar(int64_t batch, const Logs& logs);
  void finalize_progbar(const Logs& logs);

  std::ostream* out_;
  std::optional<bool> dynamic_display_;
  int verbose_ = 1;
  int epochs_ = 1;
  std::optional<int64_t> target_;
  int64_t seen_ = 0;
  bool called_in_fit_ = false;
  std::unique_ptr<utils::Progbar> progbar_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop

// CallbackList, History and ProgbarLogger (keras/src/callbacks/{callback_list,history,
// progbar_logger}.py).

#include "keras/callbacks/callback.h"

#include "keras/callbacks/history.h"
#include "keras/callbacks/progbar_logger.h"

#include <iostream>

namespace keras::callbacks {

CallbackList::CallbackList(std::vector<CallbackPtr> callbacks) : callbacks_(std::move(callbacks)) {}

void CallbackList::set_params(const CallbackParams& params) {
  for (auto& c : callbacks_) c->set_params(params);
}
void CallbackList::set_model(Model* model) {
  for (auto& c : callbacks_) c->set_model(model);
}

namespace {

// Calls `hook` on every callback, in order.
template <typename... Params, typename... Args>
void forward(const std::vector<CallbackPtr>& callbacks, void (Callback::*hook)(Params...),
             const Args&... args) {
  for (const auto& c : callbacks) ((*c).*hook)(args...);
}

}  // namespace

void CallbackList::on_train_begin(const Logs& logs) {
  forward(callbacks_, &Callback::on_train_begin, logs);
}
void CallbackList::on_train_end(const Logs& logs) {
  forward(callbacks_, &Callback::on_train_end, logs);
}
void CallbackList::on_epoch_begin(int epoch, const Logs& logs) {
  forward(callbacks_, &Callback::on_epoch_begin, epoch, logs);
}
void CallbackList::on_epoch_end(int epoch, const Logs& logs) {
  // One logs object for all, which callbacks may extend (Callback::add_to_epoch_logs).
  Logs shared = logs;
  for (const auto& c : callbacks_) {
    c->epoch_logs_ = &shared;
    try {
      c->on_epoch_end(epoch, shared);
    } catch (...) {
      c->epoch_logs_ = nullptr;
      throw;
    }
    c->epoch_logs_ = nullptr;
  }
}
void CallbackList::on_train_batch_begin(int64_t batch, const Logs& logs) {
  forward(callbacks_, &Callback::on_train_batch_begin, batch, logs);
}
void CallbackList::on_train_batch_end(int64_t batch, const Logs& logs) {
  forward(callbacks_, &Callback::on_train_batch_end, batch, logs);
}
void CallbackList::on_test_begin(const Logs& logs) {
  forward(callbacks_, &Callback::on_test_begin, logs);
}
void CallbackList::on_test_end(const Logs& logs) {
  forward(callbacks_, &Callback::on_test_end, logs);
}
void CallbackList::on_test_batch_begin(int64_t batch, const Logs& logs) {
  forward(callbacks_, &Callback::on_test_batch_begin, batch, logs);
}
void CallbackList::on_test_batch_end(int64_t batch, const Logs& logs) {
  forward(callbacks_, &Callback::on_test_batch_end, batch, logs);
}
void CallbackList::on_predict_begin(const Logs& logs) {
  forward(callbacks_, &Callback::on_predict_begin, logs);
}
void CallbackList::on_predict_end(const Logs& logs) {
  forward(callbacks_, &Callback::on_predict_end, logs);
}
void CallbackList::on_predict_batch_begin(int64_t batch, const Logs& logs) {
  forward(callbacks_, &Callback::on_predict_batch_begin, batch, logs);
}
void CallbackList::on_predict_batch_end(int64_t batch, const Logs& logs) {
  forward(callbacks_, &Callback::on_predict_batch_end, batch, logs);
}

void History::on_train_begin(const Logs&) {
  epoch.clear();
}

void History::on_epoch_end(int e, const Logs& logs) {
  epoch.push_back(e);
  for (const auto& [name, value] : logs) history[name].push_back(value);
}

ProgbarLogger::ProgbarLogger(std::ostream* out, std::optional<bool> dynamic_display)
    : out_(out), dynamic_display_(dynamic_display) {}

void ProgbarLogger::set_params(const CallbackParams& params) {
  Callback::set_params(params);
  verbose_ = params.verbose;
  epochs_ = params.epochs;
  target_ = params.steps;
}

void ProgbarLogger::reset_progbar() {
  seen_ = 0;
  progbar_.reset();
}

void ProgbarLogger::maybe_init_progbar() {
  if (progbar_) return;
  // Logs are running means already, so no value is averaged again (Keras passes
  // stateless_metrics=set()).
  progbar_ = std::make_unique<utils::Progbar>(
      target_, utils::ProgbarOptions{.verbose = verbose_,
                                     .stateless_metrics = std::set<std::string>{},
                                     .out = out_,
                                     .dynamic_display = dynamic_display_});
}

void ProgbarLogger::update_progbar(int64_t batch, const Logs& logs) {
  maybe_init_progbar();
  seen_ = batch + 1;
  if (verbose_ == 1) progbar_->update(seen_, {logs.begin(), logs.end()}, false);
}

void ProgbarLogger::finalize_progbar(const Logs& logs) {
  if (!target_) target_ = seen_;
  maybe_init_progbar();
  progbar_->update(*target_, {logs.begin(), logs.end()}, true);
}

void ProgbarLogger::on_train_begin(const Logs&) {
  called_in_fit_ = true;
}

void ProgbarLogger::on_test_begin(const Logs&) {
  if (called_in_fit_) return;
  reset_progbar();
  maybe_init_progbar();
}

void ProgbarLogger::on_predict_begin(const Logs&) {
  reset_progbar();
  maybe_init_progbar();
}

void ProgbarLogger::on_epoch_begin(int epoch, const Logs&) {
  reset_progbar();
  maybe_init_progbar();
  if (verbose_ && epochs_ > 1)
    *(out_ ? out_ : &std::cout) << "Epoch " << epoch + 1 << "/" << epochs_ << "\n";
}

void ProgbarLogger::on_train_batch_end(int64_t batch, const Logs& logs) {
  update_progbar(batch, logs);
}
void ProgbarLogger::on_test_batch_end(int64_t batch, const Logs& logs) {
  if (!called_in_fit_) update_progbar(batch, logs);
}
void ProgbarLogger::on_predict_batch_end(int64_t batch, const Logs&) {
  update_progbar(batch, {});
}
void ProgbarLogger::on_epoch_end(int, const Logs& logs) {
  finalize_progbar(logs);
}
void ProgbarLogger::on_test_end(const Logs& logs) {
  if (!called_in_fit_) finalize_progbar(logs);
}
void ProgbarLogger::on_predict_end(const Logs& logs) {
  finalize_progbar(logs);
}

}  // namespace keras::callbacks

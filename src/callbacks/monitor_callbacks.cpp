// MonitorCallback, EarlyStopping and ReduceLROnPlateau (keras/src/callbacks/
// {monitor_callback,early_stopping,reduce_lr_on_plateau}.py).

#include <cmath>
#include <iostream>

#include "callbacks/format.h"
#include "keras/callbacks/early_stopping.h"
#include "keras/callbacks/reduce_lr_on_plateau.h"
#include "keras/core/errors.h"
#include "keras/models/model.h"

namespace keras::callbacks {

namespace {

std::string available(const Logs& logs) {
  std::string out;
  for (const auto& [k, v] : logs) out += (out.empty() ? "" : ",") + k;
  return out;
}

std::optional<double> lookup(const Logs& logs, const std::string& key) {
  auto it = logs.find(key);
  if (it == logs.end()) return std::nullopt;
  return it->second;
}

}  // namespace

MonitorCallback::MonitorCallback(std::string monitor, std::string mode,
                                 std::optional<double> baseline, double min_delta,
                                 std::string class_name)
    : monitor_(std::move(monitor)), mode_(std::move(mode)), best_(baseline),
      min_delta_(std::fabs(min_delta)), class_name_(std::move(class_name)) {
  if (mode_ != "auto" && mode_ != "min" && mode_ != "max") {
    detail::warn(class_name_ + " mode '" + mode_ + "' is unknown, fallback to auto mode.");
    mode_ = "auto";
  }
}

void MonitorCallback::set_monitor_op() {
  if (mode_ == "min") {
    op_ = Op::Less;
  } else if (mode_ == "max") {
    op_ = Op::Greater;
  } else {
    std::string name = monitor_;
    if (name.rfind("val_", 0) == 0) name = name.substr(4);
    if (name == "loss") op_ = Op::Less;
    if (model() != nullptr) {
      for (const auto& m : model()->metrics()) {
        if (m->name() != name || m->direction().empty()) continue;
        op_ = m->direction() == "up" ? Op::Greater : Op::Less;
      }
    }
    check(op_ != Op::None, class_name_, " callback received monitor=", monitor_,
          ", but Keras isn't able to automatically determine whether that metric should be "
          "maximized or minimized. Pass `mode='max'` in order to monitor based on the highest "
          "metric value, or pass `mode='min'` in order to use the lowest value.");
  }
  if (op_ == Op::Less) min_delta_ = -min_delta_;
}

bool MonitorCallback::is_improvement(double value, std::optional<double> reference) const {
  if (!reference) return true;
  return op_ == Op::Less ? value - min_delta_ < *reference : value - min_delta_ > *reference;
}

// ---- EarlyStopping ----------------------------------------------------------------------------

EarlyStopping::EarlyStopping(EarlyStoppingOptions options)
    : MonitorCallback(options.monitor, options.mode, options.baseline, options.min_delta,
                      "EarlyStopping"),
      options_(std::move(options)) {}

void EarlyStopping::on_train_begin(const Logs&) {
  wait_ = 0;
  stopped_epoch_ = 0;
  best_.reset();
  best_weights_.reset();
  best_epoch_ = 0;
}

void EarlyStopping::on_epoch_end(int epoch, const Logs& logs) {
  if (!monitor_op_set()) set_monitor_op();
  std::optional<double> current = lookup(logs, monitor_);
  if (!current) {
    detail::warn("Early stopping conditioned on metric `" + monitor_ +
                 "` which is not available. Available metrics are: " + available(logs));
  }
  if (!current || epoch < options_.start_from_epoch) return;
  if (options_.restore_best_weights && !best_weights_) {
    best_weights_ = model()->get_weights();
    best_epoch_ = epoch;
  }
  ++wait_;
  if (is_improvement(*current, best_)) {
    best_ = current;
    best_epoch_ = epoch;
    if (options_.restore_best_weights) best_weights_ = model()->get_weights();
    // Only restart waiting when both the baseline and the previous best are beaten.
    if (!options_.baseline || is_improvement(*current, options_.baseline)) wait_ = 0;
    return;
  }
  if (wait_ >= options_.patience && epoch > 0) {
    stopped_epoch_ = epoch;
    model()->set_stop_training(true);
  }
}

void EarlyStopping::on_train_end(const Logs&) {
  if (stopped_epoch_ > 0 && options_.verbose > 0)
    std::cout << "Epoch " << stopped_epoch_ + 1 << ": early stopping\n";
  if (options_.restore_best_weights && best_weights_) {
    if (options_.verbose > 0)
      std::cout << "Restoring model weights from the end of the best epoch: " << best_epoch_ + 1
                << ".\n";
    model()->set_weights(*best_weights_);
  }
}

// ---- ReduceLROnPlateau ------------------------------------------------------------------------

ReduceLROnPlateau::ReduceLROnPlateau(ReduceLROnPlateauOptions options)
    : MonitorCallback(options.monitor, options.mode, std::nullopt, options.min_delta,
                      "ReduceLROnPlateau"),
      options_(std::move(options)) {
  check(options_.factor < 1.0, "ReduceLROnPlateau does not support a factor >= 1.0. Received factor=",
        detail::py_float(options_.factor));
}

void ReduceLROnPlateau::on_train_begin(const Logs&) {
  best_.reset();
  cooldown_counter_ = 0;
  wait_ = 0;
}

void ReduceLROnPlateau::on_epoch_end(int epoch, const Logs& logs_in) {
  if (!monitor_op_set()) set_monitor_op();
  const optimizers::OptimizerPtr& optimizer = model()->optimizer();
  Logs logs = logs_in;
  logs["learning_rate"] = optimizer->learning_rate();
  add_to_epoch_logs("learning_rate", logs["learning_rate"]);
  std::optional<double> current = lookup(logs, monitor_);
  if (!current) {
    detail::warn("Learning rate reduction is conditioned on metric `" + monitor_ +
                 "` which is not available. Available metrics are: " + available(logs) + ".");
    return;
  }
  if (in_cooldown()) {
    --cooldown_counter_;
    wait_ = 0;
  }
  if (is_improvement(*current, best_)) {
    best_ = current;
    wait_ = 0;
  } else if (!in_cooldown()) {
    ++wait_;
    if (wait_ >= options_.patience) {
      double old_lr = optimizer->learning_rate();
      if (old_lr > static_cast<double>(static_cast<float>(options_.min_lr))) {
        double new_lr = std::max(old_lr * options_.factor, options_.min_lr);
        optimizer->set_learning_rate(new_lr);
        if (options_.verbose > 0)
          std::cout << "\nEpoch " << epoch + 1 << ": ReduceLROnPlateau reducing learning rate to "
                    << detail::py_float(new_lr) << ".\n";
        cooldown_counter_ = options_.cooldown;
        wait_ = 0;
      }
    }
  }
}

}  // namespace keras::callbacks

#pragma once
// A model whose training reports a scripted loss: epoch k (one batch per epoch) logs
// loss = script[k] and sets its kernel to k, so tests can tell which epoch's weights a
// callback restored.

#include <limits>
#include <vector>

#include "keras/keras.h"

namespace keras::test {

class ScriptedModel : public Model {
 public:
  explicit ScriptedModel(std::vector<double> script) : script_(std::move(script)) {
    dense_ = track("dense", layers::Dense(1, {.use_bias = false}));
  }
  Tensor call(const Tensor& x, const CallContext&) override { return dense_(x); }
  Logs train_step(const StepData&) override {
    double v = calls_ < script_.size() ? script_[calls_] : script_.back();
    dense_->own_weights()[0].assign(ops::full({1, 1}, static_cast<double>(calls_), DType::Float32));
    ++calls_;
    loss_tracker().update_state(ops::full({}, v, DType::Float32));
    return get_metrics_result();
  }
  /// The kernel's value (the epoch whose weights the model holds).
  double kernel() const { return dense_->own_weights()[0].value().item<double>(); }
  size_t calls() const { return calls_; }

  /// Ready to fit: built on x (1 sample, 1 feature), compiled with SGD(lr) and mse.
  static std::shared_ptr<ScriptedModel> make(std::vector<double> script, double lr = 1.0) {
    auto m = std::make_shared<ScriptedModel>(std::move(script));
    (*m)(ops::ones({1, 1}));
    m->compile({.optimizer = optimizers::deserialize(
                    {{"class_name", "SGD"}, {"config", {{"learning_rate", lr}}}}),
                .loss = "mse"});
    return m;
  }
  /// fit for `epochs` epochs of one batch.
  std::shared_ptr<callbacks::History> run(int epochs, std::vector<callbacks::CallbackPtr> cbs) {
    return fit(ops::ones({1, 1}), ops::ones({1, 1}),
               {.batch_size = 1, .epochs = epochs, .verbose = 0, .callbacks = std::move(cbs),
                .shuffle = false});
  }

 private:
  std::vector<double> script_;
  size_t calls_ = 0;
  LayerPtr<layers::DenseLayer> dense_;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace keras::test

// SwapEMAWeights (keras/src/callbacks/swap_ema_weights.py).

#include "keras/callbacks/swap_ema_weights.h"

#include "keras/core/errors.h"
#include "keras/models/model.h"

namespace keras::callbacks {

void SwapEMAWeights::swap_variables() {
  const optimizers::OptimizerPtr& optimizer = model()->optimizer();
  check(optimizer->options().use_ema,
        "SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. Received: "
        "use_ema=False");
  optimizer->swap_ema_weights(optimizer->trainable_variables());
}

// The averages take the values the model holds (the averages), so that fit's final
// finalize_variable_values leaves the averages in the model. Only the optimizer's public
// swap is used: swap (model: trained, averages: EMA), then put the EMA values back.
void SwapEMAWeights::finalize_ema_values() {
  const optimizers::OptimizerPtr& optimizer = model()->optimizer();
  std::vector<Variable> vars = optimizer->trainable_variables();
  std::vector<Tensor> ema;
  for (const Variable& v : vars) ema.push_back(v.value());
  optimizer->swap_ema_weights(vars);
  for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(ema[i]);
}

void SwapEMAWeights::on_epoch_begin(int, const Logs&) {
  if (swap_on_epoch_ && ema_weights_in_model_) {
    swap_variables();
    ema_weights_in_model_ = false;
  }
}

void SwapEMAWeights::on_epoch_end(int epoch, const Logs&) {
  if (swap_on_epoch_ && !ema_weights_in_model_) {
    swap_variables();
    ema_weights_in_model_ = true;
    // fit ends with finalize_variable_values (model := averages), so after the last epoch the
    // averages must hold the EMA values the model now holds.
    if (epoch == params().epochs - 1) finalize_ema_values();
  }
}

void SwapEMAWeights::on_test_begin(const Logs&) {
  if (!ema_weights_in_model_) {
    swap_variables();
    ema_weights_in_model_ = true;
  }
}

void SwapEMAWeights::on_test_end(const Logs&) {
  if (ema_weights_in_model_) {
    swap_variables();
    ema_weights_in_model_ = false;
  }
}

void SwapEMAWeights::on_predict_begin(const Logs&) {
  if (!ema_weights_in_model_) {
    swap_variables();
    ema_weights_in_model_ = true;
  }
}

// Keras tests `if not self._ema_weights_in_model` here (so predict leaves the averages in the
// model); keras-cpp swaps back, as on_test_end does.
void SwapEMAWeights::on_predict_end(const Logs&) {
  if (ema_weights_in_model_) {
    swap_variables();
    ema_weights_in_model_ = false;
  }
}

}  // namespace keras::callbacks

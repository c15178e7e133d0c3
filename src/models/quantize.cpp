// Model::quantize (keras/src/models/model.py): every layer without sublayers is quantized where
// it can be; the others are skipped with Keras's warning. GPTQ and AWQ then calibrate.

#include <iostream>
#include <set>

#include "keras/models/model.h"
#include "models/flatten_layers.h"
#include "quantizers/calibrate.h"
#include "trainers/compile_state.h"

namespace keras {

void Model::quantize(const std::string& mode, quantizers::QuantizationConfigPtr config) {
  if (!config)
    config = std::make_shared<quantizers::QuantizationConfig>(
        quantizers::QuantizationConfig::default_for(mode));
  // Checked before any layer changes, so a missing dataset or structure leaves the model as it
  // was (Keras finds out after quantizing the layers).
  const bool calibrated = mode == "gptq" || mode == "awq";
  if (calibrated) quantizers::detail::check_calibration_config(mode, config);
  const std::vector<std::shared_ptr<Layer>> layers = detail::flatten_layers(*this);
  std::set<std::string> warned;
  bool modified = false;
  for (const auto& layer : layers) {
    if (detail::has_sublayers(*layer)) continue;
    try {
      layer->quantize(mode, config);
      modified = true;
    } catch (const NotImplementedError& e) {
      // Python shows a warning once per distinct message.
      if (warned.insert(e.what()).second) std::cerr << "UserWarning: " << e.what() << "\n";
    }
  }
  // GPTQ and AWQ calibrate the blocks of the structure, now that their Dense layers are in
  // the mode (Keras's gptq_quantize / awq_quantize).
  if (calibrated) quantizers::detail::calibrate_model(mode, config);
  if (modified) reset_compiled_steps();
}

void Model::reset_compiled_steps() {
  auto reset = [](trainers::CompiledStep& step) {
    std::lock_guard<std::mutex> lock(step.mutex);
    step.function = CompiledFunction();
  };
  if (compile_state_) {
    reset(compile_state_->train);
    reset(compile_state_->test);
    reset(compile_state_->predict);
  }
  if (compiled_predict_) reset(*compiled_predict_);
}

}  // namespace keras

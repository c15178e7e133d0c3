// Model::quantize (keras/src/models/model.py): every layer without sublayers is quantized where
// it can be; the others are skipped with Keras's warning.

#include <iostream>
#include <set>

#include "keras/models/model.h"
#include "trainers/compile_state.h"

namespace keras {
namespace {

// Keras's _flatten_layers(): the model's layers and their sublayers, each once, depth first.
void flatten(const Layer& layer, std::vector<std::shared_ptr<Layer>>& out,
             std::set<const Layer*>& seen) {
  std::vector<std::shared_ptr<Layer>> children;
  if (auto* model = dynamic_cast<const Model*>(&layer)) children = model->layers();
  for (const auto& [attr, child] : layer.tracked_layers()) children.push_back(child);
  for (const auto& child : children) {
    if (!child || !seen.insert(child.get()).second) continue;
    out.push_back(child);
    flatten(*child, out, seen);
  }
}

bool has_sublayers(const Layer& layer) {
  if (dynamic_cast<const Model*>(&layer)) return true;
  return !layer.tracked_layers().empty();
}

}  // namespace

void Model::quantize(const std::string& mode, quantizers::QuantizationConfigPtr config) {
  if (!config)
    config = std::make_shared<quantizers::QuantizationConfig>(
        quantizers::QuantizationConfig::default_for(mode));
  std::vector<std::shared_ptr<Layer>> layers;
  std::set<const Layer*> seen{this};
  flatten(*this, layers, seen);
  std::set<std::string> warned;
  bool modified = false;
  for (const auto& layer : layers) {
    if (has_sublayers(*layer)) continue;
    try {
      layer->quantize(mode, config);
      modified = true;
    } catch (const NotImplementedError& e) {
      // Python shows a warning once per distinct message.
      if (warned.insert(e.what()).second) std::cerr << "UserWarning: " << e.what() << "\n";
    }
  }
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

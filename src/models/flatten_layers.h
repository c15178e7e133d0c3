#pragma once
// Keras's _flatten_layers(): a layer's sublayers (a model's layers and every tracked
// sublayer), each once, depth first. Model::quantize and GPTQ/AWQ calibration walk it.

#include <memory>
#include <vector>

#include "keras/layers/layer.h"

namespace keras::detail {

/// The sublayers of `root` (not root itself), depth first, each once.
std::vector<std::shared_ptr<Layer>> flatten_layers(const Layer& root);
/// Whether the layer has sublayers (a model, or a layer that tracks others).
bool has_sublayers(const Layer& layer);

}  // namespace keras::detail

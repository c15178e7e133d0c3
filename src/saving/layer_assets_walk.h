#pragma once
// The assets/ folder of a .keras archive (saving_lib's assets_store): each layer that is a
// saving::LayerAssets keeps its files under assets/<its path>/, the path being the one its
// variables have in model.weights.h5 ("layers/string_lookup").

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "keras/layers/layer.h"

namespace keras::saving {

/// Archive member name -> contents, for every asset file of `model`'s layers.
std::map<std::string, std::string> collect_assets(const Layer& model);

/// Hands each LayerAssets layer of `model` the files under its folder of `members` (after the
/// weights are loaded, as Keras's _load_state does).
void restore_assets(Layer& model, const std::map<std::string, std::vector<uint8_t>>& members);

}  // namespace keras::saving

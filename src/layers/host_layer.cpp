#include "keras/layers/host_layer.h"

#include "keras/models/model.h"

namespace keras::layers {

bool contains_host_computed_layer(const Layer& layer) {
  if (dynamic_cast<const HostComputedLayer*>(&layer)) return true;
  if (const auto* model = dynamic_cast<const Model*>(&layer))
    for (const auto& child : model->layers())
      if (contains_host_computed_layer(*child)) return true;
  for (const auto& [attribute, child] : layer.tracked_layers())
    if (child && contains_host_computed_layer(*child)) return true;
  return false;
}

}  // namespace keras::layers

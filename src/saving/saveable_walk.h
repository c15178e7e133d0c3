#pragma once
// The children of a layer in the order and under the paths of Keras's
// saving_lib._walk_saveable, shared by the .weights.h5 writer and reader and the sharded
// weights: the layers of a Sequential/Functional first, as "layers/<snake_case>[_k]"; then the
// tracked attributes sorted by name (private ones, "_x", last); a subclassed Model also has
// its `layers` property among them, so its sublayers are saved as "layers/<snake_case>[_k]"
// unless an attribute sorting before "layers" ("head") reached them first.

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "keras/models/model.h"

namespace keras::saving::detail {

/// The path of a child `b` under the group `a` ("" is the root), as the weights files write it.
inline std::string join_path(const std::string& a, const std::string& b) {
  return a.empty() ? b : a + "/" + b;
}

/// (path relative to `layer`, child) in Keras's order; a child may appear more than once (the
/// first one saves it, as saving_lib skips objects already visited).
inline std::vector<std::pair<std::string, std::shared_ptr<Layer>>> saveable_children(
    const Layer& layer) {
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> out;
  // saving_lib._save_container_state: names by class, counted over every element.
  auto add_container = [&](const std::vector<std::shared_ptr<Layer>>& children) {
    std::map<std::string, int> used;
    for (const auto& child : children) {
      std::string name = to_snake_case(child->class_name());
      auto [it, fresh] = used.emplace(name, 0);
      if (!fresh) {
        name += '_';
        name += std::to_string(++it->second);
      }
      out.emplace_back("layers/" + name, child);
    }
  };
  auto* model = dynamic_cast<const Model*>(&layer);
  const bool graph_model =
      model && (layer.class_name() == "Sequential" || layer.class_name() == "Functional");
  if (graph_model) add_container(model->layers());
  // saving_lib._name_key: sorted(dir(obj)) with "_x" sorted as "~_x" (after the letters).
  auto key = [](const std::string& name) { return name.rfind('_', 0) == 0 ? "~" + name : name; };
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> attributes(
      layer.tracked_layers().begin(), layer.tracked_layers().end());
  std::stable_sort(attributes.begin(), attributes.end(),
                   [&](const auto& a, const auto& b) { return key(a.first) < key(b.first); });
  bool container_done = graph_model || !model;
  for (const auto& [attribute, child] : attributes) {
    if (!container_done && key(attribute) > "layers") {
      add_container(model->layers());
      container_done = true;
    }
    if (model && attribute == "layers") continue;  // Model.layers is the property
    out.emplace_back(attribute, child);
  }
  if (!container_done) add_container(model->layers());
  return out;
}

}  // namespace keras::saving::detail

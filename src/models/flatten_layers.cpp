#include "models/flatten_layers.h"

#include <set>

#include "keras/models/model.h"

namespace keras::detail {
namespace {

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

}  // namespace

std::vector<std::shared_ptr<Layer>> flatten_layers(const Layer& root) {
  std::vector<std::shared_ptr<Layer>> out;
  std::set<const Layer*> seen{&root};
  flatten(root, out, seen);
  return out;
}

bool has_sublayers(const Layer& layer) {
  if (dynamic_cast<const Model*>(&layer)) return true;
  return !layer.tracked_layers().empty();
}

}  // namespace keras::detail

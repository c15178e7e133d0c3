#include "saving/layer_assets_walk.h"

#include <functional>
#include <unordered_set>

#include "keras/saving/layer_assets.h"
#include "saving/saveable_walk.h"

namespace keras::saving {
namespace {

// Visits every layer once, in _walk_saveable's order, with its path.
void walk(const Layer& layer, const std::string& path, std::unordered_set<const Layer*>& seen,
          const std::function<void(const Layer&, const std::string&)>& visit) {
  if (!seen.insert(&layer).second) return;
  visit(layer, path);
  for (const auto& [child_path, child] : detail::saveable_children(layer))
    walk(*child, detail::join_path(path, child_path), seen, visit);
}

}  // namespace

std::map<std::string, std::string> collect_assets(const Layer& model) {
  std::map<std::string, std::string> members;
  std::unordered_set<const Layer*> seen;
  walk(model, "", seen, [&](const Layer& layer, const std::string& path) {
    const auto* assets = dynamic_cast<const LayerAssets*>(&layer);
    if (!assets) return;
    for (auto& [file, contents] : assets->save_assets())
      members[detail::join_path(detail::join_path("assets", path), file)] = std::move(contents);
  });
  return members;
}

void restore_assets(Layer& model, const std::map<std::string, std::vector<uint8_t>>& members) {
  std::unordered_set<const Layer*> seen;
  walk(model, "", seen, [&](const Layer& layer, const std::string& path) {
    // The model was passed in non-const, so is every layer under it.
    auto* assets = dynamic_cast<LayerAssets*>(const_cast<Layer*>(&layer));
    if (!assets) return;
    const std::string folder = detail::join_path(detail::join_path("assets", path), "");
    std::map<std::string, std::string> files;
    for (auto it = members.lower_bound(folder);
         it != members.end() && it->first.compare(0, folder.size(), folder) == 0; ++it) {
      const std::string name = it->first.substr(folder.size());
      if (name.empty() || name.find('/') != std::string::npos) continue;  // sub-folders: others'
      files[name] = std::string(it->second.begin(), it->second.end());
    }
    assets->load_assets(files);
  });
}

}  // namespace keras::saving

// LayoutMap (see layout_map.h).
#include "keras/distribution/layout_map.h"

#include <algorithm>
#include <sstream>

#include "keras/core/errors.h"

namespace keras::distribution {

LayoutMap::LayoutMap(std::shared_ptr<const DeviceMesh> device_mesh)
    : mesh_(std::move(device_mesh)) {}

void LayoutMap::set(const std::string& key, TensorLayout layout) {
  for (const Entry& e : entries_)
    check(e.key != key, key, " already exist in the LayoutMap with value ", e.layout.to_string(),
          ". Please make sure to not use duplicated keys.");
  std::regex pattern;
  try {
    pattern = std::regex(key, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw ValueError(
        keras::detail::cat("The LayoutMap key '", key,
                           "' is not a valid regular expression (ECMAScript): ", e.what()));
  }
  if (!layout.device_mesh() && mesh_) layout = layout.with_mesh(mesh_);
  entries_.push_back({key, std::move(pattern), std::move(layout)});
}

void LayoutMap::set(const std::string& key, std::vector<std::optional<std::string>> axes) {
  set(key, TensorLayout(std::move(axes)));
}

void LayoutMap::erase(const std::string& key) {
  auto it =
      std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
  check(it != entries_.end(), "'", key, "' is not a key of the LayoutMap");
  entries_.erase(it);
}

bool LayoutMap::contains(const std::string& key) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.key == key; });
}

std::optional<TensorLayout> LayoutMap::get(const std::string& path) const {
  for (const Entry& e : entries_)
    if (e.key == path) return e.layout;
  std::vector<const Entry*> matches;
  for (const Entry& e : entries_)
    if (std::regex_match(path, e.pattern)) matches.push_back(&e);
  if (matches.empty()) return std::nullopt;
  if (matches.size() > 1) {
    std::ostringstream keys;
    for (size_t i = 0; i < matches.size(); ++i)
      keys << (i ? ", '" : "['") << matches[i]->key << "'";
    keys << "]";
    throw ValueError(keras::detail::cat(
        "Path '", path, "' matches multiple layout specification keys: ", keys.str(),
        ". Please make sure each tensor/variable path only matches at most one layout "
        "specification key in the LayoutMap."));
  }
  return matches[0]->layout;
}

std::vector<std::string> LayoutMap::keys() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.key);
  return out;
}

}  // namespace keras::distribution

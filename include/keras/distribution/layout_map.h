#pragma once
// keras::distribution::LayoutMap (Keras 3's keras.distribution.LayoutMap): variable paths to
// TensorLayouts, the keys being regular expressions.

#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "keras/distribution/device_mesh.h"

#pragma GCC visibility push(default)
namespace keras::distribution {

/// Ordered (regex key -> TensorLayout). Layouts inserted without a mesh get the map's. Keys are
/// ECMAScript regular expressions (std::regex), matched against the whole path as re.fullmatch.
class LayoutMap {
 public:
  /// An empty map whose layouts default to `device_mesh`.
  explicit LayoutMap(std::shared_ptr<const DeviceMesh> device_mesh);

  /// Adds `key` -> `layout`. ValueError for a key already present or an invalid regex.
  void set(const std::string& key, TensorLayout layout);
  /// The tuple form of Keras: layout_map["key"] = (None, "model").
  void set(const std::string& key, std::vector<std::optional<std::string>> axes);
  /// Removes `key` (Python's del layout_map[key]); ValueError when absent.
  void erase(const std::string& key);

  /// The layout of `path`: the key equal to it, else the only key whose regex matches all of it;
  /// nullopt when none matches, ValueError naming the path and the keys when several do.
  std::optional<TensorLayout> get(const std::string& path) const;
  /// layout_map[path], as get().
  std::optional<TensorLayout> operator[](const std::string& path) const { return get(path); }

  /// The keys in insertion order.
  std::vector<std::string> keys() const;
  /// The number of keys.
  size_t size() const { return entries_.size(); }
  /// Whether `key` itself (not a path it matches) is in the map.
  bool contains(const std::string& key) const;
  /// The mesh layouts inserted without one get (Keras's `device_mesh`).
  const std::shared_ptr<const DeviceMesh>& device_mesh() const { return mesh_; }

 private:
  struct Entry {
    std::string key;
    std::regex pattern;
    TensorLayout layout;
  };
  std::shared_ptr<const DeviceMesh> mesh_;
  std::vector<Entry> entries_;
};

}  // namespace keras::distribution

#pragma GCC visibility pop

#pragma once
// What a layer keeps in a .keras archive besides its config and numbered variables, as
// Keras's save_assets/load_assets and save_own_variables with named keys. The archive
// writer and reader look for these interfaces on each layer (dynamic_cast), so a layer opts
// in by deriving from them.

#include <map>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::saving {

/// A layer with files of its own (a lookup layer's vocabulary.txt): they live under
/// assets/<the layer's path>/ in the archive, as Keras writes them.
class LayerAssets {
 public:
  virtual ~LayerAssets() = default;
  /// File name -> contents; empty when there is nothing to write.
  virtual std::map<std::string, std::string> save_assets() const = 0;
  /// The files found under the layer's folder (possibly none), called after its variables are
  /// loaded, as Keras's _load_state does.
  virtual void load_assets(const std::map<std::string, std::string>& files) = 0;
};

/// A layer whose saved variables are stored under names ("idf_weights") rather than "0",
/// "1", ... in the weights file.
class NamedVariables {
 public:
  virtual ~NamedVariables() = default;
  /// One name per entry of variables_to_save() (and variables_to_load()), in order.
  virtual std::vector<std::string> variable_keys() const = 0;
};

}  // namespace keras::saving

#pragma GCC visibility pop

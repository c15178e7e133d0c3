#pragma once
// Writing a Keras 3 `.weights.h5` file (keras/src/saving/saving_lib.py save_weights_only):
// the layout saving::load_weights and Python Keras read.
//
//   keras::saving::save_weights(*model, "run/model.weights.h5");
//   model->save_weights("run/model.weights.h5");   // the same
//
// Layout: "<path>/vars" groups (attribute name = the object's name, created even when empty)
// holding the datasets "0", "1", ... of a layer's own variables; a Sequential's or
// Functional's layers under "layers/<snake_case class>[_k]"; other tracked sublayers under
// their attribute name; and, when the model is compiled and its optimizer is built,
// "optimizer/vars/<i>" in optimizer->variables() order. The file is written to a temporary
// file in the same folder and renamed over `path`, so a reader never sees half a file.

#include <map>
#include <string>

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// save_weights' options for a `.weights.h5` file.
struct SaveWeightsOptions {
  /// Also write the optimizer's variables (when the model is compiled and the optimizer built).
  bool optimizer = true;
  /// Extra string attributes of the root group (Keras writes none; BackupAndRestore keeps its
  /// training state here so that weights and state are replaced by one atomic rename).
  std::map<std::string, std::string> root_attributes;
};

/// Writes `model`'s weights to `path`, which must end in ".weights.h5" (as Keras requires).
/// ValueError for another name or an unbuilt model; IOError when the file cannot be written.
void save_weights(const Layer& model, const std::string& path,
                  const SaveWeightsOptions& options = {});

}  // namespace keras::saving

#pragma GCC visibility pop

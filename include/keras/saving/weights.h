#pragma once
// Loading weights saved by Python Keras 3 (or keras-cpp) into a model built in C++, following
// Keras's layout (keras/src/saving/saving_lib.py): a layer's own variables are the datasets
// "0", "1", ... of its group ".../vars"; a Sequential's or Functional's layers are the group
// "layers/<class name in snake case>[_k]"; other sublayers are groups named by the attribute
// they were tracked under ("cell", "forward_layer", ...).

#include <string>

#include "keras/layers/layer.h"
#include "keras/saving/h5_file.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// load_weights' keyword arguments (Keras's `skip_mismatch`, plus keras-cpp's `optimizer`).
struct LoadWeightsOptions {
  /// Skip layers whose saved variables do not match (count or shape) instead of failing.
  bool skip_mismatch = false;
  /// Also restore the optimizer's variables from "optimizer/vars" (building the optimizer of
  /// a compiled model first when needed), so training resumes exactly (BackupAndRestore).
  /// Nothing happens when the file holds no optimizer. Keras itself always loads them.
  bool optimizer = false;
};

/// Loads the weights of a .keras archive, a .weights.h5 file or a sharded .weights.json index
/// (saving/sharded_weights.h; decided by the file's first bytes, not its name) into `model`,
/// which must be built. A legacy Keras 2 .h5 (weights only or a full model) loads as Keras
/// does, layers matched by order (saving/legacy_h5.h). ValueError naming the layer and the
/// shapes on a mismatch; IOError naming the file when it is not a Keras weights file.
void load_weights(Layer& model, const std::string& path, const LoadWeightsOptions& options = {});
/// The same from an open HDF5 file in Keras 3's layout.
void load_weights(Layer& model, const H5File& file, const LoadWeightsOptions& options = {});

}  // namespace keras::saving

#pragma GCC visibility pop

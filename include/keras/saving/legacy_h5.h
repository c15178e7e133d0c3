#pragma once
// The legacy Keras 2 HDF5 format (keras/src/legacy/saving/legacy_h5_format.py): full models
// (root attributes model_config and training_config, the group model_weights) and weights-only
// files (the same layout at the root). Loading only; keras-cpp writes the Keras 3 format.
//
//   auto file = keras::saving::legacy::read_legacy_h5("model.h5");
//   // file.model_config: a Keras 3 config.json record; build the model from it, then
//   file.load_weights(*model);
//
// Keras 2 configs are translated into the Keras 3 schema (KERAS_REFERENCE 1.3-1.6), so one
// deserializer serves both formats.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "keras/core/json.h"
#include "keras/layers/layer.h"
#include "keras/saving/h5_file.h"

#pragma GCC visibility push(default)
namespace keras::saving::legacy {

/// The Keras 2 `model_config` (legacy serialization) as a Keras 3 object record: module and
/// registered_name added, "Model" -> "Functional", InputLayer batch_input_shape -> batch_shape,
/// Keras 2 inbound nodes -> {"args": [...__keras_tensor__...], "kwargs": {...}}, Sequential's
/// implicit input made an InputLayer. ValueError naming what is malformed.
Config translate_model_config(const Config& model_config);

/// The Keras 2 `training_config` as a Keras 3 compile_config: the optimizer as a
/// keras.optimizers record with Keras 3 keys ("lr" -> learning_rate, Keras-2-only keys such as
/// decay dropped), losses and metrics as Keras 3 names or records (MeanMetricWrapper -> its fn).
Config translate_training_config(const Config& training_config);

/// Loads a Keras 2 weights group (the attribute layer_names, per-layer weight_names, datasets
/// at `group/layer/weight_name`) into `model`'s layers: by order of the layers that have
/// weights, or by layer name when `by_name`. `group` is "" for a weights-only file and
/// "model_weights" for a full model. ValueError naming the layer and the shapes on a mismatch
/// (with `skip_mismatch`, mismatching weights are left as they are).
void load_weights_from_hdf5_group(Layer& model, const H5File& file, const std::string& group,
                                  bool by_name = false, bool skip_mismatch = false);

/// True when `file` is a legacy Keras .h5 (a full model or a weights-only file).
bool is_legacy_h5(const H5File& file);

/// Loads the weights of a legacy .h5 file at `path` (full model or weights only) into `model`.
void load_legacy_weights(Layer& model, const std::string& path, bool by_name = false,
                         bool skip_mismatch = false);
/// The same for an open file (what keras::saving::load_weights calls for a legacy .h5).
void load_legacy_weights(Layer& model, const H5File& file, bool by_name = false,
                         bool skip_mismatch = false);

/// A legacy full-model .h5 file, read and translated.
struct LegacyModelFile {
  /// translate_model_config of the file's model_config.
  Config model_config;
  /// translate_training_config of the file's training_config; null when it has none.
  Config compile_config;
  /// The root attributes keras_version and backend ("" when absent).
  std::string keras_version, backend;
  /// Loads model_weights into a model built from model_config (load_weights_from_hdf5_group
  /// by order); the file stays open as long as this function lives.
  std::function<void(Layer& model, bool skip_mismatch)> load_weights;
  /// \var backend
  /// The backend that wrote the file (the root attribute `backend`; "" when absent).
};

/// Reads a legacy full-model .h5 file. ValueError when it has no model_config (a weights-only
/// file: build the model in C++ and call load_legacy_weights) or no model_weights.
LegacyModelFile read_legacy_h5(const std::string& path);
/// The same from the file's bytes; `source` names it in errors.
LegacyModelFile read_legacy_h5(std::vector<uint8_t> bytes, const std::string& source);

}  // namespace keras::saving::legacy

#pragma GCC visibility pop

#pragma once
// Whole models in the Keras 3 `.keras` format (keras/src/saving/saving_lib.py): a zip with the
// members metadata.json, config.json and model.weights.h5, stored uncompressed, in that order.
//
//   model->save("mnist.keras");                               // or saving::save_model
//   auto model = keras::saving::load_model("mnist.keras");    // built, compiled, trained state
//   model->fit(x, y, {.epochs = 2});                          // training resumes exactly
//
// load_model decides the format by the file's magic bytes, not its name: a zip is a .keras
// archive; an HDF5 file is a legacy Keras 2 `.h5` model (model_config, model_weights).

#include <cstdint>
#include <string>
#include <vector>

#include "keras/models/model.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// keras.saving.load_model's keyword arguments, with Keras's defaults.
struct LoadModelOptions {
  /// Compile the model from its saved compile_config (optimizer, loss, metrics) and restore the
  /// optimizer's variables, so that training resumes where it stopped.
  bool compile = true;
  /// Refuse what could run code from the file (see DeserializeOptions::safe_mode).
  bool safe_mode = true;
};

/// The Keras version whose `.keras` dialect keras-cpp writes (metadata.json's keras_version):
/// configs as Keras 3.15 writes them (keys such as quantization_config and the initializers'
/// input_axes, which Keras 3.10-3.14 refuse), so files load in Python Keras 3.15 and later.
/// keras-cpp reads the dialects of Keras 3.4 on.
inline constexpr const char* kKerasFormatVersion = "3.15.1";

/// Writes `model` to `path` (which must end in ".keras", as Keras requires). The file is written
/// next to `path` under a temporary name, synced and renamed over it, so a crash never leaves a
/// half-written file and the previous file stays intact until the new one is complete.
void save_model(const Model& model, const std::string& path);

/// Reads a `.keras` archive or a legacy `.h5` model. IOError naming the file (and the member)
/// when it is not a Keras model file; ValueError naming the class and the fix when the config
/// holds something keras-cpp does not know.
ModelPtr<Model> load_model(const std::string& path, const LoadModelOptions& options = {});

/// The same for a file held in memory; `source` names it in errors.
ModelPtr<Model> load_model_from_memory(std::vector<uint8_t> bytes, const std::string& source,
                                       const LoadModelOptions& options = {});

/// The config.json record of `model` (Keras's serialize_keras_object with compile_config).
Config model_record(const Model& model);

}  // namespace keras::saving

namespace keras::models {

/// The model a to_json() text describes, with freshly initialized weights (Keras's
/// keras.models.model_from_json).
ModelPtr<Model> model_from_json(const std::string& json,
                                const saving::LoadModelOptions& options = {});

}  // namespace keras::models

#pragma GCC visibility pop

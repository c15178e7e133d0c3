// save_model / load_model: the .keras container (saving_lib._save_model_to_fileobj and
// _load_model_from_fileobj).

#include "keras/saving/save_model.h"

#include <unistd.h>
#include <zip.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "keras/saving/archive.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/legacy_h5.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/serialization.h"
#include "keras/saving/weights.h"
#include "saving/layer_assets_walk.h"
#include "saving/weights_writer.h"
#include "saving/zip_writer.h"

namespace keras::saving {

namespace fs = std::filesystem;

namespace {

Config parse_config(const std::vector<uint8_t>& bytes, const std::string& source) {
  return parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                    source);
}

std::string date_saved() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d@%H:%M:%S", &local);
  return text;
}

void check_extension(const std::string& path) {
  fs::path p(path);
  std::string ext = p.extension().string();
  if (ext == ".keras") return;
  if (ext == ".h5" || ext == ".hdf5")
    throw ValueError("save_model: keras-cpp writes the Keras 3 format only; the legacy .h5 "
                     "format is read but not written. Save to a `.keras` file. Received: "
                     "filepath=" + path);
  throw ValueError("Invalid filepath extension for saving. Please add a `.keras` extension for "
                   "the native Keras format. Received: filepath=" + path);
}

ModelPtr<Model> as_model(std::shared_ptr<Layer> layer, const std::string& source) {
  auto model = std::dynamic_pointer_cast<Model>(layer);
  check(static_cast<bool>(model), source, " describes a ", layer->class_name(),
        " layer, not a model.");
  return ModelPtr<Model>(model);
}

ModelPtr<Model> model_from_record(const Config& record, const std::string& source,
                                  const LoadModelOptions& options) {
  try {
    return as_model(deserialize_keras_object(record, {.safe_mode = options.safe_mode,
                                                      .compile = options.compile}),
                    source);
  } catch (const Config::exception& e) {
    // A config whose values have the wrong types (a number where a name belongs, ...).
    throw ValueError(source + " holds a config keras-cpp cannot read: " + e.what());
  }
}

ModelPtr<Model> load_keras_archive(const std::vector<uint8_t>& bytes, const std::string& source,
                                   const LoadModelOptions& options) {
  auto members = read_zip_members(bytes, source);
  auto member = [&](const std::string& name) -> std::vector<uint8_t>& {
    auto it = members.find(name);
    check<IOError>(it != members.end(), source, " has no ", name,
                   "; it is not a .keras model file.");
    return it->second;
  };
  Config config = parse_config(member("config.json"), source + ":config.json");
  if (members.count("metadata.json"))
    parse_config(members["metadata.json"], source + ":metadata.json");  // must be valid JSON
  check<IOError>(!members.count("model.weights.npz"), source,
                 " stores its weights as model.weights.npz; keras-cpp reads model.weights.h5 "
                 "only (save it again with the default weights_format).");
  ModelPtr<Model> model = model_from_record(config, source, options);
  H5File weights = H5File::open_image(std::move(member("model.weights.h5")),
                                      source + ":model.weights.h5");
  check(model->built(), source, ": the model '", model->name(),
        "' could not be built from its config (no input shape), so its weights cannot be "
        "loaded.");
  load_weights(*model, weights, {.skip_mismatch = false, .optimizer = options.compile});
  restore_assets(*model, members);
  return model;
}

// A legacy Keras 2 .h5 model (legacy_h5_format.load_model_from_hdf5): its translated
// model_config is deserialized like a config.json record, the weights load by layer order,
// and the translated training_config compiles it. Keras 3 does not restore a Keras 2 file's
// optimizer state either (its variables do not match), so the optimizer starts fresh.
ModelPtr<Model> load_legacy_h5(std::vector<uint8_t> bytes, const std::string& source,
                               const LoadModelOptions& options) {
  legacy::LegacyModelFile file = legacy::read_legacy_h5(std::move(bytes), source);
  Config record = file.model_config;
  if (options.compile && !file.compile_config.is_null())
    record["compile_config"] = file.compile_config;
  ModelPtr<Model> model = model_from_record(record, source, options);
  check(model->built(), source, ": the model '", model->name(),
        "' could not be built from its config (no input shape), so its weights cannot be "
        "loaded.");
  file.load_weights(*model, false);
  return model;
}

}  // namespace

Config model_record(const Model& model) { return serialize_keras_object(model); }

void save_model(const Model& model, const std::string& path) {
  check_extension(path);
  check(model.built(), "save_model: model '", model.name(),
        "' is not built; call it on data or give it an Input first.");
  Config metadata = {{"keras_version", kKerasFormatVersion}, {"date_saved", date_saved()}};
  const std::string metadata_json = metadata.dump();
  const std::string config_json = model_record(model).dump();
  const std::vector<uint8_t> weights = weights_image(model, path + ":model.weights.h5", {});
  std::vector<ZipMember> members = {
      {"metadata.json", metadata_json},
      {"config.json", config_json},
      {"model.weights.h5",
       std::string_view(reinterpret_cast<const char*>(weights.data()), weights.size())},
  };
  // Layers' own files (a lookup layer's vocabulary.txt) under assets/, as Keras writes them.
  const std::map<std::string, std::string> assets = collect_assets(model);
  for (const auto& [name, contents] : assets) members.push_back({name, contents});
  // A crash, a full disk or a vanished folder during the save leaves the previous file intact
  // and no temporary file behind (atomic_file.h).
  write_file_atomically(path, zip_in_memory(members, "save_model", path));
}

ModelPtr<Model> load_model_from_memory(std::vector<uint8_t> bytes, const std::string& source,
                                       const LoadModelOptions& options) {
  if (is_zip(bytes)) return load_keras_archive(bytes, source, options);
  if (is_hdf5(bytes)) return load_legacy_h5(std::move(bytes), source, options);
  throw IOError(source + " is neither a .keras archive (zip) nor a legacy .h5 model (HDF5).");
}

ModelPtr<Model> load_model(const std::string& path, const LoadModelOptions& options) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    // Keras's unzipped layout (save_model(..., zipped=False)): the same three files.
    throw NotImplementedError(path + " is a folder; keras-cpp reads .keras archives and legacy "
                              ".h5 files.");
  }
  check<IOError>(fs::exists(path, ec), "load_model: ", path, " does not exist.");
  return load_model_from_memory(read_file_bytes(path), path, options);
}

}  // namespace keras::saving

namespace keras {

void Model::save(const std::string& path) const { saving::save_model(*this, path); }

std::string Model::to_json() const { return saving::model_record(*this).dump(); }

namespace models {

ModelPtr<Model> model_from_json(const std::string& json, const saving::LoadModelOptions& options) {
  Config record = saving::parse_config(std::vector<uint8_t>(json.begin(), json.end()),
                                       "model_from_json");
  return saving::model_from_record(record, "model_from_json", options);
}

}  // namespace models
}  // namespace keras

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
#include "saving/weights_writer.h"

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

std::string temporary_path(const fs::path& target, const std::string& tag) {
  return (target.parent_path() / ("." + target.filename().string() + "." + tag + ".tmp" +
                                  std::to_string(::getpid())))
      .string();
}

std::vector<uint8_t> weights_bytes(const Model& model, const fs::path& target) {
  std::string file = temporary_path(target, "weights");
  std::vector<uint8_t> bytes;
  try {
    write_weights_file(model, file, target.string() + ":model.weights.h5", {});
    bytes = read_file_bytes(file);
  } catch (...) {
    std::error_code ec;
    fs::remove(file, ec);
    throw;
  }
  std::error_code ec;
  fs::remove(file, ec);
  return bytes;
}

// Writes the members, in order and uncompressed (ZIP_STORED, as Python's zipfile does), to a
// new zip file at `file`.
void write_zip(const std::string& file, const std::vector<std::pair<std::string, std::string>>& members,
               const std::string& path) {
  int error = 0;
  zip_t* z = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  check<IOError>(z != nullptr, "save_model: cannot create ", file, " (for ", path, ").");
  auto fail = [&](const std::string& what) {
    std::string why = zip_strerror(z);
    zip_discard(z);
    throw IOError("save_model: cannot " + what + " in " + path + ": " + why + ".");
  };
  for (const auto& [name, data] : members) {
    zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
    if (!src) fail("add " + name);
    zip_int64_t index = zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(src);
      fail("add " + name);
    }
    if (zip_set_file_compression(z, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) != 0)
      fail("store " + name);
  }
  if (zip_close(z) != 0) fail("write the archive");
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
  fs::path target(path);
  std::vector<std::pair<std::string, std::string>> members;
  Config metadata = {{"keras_version", kKerasFormatVersion}, {"date_saved", date_saved()}};
  members.emplace_back("metadata.json", metadata.dump());
  members.emplace_back("config.json", model_record(model).dump());
  std::vector<uint8_t> weights = weights_bytes(model, target);
  members.emplace_back("model.weights.h5", std::string(weights.begin(), weights.end()));

  // A crash during the save leaves the previous file intact (atomic_file.h).
  write_atomically(path, [&](const std::string& tmp) { write_zip(tmp, members, path); });
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

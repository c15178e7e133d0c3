// What the fuzzer drives, as a loader meets a file:
// - first the whole loader, saving::load_model_from_memory (with compile and safe_mode);
// then the pieces one by one, past the point where the loader would stop:
// - a zip: read_zip_members (bombs, names, sizes), then config.json and metadata.json through
//   parse_json (with the layer-count check the model loader applies), then model.weights.h5
//   as below;
// - HDF5 bytes: H5File::open_image, a bounded walk reading every dataset and the attributes
//   loaders read (a legacy .h5's model_config goes through parse_json), then load_weights
//   into two fixed models (a small MLP, whose own files seed the corpus, and the Keras
//   Fashion-MNIST CNN of ../shared/models);
// - anything else: parse_json (a .weights.json index, a config).
// Only keras::Error may come out of the readers; it is caught here.

#include "load_model_entry.h"

#include <string>
#include <vector>

#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/save_model.h"
#include "keras/saving/weights.h"

namespace keras::fuzz {
namespace {

// Models built once: building is slow and the fuzzer calls us millions of times.
struct Models {
  ModelPtr<SequentialModel> mlp;
  ModelPtr<SequentialModel> cnn;
  Models() {
    backend::clear_session();
    mlp = Sequential({Input({4}), layers::Dense(3, {.activation = "relu"}), layers::Dense(2)});
    cnn = Sequential({
        Input({28, 28, 1}),
        layers::Conv2D(32, 3, {.activation = "relu"}),
        layers::MaxPooling2D(2),
        layers::Conv2D(64, 3, {.activation = "relu"}),
        layers::MaxPooling2D(2),
        layers::Flatten(),
        layers::Dropout(0.5),
        layers::Dense(64, {.activation = "relu"}),
        layers::Dense(10, {.activation = "softmax"}),
    });
  }
};

Models& models() {
  static Models m;
  return m;
}

// Reads every dataset and the attributes loaders read, at most `budget` objects deep and wide
// (hard links can make cycles).
void walk(const saving::H5File& file, const std::string& path, int depth, int& budget) {
  if (depth > 80 || --budget < 0) return;
  for (const char* attr : {"name", "dtype", "class_name", "keras_version", "backend"})
    (void)file.string_attribute(path, attr);
  if (!path.empty() && !file.is_group(path)) {
    try {
      (void)file.read(path);
    } catch (const Error&) {
    }
    return;
  }
  for (const std::string& child : file.children(path)) {
    try {
      walk(file, path.empty() ? child : path + "/" + child, depth + 1, budget);
    } catch (const Error&) {
    }
  }
}

void check_config(const nlohmann::json& config, const std::string& source) {
  if (!config.is_object()) return;
  auto inner = config.find("config");
  if (inner == config.end() || !inner->is_object()) return;
  auto layers = inner->find("layers");
  if (layers != inner->end() && layers->is_array()) {
    saving::check_count("layers", layers->size(), saving::kMaxLayers, source);
    for (const auto& layer : *layers) {
      if (!layer.is_object()) continue;
      auto nodes = layer.find("inbound_nodes");
      if (nodes != layer.end() && nodes->is_array())
        saving::check_count("inbound nodes", nodes->size(), saving::kMaxLayers, source);
    }
  }
}

void load_hdf5(std::vector<uint8_t> bytes, const std::string& source) {
  Models& m = models();
  saving::H5File file = saving::H5File::open_image(std::move(bytes), source);
  int budget = 300;
  walk(file, "", 0, budget);
  if (auto config = file.string_attribute("", "model_config"))
    check_config(saving::parse_json(*config, source + ":model_config"), source);
  if (auto training = file.string_attribute("", "training_config"))
    (void)saving::parse_json(*training, source + ":training_config");
  for (const char* group : {"", "model_weights"}) {
    try {
      // A legacy loader reads weight_names of each layer; 64 layers are enough here (each
      // lookup in a corrupt file can be slow inside libhdf5).
      auto names = file.string_list_attribute(group, "layer_names");
      for (size_t i = 0; i < names.size() && i < 64; ++i)
        (void)file.string_list_attribute(std::string(group) + "/" + names[i], "weight_names");
    } catch (const Error&) {
    }
  }
  for (auto* model : {static_cast<Layer*>(m.mlp.get()), static_cast<Layer*>(m.cnn.get())}) {
    try {
      saving::load_weights(*model, file);
    } catch (const Error&) {
    }
  }
}

// The whole loader (config, build, weights, compile state).
void load_whole(const std::vector<uint8_t>& bytes, const std::string& source) {
  try {
    auto model = saving::load_model_from_memory(bytes, source, {.compile = true, .safe_mode = true});
    (void)model->count_params();
  } catch (const Error&) {
  }
}

void load(const std::vector<uint8_t>& bytes) {
  const std::string source = "fuzz-input";
  load_whole(bytes, source);
  if (saving::is_zip(bytes)) {
    auto members = saving::read_zip_members(bytes, source);
    for (const char* name : {"metadata.json", "config.json"}) {
      auto it = members.find(name);
      if (it == members.end()) continue;
      std::string text(it->second.begin(), it->second.end());
      try {
        auto json = saving::parse_json(text, source + ":" + name);
        check_config(json, source + ":" + name);
      } catch (const Error&) {
      }
    }
    auto weights = members.find("model.weights.h5");
    if (weights != members.end()) load_hdf5(std::move(weights->second), source + ":model.weights.h5");
  } else if (saving::is_hdf5(bytes)) {
    load_hdf5(bytes, source);
  } else {
    std::string text(bytes.begin(), bytes.end());
    check_config(saving::parse_json(text, source), source);
  }
}

}  // namespace

void load_model_one_input(const uint8_t* data, size_t size) {
  try {
    load(std::vector<uint8_t>(data, data + size));
  } catch (const Error&) {
    // Refused with a keras::Error: what a hostile file should get.
  }
}

}  // namespace keras::fuzz

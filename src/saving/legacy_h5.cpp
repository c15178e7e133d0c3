// Legacy Keras 2 .h5 files: weights by layer order (or name) and the full-model reader. The
// facts follow keras/src/legacy/saving/legacy_h5_format.py (load_weights_from_hdf5_group,
// load_weights_from_hdf5_group_by_name, load_model_from_hdf5).

#include "keras/saving/legacy_h5.h"

#include <map>
#include <memory>

#include "keras/core/errors.h"
#include "keras/models/model.h"
#include "keras/saving/archive.h"
#include "saving/saveable_walk.h"

namespace keras::saving::legacy {
namespace {

constexpr int kMaxJsonDepth = 256;

std::string where(const H5File& file, const std::string& path) {
  return file.source() + ":/" + path;
}

// Keras's _legacy_weights: trainable then non-trainable.
std::vector<Variable> legacy_weights(const Layer& layer) {
  std::vector<Variable> out = layer.trainable_weights();
  for (const auto& v : layer.non_trainable_weights()) out.push_back(v);
  return out;
}

std::vector<std::string> weight_names(const H5File& file, const std::string& group) {
  if (!file.is_group(group))
    throw IOError(where(file, group) +
                  " is not a group; the file lists it in layer_names but "
                  "does not hold it (a truncated or edited file?).");
  return file.string_list_attribute(group, "weight_names");
}

// The saved values of one layer group, in weight_names order.
std::vector<Tensor> read_values(const H5File& file, const std::string& group) {
  std::vector<Tensor> values;
  for (const auto& name : weight_names(file, group)) {
    const std::string path = saving::detail::join_path(group, name);
    if (!file.exists(path) || file.is_group(path))
      throw IOError(where(file, path) + " is listed in weight_names but is not a dataset.");
    values.push_back(file.read(path));
  }
  return values;
}

std::string names_of(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return "[" + out + "]";
}

// Keras's _set_weights: every shape is checked before anything is assigned (so a failure
// leaves the layer as it was); with skip_mismatch a mismatching weight is left alone.
void set_weights(std::vector<Variable> vars, const std::vector<Tensor>& values,
                 const std::string& what, const H5File& file, const std::string& group,
                 bool skip_mismatch) {
  std::vector<bool> take(values.size(), true);
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].shape() == vars[i].shape()) continue;
    if (!skip_mismatch)
      throw ValueError("Shape mismatch in " + what + " for weight '" + vars[i].path() +
                       "': the weight has shape " + vars[i].shape().to_string() + " but " +
                       where(file, group) + " holds shape " + values[i].shape().to_string() +
                       " (weight #" + std::to_string(i) +
                       "). Build the layer as it was saved, or pass skip_mismatch=true.");
    take[i] = false;
  }
  for (size_t i = 0; i < values.size(); ++i)
    if (take[i]) vars[i].assign(values[i]);
}

std::vector<std::shared_ptr<Layer>> model_layers(Layer& model) {
  auto* m = dynamic_cast<Model*>(&model);
  if (!m)
    throw ValueError(
        "Legacy .h5 weights load into a model (Sequential, Functional or a Model "
        "subclass); '" +
        model.name() + "' is a " + model.class_name() + ".");
  return m->layers();
}

void load_top_level(Layer& model, const H5File& file, const std::string& group,
                    bool skip_mismatch) {
  const std::string top = saving::detail::join_path(group, "top_level_model_weights");
  if (!file.is_group(top)) return;
  std::vector<Variable> vars = model.own_weights();
  std::vector<Tensor> values = read_values(file, top);
  if (values.size() != vars.size()) {
    if (skip_mismatch) return;
    throw ValueError("Weight count mismatch for the top-level weights of model '" + model.name() +
                     "': it has " + std::to_string(vars.size()) + " own weight(s), " +
                     where(file, top) + " holds " + std::to_string(values.size()) + ".");
  }
  set_weights(vars, values, "the top-level weights of model '" + model.name() + "'", file, top,
              skip_mismatch);
}

void load_by_order(Layer& model, const H5File& file, const std::string& group, bool skip_mismatch) {
  std::vector<std::shared_ptr<Layer>> layers;
  std::vector<std::string> model_names;
  for (const auto& layer : model_layers(model))
    if (!legacy_weights(*layer).empty()) {
      layers.push_back(layer);
      model_names.push_back(layer->name());
    }
  std::vector<std::string> saved;
  for (const auto& name : file.string_list_attribute(group, "layer_names"))
    if (!weight_names(file, saving::detail::join_path(group, name)).empty()) saved.push_back(name);
  if (saved.size() != layers.size())
    throw ValueError("Layer count mismatch when loading weights from " + where(file, group) +
                     ": model '" + model.name() + "' has " + std::to_string(layers.size()) +
                     " layers with weights " + names_of(model_names) + ", the file holds " +
                     std::to_string(saved.size()) + " " + names_of(saved) +
                     ". Build the model as it was saved (layers are matched by order), or load "
                     "by_name.");
  // Check every layer's weight count first, so a bad file changes nothing.
  std::vector<std::vector<Tensor>> values;
  for (size_t k = 0; k < layers.size(); ++k) {
    values.push_back(read_values(file, saving::detail::join_path(group, saved[k])));
    const size_t expected = legacy_weights(*layers[k]).size();
    if (values.back().size() != expected)
      throw ValueError("Weight count mismatch for layer #" + std::to_string(k) + " (named '" +
                       layers[k]->name() + "' in the model, '" + saved[k] + "' in " +
                       file.source() + "): the layer expects " + std::to_string(expected) +
                       " weight(s), the file holds " + std::to_string(values.back().size()) + " " +
                       names_of(weight_names(file, saving::detail::join_path(group, saved[k]))) +
                       ".");
  }
  for (size_t k = 0; k < layers.size(); ++k)
    set_weights(legacy_weights(*layers[k]), values[k],
                "layer #" + std::to_string(k) + " (named '" + layers[k]->name() + "')", file,
                saving::detail::join_path(group, saved[k]), skip_mismatch);
  load_top_level(model, file, group, skip_mismatch);
}

void load_by_name(Layer& model, const H5File& file, const std::string& group, bool skip_mismatch) {
  std::map<std::string, std::vector<std::shared_ptr<Layer>>> index;
  for (const auto& layer : model_layers(model)) index[layer->name()].push_back(layer);
  std::vector<std::string> saved = file.string_list_attribute(group, "layer_names");
  for (size_t k = 0; k < saved.size(); ++k) {
    auto it = index.find(saved[k]);
    if (it == index.end()) continue;  // layers without a match are skipped, as in Keras
    std::vector<Tensor> values = read_values(file, saving::detail::join_path(group, saved[k]));
    for (const auto& layer : it->second) {
      std::vector<Variable> vars = legacy_weights(*layer);
      if (values.size() != vars.size()) {
        if (skip_mismatch) continue;
        throw ValueError("Weight count mismatch for layer #" + std::to_string(k) + " (named '" +
                         layer->name() + "'): the layer expects " + std::to_string(vars.size()) +
                         " weight(s), " + where(file, saving::detail::join_path(group, saved[k])) +
                         " holds " + std::to_string(values.size()) +
                         ". Pass skip_mismatch=true to skip it.");
      }
      set_weights(vars, values, "layer #" + std::to_string(k) + " (named '" + layer->name() + "')",
                  file, saving::detail::join_path(group, saved[k]), skip_mismatch);
    }
  }
  load_top_level(model, file, group, skip_mismatch);
}

Config parse_json_attribute(const std::string& text, const std::string& what) {
  auto limit = [&](int depth, Config::parse_event_t, Config&) {
    if (depth > kMaxJsonDepth)
      throw ValueError(what + " nests deeper than " + std::to_string(kMaxJsonDepth) +
                       " levels; refusing it.");
    return true;
  };
  try {
    return Config::parse(text, limit);
  } catch (const nlohmann::json::exception& e) {
    throw ValueError(what + " is not valid JSON (" + e.what() + ").");
  }
}

LegacyModelFile read(std::shared_ptr<H5File> file) {
  const std::string& source = file->source();
  std::optional<std::string> model_config = file->string_attribute("", "model_config");
  if (!model_config) {
    if (!file->string_list_attribute("", "layer_names").empty())
      throw ValueError("No model config found in " + source +
                       ": it is a weights-only .h5 file. Build the model in C++ and call "
                       "keras::saving::legacy::load_legacy_weights (or model.load_weights).");
    throw ValueError("No model config found in " + source +
                     " (the root attribute model_config is missing): it is not a Keras .h5 "
                     "model file.");
  }
  if (!file->is_group("model_weights"))
    throw ValueError(source +
                     " has a model_config but no model_weights group; it is not a "
                     "complete Keras .h5 model file.");
  LegacyModelFile out;
  out.model_config =
      translate_model_config(parse_json_attribute(*model_config, source + ": model_config"));
  if (auto training = file->string_attribute("", "training_config"))
    out.compile_config =
        translate_training_config(parse_json_attribute(*training, source + ": training_config"));
  out.keras_version = file->string_attribute("", "keras_version").value_or("");
  out.backend = file->string_attribute("", "backend").value_or("");
  out.load_weights = [file](Layer& model, bool skip_mismatch) {
    load_weights_from_hdf5_group(model, *file, "model_weights", false, skip_mismatch);
  };
  return out;
}

}  // namespace

void load_weights_from_hdf5_group(Layer& model, const H5File& file, const std::string& group,
                                  bool by_name, bool skip_mismatch) {
  check(model.built(), "load_weights: model '", model.name(),
        "' is not built; call it on data or give it an Input first.");
  if (!group.empty() && !file.is_group(group))
    throw IOError(where(file, group) + " is missing; the file holds no Keras 2 weights there.");
  if (by_name)
    load_by_name(model, file, group, skip_mismatch);
  else
    load_by_order(model, file, group, skip_mismatch);
}

bool is_legacy_h5(const H5File& file) {
  return file.string_attribute("", "model_config").has_value() || file.is_group("model_weights") ||
         !file.string_list_attribute("", "layer_names").empty();
}

void load_legacy_weights(Layer& model, const H5File& file, bool by_name, bool skip_mismatch) {
  // saving_api.load_weights: a full model's weights are under model_weights.
  if (!file.string_list_attribute("", "layer_names").empty())
    load_weights_from_hdf5_group(model, file, "", by_name, skip_mismatch);
  else if (file.is_group("model_weights"))
    load_weights_from_hdf5_group(model, file, "model_weights", by_name, skip_mismatch);
  else
    throw IOError(file.source() +
                  " is not a legacy Keras .h5 weights file: it has neither a "
                  "root layer_names attribute nor a model_weights group.");
}

void load_legacy_weights(Layer& model, const std::string& path, bool by_name, bool skip_mismatch) {
  load_legacy_weights(model, H5File::open(path), by_name, skip_mismatch);
}

LegacyModelFile read_legacy_h5(const std::string& path) {
  return read(std::make_shared<H5File>(H5File::open(path)));
}

LegacyModelFile read_legacy_h5(std::vector<uint8_t> bytes, const std::string& source) {
  if (!is_hdf5(bytes))
    throw IOError(source +
                  " is not an HDF5 file (no \\x89HDF signature); a legacy Keras .h5 "
                  "model is one.");
  return read(std::make_shared<H5File>(H5File::open_image(std::move(bytes), source)));
}

}  // namespace keras::saving::legacy

#include "keras/saving/weights.h"

#include <iostream>
#include <map>
#include <unordered_set>

#include "keras/models/model.h"
#include "keras/optimizers/multi_optimizer.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/layer_assets.h"
#include "keras/saving/legacy_h5.h"
#include "keras/saving/sharded_weights.h"
#include "saving/keras_calibrated_files.h"
#include "saving/saveable_walk.h"

namespace keras::saving {
namespace {

class WeightsLoader {
 public:
  WeightsLoader(const H5File& file, const LoadWeightsOptions& options)
      : file_(file), options_(options) {}

  // keras/src/saving/saving_lib.py _load_state: own variables, then the children in
  // _walk_saveable's order (saveable_walk.h); an object already loaded is skipped.
  void load(Layer& layer, const std::string& path) {
    if (!visited_.insert(&layer).second) return;
    const auto* named = dynamic_cast<const NamedVariables*>(&layer);
    load_own(layer, detail::join_path(path, "vars"),
             named ? named->variable_keys() : std::vector<std::string>{});
    for (const auto& [child_path, child] : detail::saveable_children(layer))
      load(*child, detail::join_path(path, child_path));
  }

 private:
  // `keys` name the datasets (a layer's NamedVariables); empty: "0", "1", ...
  void load_own(Layer& layer, const std::string& group, const std::vector<std::string>& keys) {
    std::vector<Variable> vars = layer.variables_to_load();
    std::vector<std::string> saved = file_.is_group(group) ? file_.children(group)
                                                           : std::vector<std::string>{};
    // A Keras-written symmetric GPTQ layer: the zero points it left out are known.
    auto known_zero = detail::symmetric_zero_points_left_out(layer, vars, saved.size());
    if (vars.size() != saved.size()) {
      if (options_.skip_mismatch || vars.empty()) return;
      const std::string& mode = layer.quantization_mode();
      const bool keras_calibrated_file =
          (mode == "gptq" || mode == "awq") && saved.size() + 1 == vars.size();
      throw ValueError(
          "Layer '" + layer.name() + "' (" + layer.class_name() + ") expects " +
          std::to_string(vars.size()) + " variables, but " + file_.source() + " holds " +
          std::to_string(saved.size()) + " at '" + group + "'." +
          (keras_calibrated_file
               ? " Keras 3.15 writes " + mode + " layers without their kernel_zero (its own "
                 "loader cannot read such files either), so the zero points of this "
                 "asymmetric config are lost: quantize the float model with keras-cpp instead."
               : ""));
    }
    // Check every shape first, so a mismatch leaves the layer untouched.
    std::vector<Tensor> values;
    for (size_t i = 0; i < vars.size(); ++i) {
      const std::string key = i < keys.size() ? keys[i] : std::to_string(i);
      Tensor value = file_.read(detail::join_path(group, key));
      if (value.shape() != vars[i].shape()) {
        if (options_.skip_mismatch) return;
        throw ValueError("Layer '" + layer.name() + "': variable '" + vars[i].path() +
                         "' has shape " + vars[i].shape().to_string() + " but " + file_.source() +
                         " holds " + value.shape().to_string() + " at '" + group + "/" +
                         key + "'.");
      }
      values.push_back(value);
    }
    for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(values[i]);
    if (known_zero) known_zero->first.assign(known_zero->second);
    layer.variables_loaded();
  }

  const H5File& file_;
  LoadWeightsOptions options_;
  std::unordered_set<const Layer*> visited_;
};

// A MultiOptimizer's sub-optimizers, each from its own group optimizer/optimizers/<class>/vars
// found by the optimizer name Keras stores on it, and the MultiOptimizer's own variables from
// the front of optimizer/vars. Keras lists its sub-optimizers in the order of the map's keys as
// written, keras-cpp in sorted key order (its JSON keeps no order), so optimizer/vars may hold
// them in another order. False, for the index-by-index load, when the file has no such groups
// or the names do not match one to one.
bool load_multi_optimizer_variables(optimizers::MultiOptimizer& multi, const H5File& file,
                                    const LoadWeightsOptions& options) {
  const std::string root = "optimizer/optimizers";
  if (!file.is_group(root)) return false;
  std::vector<std::pair<std::vector<Variable>, std::string>> plan;  // (variables, group)
  std::vector<Variable> all = multi.variables();
  plan.push_back({std::vector<Variable>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(
                                                                       multi.own_variable_count())),
                  "optimizer/vars"});
  std::vector<std::string> groups = file.children(root);
  if (groups.size() != multi.optimizers().size()) return false;
  for (const optimizers::OptimizerPtr& inner : multi.optimizers()) {
    std::string found;
    for (const std::string& g : groups) {
      auto name = file.string_attribute(root + "/" + g + "/vars", "name");
      if (name && *name == inner->name()) {
        if (!found.empty()) return false;  // two groups name it
        found = root + "/" + g + "/vars";
      }
    }
    if (found.empty()) return false;
    plan.push_back({inner->variables(), found});
  }
  std::vector<std::pair<Variable, Tensor>> assign;
  for (const auto& [vars, group] : plan) {
    if (group != "optimizer/vars" && file.children(group).size() != vars.size()) return false;
    for (size_t i = 0; i < vars.size(); ++i) {
      Tensor value = file.read(group + "/" + std::to_string(i));
      if (value.shape() != vars[i].shape()) {
        if (options.skip_mismatch) return true;
        throw ValueError("Optimizer variable '" + vars[i].path() + "' has shape " +
                         vars[i].shape().to_string() + " but " + file.source() + " holds " +
                         value.shape().to_string() + " at '" + group + "/" + std::to_string(i) +
                         "'.");
      }
      assign.emplace_back(vars[i], value);
    }
  }
  for (auto& [var, value] : assign) var.assign(value);
  return true;
}

// base_optimizer.load_own_variables: "optimizer/vars/<i>" into optimizer->variables(),
// building the optimizer for the model's trainable variables first when needed.
void load_optimizer_variables(Model& model, const H5File& file, const LoadWeightsOptions& options) {
  const optimizers::OptimizerPtr& optimizer = model.optimizer();
  if (!optimizer->built()) optimizer->build(model.trainable_weights());
  std::vector<Variable> vars = optimizer->variables();
  std::vector<std::string> saved = file.children("optimizer/vars");
  // Keras's Optimizer.load_own_variables: another variable count skips loading with this
  // warning and keeps the optimizer's fresh variables. It happens with a file saved by a
  // compiled model before its first step (an unbuilt optimizer holds only `iterations` and
  // `learning_rate`; an unbuilt LossScaleOptimizer 4), and with a model whose trainable
  // variables changed after training (model->quantize() freezes the kernels).
  if (saved.size() != vars.size()) {
    std::cerr << "WARNING: Skipping variable loading for optimizer '" << optimizer->name()
              << "', because it has " << vars.size() << " variables whereas the saved optimizer "
              << "has " << saved.size() << " variables.\n";
    return;
  }
  if (auto* multi = dynamic_cast<optimizers::MultiOptimizer*>(optimizer.get()))
    if (load_multi_optimizer_variables(*multi, file, options)) return;
  std::vector<Tensor> values;
  for (size_t i = 0; i < vars.size(); ++i) {
    Tensor value = file.read("optimizer/vars/" + std::to_string(i));
    if (value.shape() != vars[i].shape()) {
      if (options.skip_mismatch) return;
      throw ValueError("Optimizer variable '" + vars[i].path() + "' has shape " +
                       vars[i].shape().to_string() + " but " + file.source() + " holds " +
                       value.shape().to_string() + " at 'optimizer/vars/" + std::to_string(i) +
                       "'.");
    }
    values.push_back(value);
  }
  for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(values[i]);
}

}  // namespace

void load_weights(Layer& model, const std::string& path, const LoadWeightsOptions& options) {
  check(model.built(), "load_weights: model '", model.name(),
        "' is not built; call it on data or give it an Input first.");
  std::vector<uint8_t> bytes = read_file_bytes(path);
  std::optional<H5File> file;
  if (is_zip(bytes)) {
    auto members = read_zip_members(bytes, path);
    auto it = members.find("model.weights.h5");
    check<IOError>(it != members.end(), path, " is a zip archive without model.weights.h5; it is "
                                              "not a .keras file.");
    file.emplace(H5File::open_image(std::move(it->second), path + ":model.weights.h5"));
  } else if (is_hdf5(bytes)) {
    file.emplace(H5File::open_image(std::move(bytes), path));
    if (legacy::is_legacy_h5(*file)) {  // a Keras 2 .h5 (full model or weights only)
      legacy::load_legacy_weights(model, *file, false, options.skip_mismatch);
      return;
    }
  } else if (is_json_index(bytes)) {
    load_sharded_weights(model, path, options);
    return;
  } else {
    throw IOError(path + " is neither a .keras archive (zip), an HDF5 weights file nor a "
                  "sharded .weights.json index.");
  }
  load_weights(model, *file, options);
}

void load_weights(Layer& model, const H5File& file, const LoadWeightsOptions& options) {
  WeightsLoader(file, options).load(model, "");
  auto* m = dynamic_cast<Model*>(&model);
  if (options.optimizer && m && m->compiled() && file.is_group("optimizer/vars"))
    load_optimizer_variables(*m, file, options);
}

}  // namespace keras::saving

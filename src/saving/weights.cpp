#include "keras/saving/weights.h"

#include <iostream>
#include <map>
#include <unordered_set>

#include "keras/models/model.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/legacy_h5.h"
#include "keras/saving/sharded_weights.h"
#include "saving/saveable_walk.h"

namespace keras::saving {
namespace {

std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

class WeightsLoader {
 public:
  WeightsLoader(const H5File& file, const LoadWeightsOptions& options)
      : file_(file), options_(options) {}

  // keras/src/saving/saving_lib.py _load_state: own variables, then the children in
  // _walk_saveable's order (saveable_walk.h); an object already loaded is skipped.
  void load(Layer& layer, const std::string& path) {
    if (!visited_.insert(&layer).second) return;
    load_own(layer, join(path, "vars"));
    for (const auto& [child_path, child] : detail::saveable_children(layer))
      load(*child, join(path, child_path));
  }

 private:
  void load_own(Layer& layer, const std::string& group) {
    std::vector<Variable> vars = layer.variables_to_load();
    std::vector<std::string> saved = file_.is_group(group) ? file_.children(group)
                                                           : std::vector<std::string>{};
    if (vars.size() != saved.size()) {
      if (options_.skip_mismatch || vars.empty()) return;
      throw ValueError("Layer '" + layer.name() + "' (" + layer.class_name() + ") expects " +
                       std::to_string(vars.size()) + " variables, but " + file_.source() +
                       " holds " + std::to_string(saved.size()) + " at '" + group + "'.");
    }
    // Check every shape first, so a mismatch leaves the layer untouched.
    std::vector<Tensor> values;
    for (size_t i = 0; i < vars.size(); ++i) {
      Tensor value = file_.read(join(group, std::to_string(i)));
      if (value.shape() != vars[i].shape()) {
        if (options_.skip_mismatch) return;
        throw ValueError("Layer '" + layer.name() + "': variable '" + vars[i].path() +
                         "' has shape " + vars[i].shape().to_string() + " but " + file_.source() +
                         " holds " + value.shape().to_string() + " at '" + group + "/" +
                         std::to_string(i) + "'.");
      }
      values.push_back(value);
    }
    for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(values[i]);
    layer.variables_loaded();
  }

  const H5File& file_;
  LoadWeightsOptions options_;
  std::unordered_set<const Layer*> visited_;
};

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

#include "layer_files.h"

#include <keras/saving/save_model.h>
#include <keras/utils/npy.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

namespace {

std::string text_of(const keras::Tensor& bytes) {
  std::vector<uint8_t> v = bytes.to_vector<uint8_t>();
  return std::string(v.begin(), v.end());
}

}  // namespace

void write_layer_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add,
    const std::string& set) {
  auto arrays = keras::utils::load_npz(fixtures_dir + "/" + set + ".npz");
  // Case names (the Keras class names) in sorted order: the map's keys are sorted.
  std::map<std::string, nlohmann::json> cases;
  const std::string suffix = ".kwargs";
  for (const auto& [key, value] : arrays)
    if (key.size() > suffix.size() &&
        key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
      cases[key.substr(0, key.size() - suffix.size())] = nlohmann::json::parse(text_of(value));
  for (const auto& [name, kwargs] : cases) {
    const std::string cls = kwargs.at("file").get<std::string>();
    if (kwargs.contains("keras_cpp_differs")) {
      std::cout << "write_layer_files: skipping " << cls
                << " (keras_cpp_differs: " << kwargs["keras_cpp_differs"].get<std::string>()
                << ")\n";
      continue;
    }
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures_dir + "/" + set + "/" + cls + ".keras");
    keras::TensorList inputs;
    for (int i = 0; arrays.count(name + ".in" + std::to_string(i)); ++i)
      inputs.push_back(arrays.at(name + ".in" + std::to_string(i)));
    add("py_layer_" + cls, "layer:" + (set == "layer_files" ? cls : set + "/" + cls), *model,
        inputs);
  }
}

// One .keras file per layer class, saved by Keras 3.15 (tools/keras_oracle/layer_files.py): a
// Functional model around the layer (its layers.py configuration, seeded random weights), or for
// Sequential, Functional and InputLayer a model of that kind. keras-cpp loads each file and must
// predict what Keras predicted (rtol = atol = 1e-5). Every registered layer class whose Keras
// class name has a file must have a case; the registered classes with no file are printed
// (an alias counts as its class: it is found by building it from a file's layer config).
// The other direction, keras-cpp saving these files again for Keras, is the live round trip
// (tools/interop/layer_files.cpp, scripts/interop.sh).

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "golden.h"
#include "keras/keras.h"
#include "keras/layers/registry.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

using test::json;

std::string layer_file(const std::string& cls) {
  return std::string(KERAS_ORACLE_DIR) + "/layer_files/" + cls + ".keras";
}

std::string text_of(const Tensor& bytes) {
  std::vector<uint8_t> v = bytes.to_vector<uint8_t>();
  return std::string(v.begin(), v.end());
}

// The class names with a .keras file in tests/oracle/fixtures/layer_files.
std::set<std::string> files_on_disk() {
  std::set<std::string> names;
  for (auto& entry :
       std::filesystem::directory_iterator(std::string(KERAS_ORACLE_DIR) + "/layer_files"))
    if (entry.path().extension() == ".keras") names.insert(entry.path().stem().string());
  return names;
}

// The "file" of every case of layer_files.npz, the cases keras-cpp does not pass yet included.
std::set<std::string> files_with_a_case() {
  std::set<std::string> files;
  for (auto& [key, value] : utils::load_npz(test::oracle_path("layer_files"))) {
    const std::string suffix = ".kwargs";
    if (key.size() > suffix.size() &&
        key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
      files.insert(json::parse(text_of(value)).at("file").get<std::string>());
  }
  return files;
}

TEST(LayerFiles, EveryLayerClassFileSavedByKerasLoadsAndPredictsTheSame) {
  std::set<std::string> checked;
  std::map<std::string, Config> configs;  // Keras class name -> a config of that class
  test::GoldenOps ops;
  ops["predict_keras"] = [&](const TensorList& in, const json& kw) {
    backend::clear_session();
    const std::string cls = kw.at("file").get<std::string>();
    auto model = saving::load_model(layer_file(cls));
    TensorStruct x = in.size() == 1 ? TensorStruct(in[0]) : TensorStruct(in);
    TensorList out = model->predict(x, {.verbose = 0}).flat();
    checked.insert(cls);
    if (layers::keras_class_name(model->class_name()) == cls) configs[cls] = model->get_config();
    for (const auto& layer : model->layers())
      if (layers::keras_class_name(layer->class_name()) == cls) configs[cls] = layer->get_config();
    return out;
  };
  test::run_oracle("layer_files", ops);

  const std::set<std::string> on_disk = files_on_disk();
  const std::set<std::string> with_case = files_with_a_case();
  for (const std::string& cls : on_disk)
    EXPECT_TRUE(with_case.count(cls)) << "layer_files/" << cls << ".keras has no case";

  // Registered names: their Keras class's file, or an alias of a class with a file (the name
  // builds, from that file's layer config, a layer of the file's class).
  std::vector<std::string> no_file, aliases;
  size_t with_file = 0;
  for (const std::string& name : layers::registered_layers()) {
    const std::string cls = layers::keras_class_name(name);
    if (on_disk.count(cls)) {
      ++with_file;
      EXPECT_TRUE(with_case.count(cls))
          << name << ": layer_files/" << cls << ".keras exists but layer_files.npz has no case";
      continue;
    }
    std::string alias_of;
    for (const auto& [file_cls, config] : configs) {
      try {
        auto layer = layers::from_config(name, config);
        if (layers::keras_class_name(layer->class_name()) == file_cls) alias_of = file_cls;
      } catch (const std::exception&) {
      }
      if (!alias_of.empty()) break;
    }
    if (alias_of.empty()) {
      no_file.push_back(name);
    } else {
      aliases.push_back(name + "=" + alias_of);
    }
  }
  std::cout << "[oracle] layer files: " << checked.size() << " of " << with_case.size()
            << " files load and predict as in Keras 3.15; " << with_file
            << " registered names have a file of their class, " << aliases.size()
            << " are aliases of one (";
  for (size_t i = 0; i < aliases.size(); ++i) std::cout << (i ? ", " : "") << aliases[i];
  std::cout << "); registered with no file: ";
  for (size_t i = 0; i < no_file.size(); ++i) std::cout << (i ? ", " : "") << no_file[i];
  std::cout << (no_file.empty() ? "none" : "") << "\n";
  EXPECT_GE(checked.size(), 90u);
}

}  // namespace
}  // namespace keras

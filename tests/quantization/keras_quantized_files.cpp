#include "keras_quantized_files.h"

#include <gtest/gtest.h>

#include "assertions.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/utils/npy.h"

namespace keras::test {
namespace {

std::map<std::string, std::vector<uint8_t>> members(const std::string& path) {
  return saving::read_zip_members(saving::read_file_bytes(path), path);
}

// Keras marks the second and later layers sharing one config object (Model.quantize gives every
// layer the same one) with "shared_object_id": a bookkeeping key of its saving scope that makes
// them share one object again on load. keras-cpp does not write it; each layer then gets its
// own equal config, which predicts the same. Compared without it.
json without_shared_object_ids(json j) {
  if (j.is_object()) {
    j.erase("shared_object_id");
    for (auto& [key, value] : j.items()) value = without_shared_object_ids(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_shared_object_ids(value);
  }
  return j;
}

}  // namespace

KerasQuantizedFiles::KerasQuantizedFiles(const std::string& name)
    : name_(name), arrays_(utils::load_npz(oracle_path(name))) {}

const Tensor& KerasQuantizedFiles::at(const std::string& key) const {
  auto it = arrays_.find(key);
  if (it == arrays_.end()) throw std::runtime_error(name_ + ".npz has no " + key);
  return it->second;
}

std::string KerasQuantizedFiles::file(const std::string& stem) const {
  return std::string(KERAS_ORACLE_DIR) + "/" + name_ + "/" + stem + ".keras";
}

void KerasQuantizedFiles::expect_variables(const Model& model, const std::string& prefix) const {
  size_t checked = 0;
  for (const Variable& v : model.weights()) {
    const Tensor& expected = at(prefix + ".var." + v.path());
    const double rtol = is_integer(expected.dtype()) ? 0 : 1e-6;
    EXPECT_TRUE(tensors_near(v.value(), expected, rtol, 0)) << prefix << " " << v.path();
    ++checked;
  }
  size_t keras_count = 0;
  for (const auto& [key, value] : arrays_)
    if (key.rfind(prefix + ".var.", 0) == 0) ++keras_count;
  EXPECT_EQ(checked, keras_count) << prefix << ": keras-cpp's variables are not Keras's";
}

std::map<std::string, json> layer_configs(const std::string& keras_file) {
  auto m = members(keras_file);
  const auto& bytes = m.at("config.json");
  json config = json::parse(std::string(bytes.begin(), bytes.end()));
  std::map<std::string, json> out;
  for (const auto& layer : config["config"]["layers"])
    out[layer["config"]["name"].get<std::string>()] = layer["config"];
  return out;
}

void expect_same_quantized_file(const std::string& ours, const std::string& keras,
                                const std::string& what) {
  auto mine = layer_configs(ours), theirs = layer_configs(keras);
  ASSERT_EQ(mine.size(), theirs.size()) << what;
  for (const auto& [layer, config] : theirs) {
    for (const char* key : {"dtype", "quantization_config"}) {
      if (!config.contains(key)) continue;
      EXPECT_EQ(mine[layer][key], without_shared_object_ids(config[key]))
          << what << " " << layer << " " << key;
    }
  }
  auto h5_of = [](const std::string& path) {
    return saving::H5File::open_image(members(path).at("model.weights.h5"), path);
  };
  saving::H5File a = h5_of(ours), b = h5_of(keras);
  for (const std::string& layer : b.children("layers")) {
    const std::string group = "layers/" + layer + "/vars";
    ASSERT_EQ(a.children(group), b.children(group)) << what << " " << group;
    for (const std::string& index : b.children(group)) {
      Tensor x = a.read(group + "/" + index), y = b.read(group + "/" + index);
      const double rtol = is_integer(y.dtype()) ? 0 : 1e-6;
      EXPECT_TRUE(tensors_near(x, y, rtol, 0)) << what << " " << group << "/" << index;
    }
  }
}

}  // namespace keras::test

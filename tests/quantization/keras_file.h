#pragma once
// What the quantization tests read from .keras files: the zip members, the layers' configs, and
// the check that keras-cpp's saved file has Keras's config entries and weight datasets.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"

namespace keras::test {

inline std::map<std::string, std::vector<uint8_t>> zip_members(const std::string& path) {
  return saving::read_zip_members(saving::read_file_bytes(path), path);
}

/// The layers' configs of a .keras file's config.json, by layer name.
inline std::map<std::string, json> layer_configs(const std::string& path) {
  auto m = zip_members(path);
  const auto& bytes = m.at("config.json");
  json config = json::parse(std::string(bytes.begin(), bytes.end()));
  std::map<std::string, json> out;
  for (const auto& layer : config["config"]["layers"])
    out[layer["config"]["name"].get<std::string>()] = layer["config"];
  return out;
}

/// `config` without Keras's "shared_object_id" entries: Python object ids Keras writes when one
/// object is serialized twice in a save (a quantization config); loading does not need them.
inline json without_shared_ids(json config) {
  if (config.is_object()) {
    config.erase("shared_object_id");
    for (auto& [key, value] : config.items()) value = without_shared_ids(value);
  } else if (config.is_array()) {
    for (auto& value : config) value = without_shared_ids(value);
  }
  return config;
}

/// `ours` has `keras`'s "dtype" and "quantization_config" entries, layer by layer, and the same
/// model.weights.h5 datasets in the same order, dtypes and values (|diff| <= rtol |keras|).
inline void expect_saved_like_keras(const std::string& ours, const std::string& keras,
                                    double rtol) {
  auto mine = layer_configs(ours), theirs = layer_configs(keras);
  ASSERT_EQ(mine.size(), theirs.size()) << keras;
  for (const auto& [layer, config] : theirs) {
    for (const char* key : {"dtype", "quantization_config"}) {
      if (!config.contains(key)) continue;
      EXPECT_EQ(without_shared_ids(mine[layer][key]), without_shared_ids(config[key]))
          << keras << " " << layer << " " << key;
    }
  }
  auto h5_of = [](const std::string& path) {
    return saving::H5File::open_image(zip_members(path).at("model.weights.h5"), path);
  };
  saving::H5File a = h5_of(ours), b = h5_of(keras);
  for (const std::string& layer : b.children("layers")) {
    const std::string group = "layers/" + layer + "/vars";
    ASSERT_EQ(a.children(group), b.children(group)) << keras << " " << group;
    for (const std::string& index : b.children(group)) {
      Tensor x = a.read(group + "/" + index), y = b.read(group + "/" + index);
      EXPECT_EQ(x.dtype(), y.dtype()) << group << "/" << index;
      auto got = ops::cast(x, DType::Float64).to_vector<double>();
      auto want = ops::cast(y, DType::Float64).to_vector<double>();
      ASSERT_EQ(got.size(), want.size()) << group << "/" << index;
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_LE(std::abs(got[i] - want[i]), rtol * std::abs(want[i]))
            << keras << " " << group << "/" << index << "[" << i << "]";
    }
  }
}

}  // namespace keras::test

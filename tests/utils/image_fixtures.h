#pragma once
// The fixtures of tools/keras_oracle/image_io.py: the image tree, the expected arrays and the
// file lists Keras 3.15 gave.

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "keras/utils/npy.h"

namespace keras::image_fixtures {

inline std::string fixture_file(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/" + name;
}

inline std::string images_dir() {
  return fixture_file("images");
}

inline const std::map<std::string, Tensor>& arrays() {
  static const auto loaded = utils::load_npz(fixture_file("image_io.npz"));
  return loaded;
}

inline const nlohmann::json& meta() {
  static const nlohmann::json parsed =
      nlohmann::json::parse(std::ifstream(fixture_file("image_io.json")));
  return parsed;
}

}  // namespace keras::image_fixtures

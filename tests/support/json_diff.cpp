#include "json_diff.h"

#include <cmath>

namespace keras::test {

std::vector<std::string> json_differences(const nlohmann::json& actual,
                                          const nlohmann::json& expected, double rtol,
                                          const std::string& path) {
  std::vector<std::string> out;
  const std::string where = path.empty() ? "(root)" : path;
  if (actual.is_number() && expected.is_number()) {
    double a = actual.get<double>(), e = expected.get<double>();
    if (!(a == e || std::abs(a - e) <= rtol * std::abs(e)))
      out.push_back(where + ": " + actual.dump() + " vs " + expected.dump());
    return out;
  }
  if (actual.is_object() && expected.is_object()) {
    for (auto& [key, value] : expected.items()) {
      std::string sub = path.empty() ? key : path + "." + key;
      if (!actual.contains(key)) {
        out.push_back(sub + ": missing (Keras has " + value.dump() + ")");
        continue;
      }
      auto more = json_differences(actual[key], value, rtol, sub);
      out.insert(out.end(), more.begin(), more.end());
    }
    for (auto& [key, value] : actual.items())
      if (!expected.contains(key))
        out.push_back((path.empty() ? key : path + "." + key) + ": unexpected " + value.dump());
    return out;
  }
  if (actual.is_array() && expected.is_array()) {
    if (actual.size() != expected.size()) {
      out.push_back(where + ": " + actual.dump() + " vs " + expected.dump());
      return out;
    }
    for (size_t i = 0; i < actual.size(); ++i) {
      auto more = json_differences(actual[i], expected[i], rtol, path + "[" + std::to_string(i) + "]");
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }
  if (actual != expected) out.push_back(where + ": " + actual.dump() + " vs " + expected.dump());
  return out;
}

nlohmann::json comparable_keras_config(nlohmann::json config) {
  if (config.is_object()) {
    config.erase("shared_object_id");
    if (config.value("class_name", nlohmann::json()) == "InputLayer" && config.contains("config") &&
        config["config"].value("optional", true) == false)
      config["config"].erase("optional");
    for (auto& [key, value] : config.items()) value = comparable_keras_config(value);
  } else if (config.is_array()) {
    for (auto& value : config) value = comparable_keras_config(value);
  }
  return config;
}

}  // namespace keras::test

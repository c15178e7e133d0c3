#pragma once
// Key-for-key comparison of two JSON values (configs written by keras-cpp and by Keras), with a
// readable list of every difference.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace keras::test {

/// Every place where `actual` differs from `expected`, as "path: actual vs expected" lines
/// ("config.units: 3 vs 4", "config.seed: missing", "config.extra: unexpected"). Numbers compare
/// by value within `rtol` (float32 values printed by C++ and Python differ in the last digits;
/// 1 and 1.0 are the same number, as Keras's from_config reads them).
std::vector<std::string> json_differences(const nlohmann::json& actual,
                                          const nlohmann::json& expected, double rtol = 1e-6,
                                          const std::string& path = "");

/// A config Keras wrote, less what keras-cpp writes differently on purpose: every
/// "shared_object_id" (Keras marks an object serialized twice in one file with its Python id(),
/// which carries no information) and InputLayer's "optional": false (keras-cpp writes it only
/// when true, so that Keras 3.10-3.12, which reject the key, read its files).
nlohmann::json comparable_keras_config(nlohmann::json config);

}  // namespace keras::test

#pragma once
// Keras configs are JSON: get_config() returns one, from_config() reads one, and the .keras
// format stores them. keras::Config is nlohmann::json (Debian's nlohmann-json3-dev).

#include <nlohmann/json.hpp>

#pragma GCC visibility push(default)
namespace keras {

/// A Keras config: the JSON object get_config() returns.
using Config = nlohmann::json;

}  // namespace keras

#pragma GCC visibility pop

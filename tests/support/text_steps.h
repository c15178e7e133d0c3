#pragma once
// The C++ twins of tools/keras_oracle/text_functions.py's registered Python functions, for
// the Keras file that uses them as TextVectorization steps (string_graphs.py's
// "custom_steps"): shared by tests/models and tools/interop.

#include <mutex>
#include <string>
#include <vector>

#include "keras/layers/preprocessing/text_vectorization.h"

namespace keras::test {

/// Registers "demo>no_digits" (ASCII lowercase, digits removed, as tf.strings.lower and
/// regex_replace "[0-9]") and "demo>on_commas" (split at each comma, empty tokens kept, as
/// tf.strings.split(sep=",")); once per process.
inline void register_demo_text_steps() {
  static std::once_flag once;
  std::call_once(once, [] {
    layers::register_standardize_function("demo", "no_digits", [](const std::string& text) {
      std::string out;
      for (char c : text) {
        if (c >= '0' && c <= '9') continue;
        out += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      }
      return out;
    });
    layers::register_split_function("demo", "on_commas", [](const std::string& text) {
      std::vector<std::string> tokens(1);
      for (char c : text) {
        if (c == ',') tokens.emplace_back();
        else tokens.back() += c;
      }
      return tokens;
    });
  });
}

}  // namespace keras::test

#pragma once
// Conventions shared by the options structs of the built-in layers. Every XOptions struct ends
// with the three arguments every Keras layer takes:
//
//   std::string name;        // automatic when empty
//   bool trainable = true;
//   std::string dtype;       // a dtype policy name; empty for the default
//
// (C++ designated initializers cannot reach into a base struct, so the fields are repeated.)

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The LayerOptions part of a layer's options struct.
template <typename Options>
LayerOptions base_options(const Options& options) {
  return LayerOptions{options.name, options.trainable, options.dtype};
}

/// The base fields of a layer's config read back into an options struct (from_config).
template <typename Options>
void read_base_config(const Config& config, Options& options) {
  if (config.contains("name")) options.name = config["name"].get<std::string>();
  if (config.contains("trainable")) options.trainable = config["trainable"].get<bool>();
  if (config.contains("dtype") && !config["dtype"].is_null())
    options.dtype = DTypePolicy::deserialize(config["dtype"]).name;
}

}  // namespace keras::layers

#pragma GCC visibility pop

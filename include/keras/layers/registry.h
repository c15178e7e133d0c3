#pragma once
// Layers by class name: what from_config and (later) model loading use. Every built-in layer
// is registered; custom layers register themselves with register_layer.

#include <functional>
#include <string>
#include <vector>

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// Makes a layer from its get_config().
using LayerFactory = std::function<std::shared_ptr<Layer>(const Config& config)>;

/// Registers a layer class under `class_name` (a second registration replaces the first).
void register_layer(const std::string& class_name, LayerFactory factory);

/// The layer a config describes: either the inner config with `class_name` given, or a full
/// serialize_keras_object record ({"class_name": ..., "config": ...}). ValueError naming the
/// class and how to register it when it is unknown.
std::shared_ptr<Layer> from_config(const std::string& class_name, const Config& config);
/// The layer of a serialize_keras_object record ({"class_name": ..., "config": ...}); ValueError
/// when it is not one or the class is unknown.
std::shared_ptr<Layer> deserialize(const Config& record);
/// Keras's serialize_keras_object record of a built-in layer, with its build_config when built
/// (as the sublayer records inside Bidirectional, TimeDistributed and RNN configs have it).
Config serialize(const Layer& layer);
/// Layer.get_build_config: {"input_shape": ...} (or {"shapes_dict": ...} for layers whose
/// build() takes named shapes), or null for a layer that is unbuilt or built at construction.
Config get_build_config(const Layer& layer);
/// The class name Keras 3.15 writes in a record for a class ("GroupedQueryAttention" is
/// written "GroupQueryAttention"); the name itself for every other class.
std::string keras_class_name(const std::string& class_name);
/// The module Keras 3.15 writes in a record for a class: "keras.layers" for the exported
/// layers; the source module of the unexported classes keras.applications builds
/// ("keras.src.applications.inception_resnet_v2" for CustomScaleLayer, "...convnext" for
/// LayerScale), whose records also carry the class name as registered_name.
std::string keras_module(const std::string& class_name);

/// Class names with a factory, sorted.
std::vector<std::string> registered_layers();

}  // namespace keras::layers

#pragma GCC visibility pop

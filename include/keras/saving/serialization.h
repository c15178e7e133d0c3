#pragma once
// Keras's serialize_keras_object / deserialize_keras_object for layers and models, and the
// registry of custom classes (keras.saving.register_keras_serializable).
//
//   class MyDense : public keras::Layer { ... Config get_config() const override; ... };
//   keras::saving::register_keras_serializable<MyDense>("my_package", "MyDense");
//   auto record = keras::saving::serialize_keras_object(*layer);
//   // {"module": "my_package", "class_name": "MyDense", "config": {...},
//   //  "registered_name": "my_package>MyDense", "build_config": {...}}
//   auto copy = keras::saving::deserialize_keras_object(record);
//
// A registered class needs `static std::shared_ptr<keras::Layer> from_config(const
// keras::Config&)`, or pass a factory to the other overload.

#include <memory>
#include <string>

#include "keras/core/json.h"
#include "keras/layers/registry.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// deserialize_keras_object's keyword arguments, with Keras's defaults.
struct DeserializeOptions {
  /// Refuse what could run code from the file. keras-cpp never runs Python code in any mode:
  /// a Lambda holding Python bytecode is refused either way; safe_mode additionally refuses
  /// classes that are only known by a Python module path (nothing to do in C++).
  bool safe_mode = true;
  /// Also compile a model whose record has a non-empty compile_config.
  bool compile = true;
};

/// The record Keras writes for a layer or model: module, class_name, config, registered_name,
/// plus build_config for built layers and compile_config for models.
Config serialize_keras_object(const Layer& layer);

/// The layer or model a record describes, built (build_config) and compiled (compile_config)
/// as Keras does. ValueError naming the class and how to register it when it is unknown.
std::shared_ptr<Layer> deserialize_keras_object(const Config& record,
                                                const DeserializeOptions& options = {});

/// Registers a custom layer or model class under "package>name" (Keras's registered name), so
/// serialize_keras_object writes that name and deserialize_keras_object finds the factory.
/// `class_name` is what the layer's class_name() returns.
void register_keras_serializable(const std::string& package, const std::string& class_name,
                                 layers::LayerFactory factory);
template <typename T>
/// register_keras_serializable with T's static from_config as the factory.
void register_keras_serializable(const std::string& package, const std::string& class_name) {
  register_keras_serializable(package, class_name, &T::from_config);
}

/// "package>Name" for a registered custom class, or "" when `class_name` is not registered.
std::string get_registered_name(const std::string& class_name);
/// The factory registered under "package>Name" (or a built-in class name); null when none.
layers::LayerFactory get_registered_object(const std::string& name);

/// A scope in which deserialization is unsafe (Keras's SafeModeScope); restores on exit.
class SafeModeScope {
 public:
  /// Sets the safe mode to `safe_mode` until the scope is destroyed.
  explicit SafeModeScope(bool safe_mode);
  ~SafeModeScope();
  SafeModeScope(const SafeModeScope&) = delete;
  SafeModeScope& operator=(const SafeModeScope&) = delete;
  /// The mode in effect (true outside any scope).
  static bool safe_mode();

 private:
  bool previous_;
};

}  // namespace keras::saving

#pragma GCC visibility pop

#pragma once
// keras.activations: functions of one tensor, known by name ("relu", "softmax", ...) so that
// layer configs can store them as Keras does (a bare string for built-ins).

#include <functional>
#include <string>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::activations {

/// A named activation function. An empty Activation is "linear" (the identity).
class Activation {
 public:
  using Fn = std::function<Tensor(const Tensor&)>;

  /// linear.
  Activation() = default;
  /// The built-in activation `name` ("relu", "gelu", ...); ValueError listing them otherwise.
  Activation(const char* name);  // NOLINT
  Activation(const std::string& name);  // NOLINT
  /// A custom function; `name` is what configs record.
  Activation(Fn fn, std::string name);

  Tensor operator()(const Tensor& x) const { return fn_ ? fn_(x) : x; }
  /// The Keras name ("linear" for the identity).
  const std::string& name() const { return name_; }
  bool is_linear() const { return !fn_; }

 private:
  Fn fn_;
  std::string name_ = "linear";
};

/// The built-in activation `name` (keras.activations.get).
Activation get(const std::string& name);
/// Keras's serialization of an activation in a layer config: the bare name.
Config serialize(const Activation& activation);
Activation deserialize(const Config& config);

}  // namespace keras::activations

#pragma GCC visibility pop

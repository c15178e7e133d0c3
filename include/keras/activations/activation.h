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
  /// The function type: one tensor in, one tensor out.
  using Fn = std::function<Tensor(const Tensor&)>;

  /// linear.
  Activation() = default;
  /// The built-in activation `name` ("relu", "gelu", ...); ValueError listing them otherwise.
  Activation(const char* name);  // NOLINT
  /// The built-in activation `name`; ValueError listing the known names otherwise.
  /// Keras's aliases "swish" and "hard_swish" are recorded as "silu" and "hard_silu".
  Activation(const std::string& name);  // NOLINT
  /// A custom function; `name` is what configs record.
  Activation(Fn fn, std::string name);

  /// Applies the activation to `x` (returns `x` itself when linear).
  Tensor operator()(const Tensor& x) const { return fn_ ? fn_(x) : x; }
  /// The Keras name ("linear" for the identity).
  const std::string& name() const { return name_; }
  /// Whether this is the identity ("linear"), so callers can skip the call.
  bool is_linear() const { return !fn_; }

 private:
  Fn fn_;
  std::string name_ = "linear";
};

/// The built-in activation `name` (keras.activations.get).
Activation get(const std::string& name);
/// Keras's serialization of an activation in a layer config: the bare name.
Config serialize(const Activation& activation);
/// Reads an activation from a layer config (keras.activations.deserialize).
/// Accepts null (linear), a bare name, or a `{"class_name": "function", "config": name}` record;
/// throws ValueError for anything else.
Activation deserialize(const Config& config);

}  // namespace keras::activations

#pragma GCC visibility pop

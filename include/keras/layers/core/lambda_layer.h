#pragma once
// keras.layers.Lambda: wraps a C++ function of one tensor as a layer.
//
//   auto square = layers::Lambda([](const Tensor& x) { return ops::square(x); });
//
// A config stores the function by name only and never code: keras-cpp never executes code from
// a config. To save and reload a Lambda, register its function under a name first:
//
//   layers::register_lambda("square", [](const Tensor& x) { return ops::square(x); });
//   auto layer = layers::Lambda("square");      // get_config() -> from_config() round-trips
//
// from_config of a Lambda whose function is not registered (a Python lambda's bytecode, an
// unregistered Python function, an anonymous C++ function) raises a ValueError saying so.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The function a Lambda layer applies.
using LambdaFunction = std::function<Tensor(const Tensor&)>;
/// A Lambda layer's output mask from its inputs and input mask (Keras's `mask` callable).
using LambdaMaskFunction = std::function<Tensor(const Tensor& inputs, const Tensor& mask)>;

/// Registers `function` under `name` (Keras's registered name of a function, as written in the
/// config: "square" or "package>square"), replacing an earlier registration.
void register_lambda(const std::string& name, LambdaFunction function);
/// The function registered under `name`, or an empty function.
LambdaFunction registered_lambda(const std::string& name);

/// keras.layers.Lambda's arguments besides the function.
struct LambdaOptions {
  /// The output shape without the batch axis. When given, symbolic calls (the Functional API)
  /// take it instead of running the function, so functions whose output shape depends on data
  /// work there too.
  std::optional<Shape> output_shape;
  /// Computes the output mask (the layer then supports masking, as Keras's Lambda(mask=fn)).
  /// Not saved by name: a config with a mask is written but cannot be loaded back.
  LambdaMaskFunction mask;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Lambda layer (Keras's "Lambda").
class LambdaLayer : public Layer {
 public:
  /// `function_name` is what the config records ("" for an anonymous function).
  LambdaLayer(LambdaFunction function, std::string function_name, LambdaOptions options = {});
  std::string class_name() const override { return "Lambda"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// The mask option's result; none without one.
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Config get_config() const override;
  /// ValueError unless the config's function is registered (see register_lambda).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The registered name of the function; empty for an anonymous one.
  const std::string& function_name() const { return function_name_; }

 private:
  LambdaFunction function_;
  std::string function_name_;
  LambdaOptions options_;
};

/// A layer applying an anonymous function (its config cannot be loaded back).
LayerPtr<LambdaLayer> Lambda(LambdaFunction function, LambdaOptions options = {});
/// A layer applying the function registered under `function_name` (ValueError when none is).
LayerPtr<LambdaLayer> Lambda(const std::string& function_name, LambdaOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

#pragma once
// keras::ops on KerasTensors: each call records a node of the Functional graph (an
// OperationLayer holding the Keras op class and its arguments), as keras.ops calls on symbolic
// tensors do in Keras 3. The model saves them as Keras writes them, so Python Keras rebuilds the
// same graph.
//
//   auto inputs = keras::Input({8});
//   auto h = keras::layers::Dense(4)(inputs);
//   auto y = keras::ops::mean(h * 2.0 + 1.0, 1, /*keepdims=*/true);   // Multiply, Add, Mean
//   auto model = keras::Functional(inputs, y);
//
// Any other registered op class (keras/ops/operation.h) is reachable through call_operation.

#include <string>
#include <variant>
#include <vector>

#include "keras/core/json.h"
#include "keras/layers/keras_tensor.h"
#include "keras/ops/axes.h"

#pragma GCC visibility push(default)
namespace keras::ops {

/// A positional argument of an op call: a KerasTensor, a list of them, or a constant.
class SymbolicArg {
 public:
  SymbolicArg(const KerasTensor& tensor) : value_(tensor) {}                     // NOLINT
  SymbolicArg(std::vector<KerasTensor> tensors) : value_(std::move(tensors)) {}  // NOLINT
  SymbolicArg(double constant) : value_(Config(constant)) {}                     // NOLINT
  SymbolicArg(int constant) : value_(Config(constant)) {}                        // NOLINT
  SymbolicArg(bool constant) : value_(Config(constant)) {}                       // NOLINT
  /// Any JSON constant (a nested list of numbers, a string).
  static SymbolicArg constant(Config value) { return SymbolicArg(Tag{}, std::move(value)); }

  const std::variant<KerasTensor, std::vector<KerasTensor>, Config>& value() const {
    return value_;
  }

 private:
  struct Tag {};
  SymbolicArg(Tag, Config value) : value_(std::move(value)) {}
  std::variant<KerasTensor, std::vector<KerasTensor>, Config> value_;
};

/// Records a call of the Keras op class `class_name` (registered in keras/ops/operation.h) on
/// `args`, with `config` its constructor arguments as Keras writes them (a unique name is
/// added unless config has one). Returns the op's outputs.
std::vector<KerasTensor> call_operation(const std::string& class_name,
                                        std::vector<SymbolicArg> args,
                                        Config config = Config::object());

// ---- keras.ops functions (the same names and defaults as on Tensors) ----------------------
// Binary ops take a KerasTensor on one side (a constant on the other is recorded as Keras
// records a Python number); with constants only, the Tensor overloads apply.
KerasTensor add(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor add(double x1, const KerasTensor& x2);
KerasTensor subtract(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor subtract(double x1, const KerasTensor& x2);
KerasTensor multiply(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor multiply(double x1, const KerasTensor& x2);
KerasTensor divide(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor divide(double x1, const KerasTensor& x2);
KerasTensor power(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor power(double x1, const KerasTensor& x2);
KerasTensor maximum(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor maximum(double x1, const KerasTensor& x2);
KerasTensor minimum(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor minimum(double x1, const KerasTensor& x2);
KerasTensor equal(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor equal(double x1, const KerasTensor& x2);
KerasTensor not_equal(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor not_equal(double x1, const KerasTensor& x2);
KerasTensor greater(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor greater(double x1, const KerasTensor& x2);
KerasTensor greater_equal(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor greater_equal(double x1, const KerasTensor& x2);
KerasTensor less(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor less(double x1, const KerasTensor& x2);
KerasTensor less_equal(const KerasTensor& x1, const SymbolicArg& x2);
KerasTensor less_equal(double x1, const KerasTensor& x2);
KerasTensor matmul(const KerasTensor& x1, const KerasTensor& x2);
KerasTensor where(const KerasTensor& condition, const SymbolicArg& x1, const SymbolicArg& x2);

KerasTensor abs(const KerasTensor& x);
KerasTensor exp(const KerasTensor& x);
KerasTensor log(const KerasTensor& x);
KerasTensor sqrt(const KerasTensor& x);
KerasTensor square(const KerasTensor& x);
KerasTensor tanh(const KerasTensor& x);
KerasTensor clip(const KerasTensor& x, double x_min, double x_max);
KerasTensor cast(const KerasTensor& x, DType dtype);

KerasTensor sum(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);
KerasTensor mean(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);
KerasTensor max(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);
KerasTensor min(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);

KerasTensor reshape(const KerasTensor& x, const Shape& new_shape);
KerasTensor transpose(const KerasTensor& x, const std::vector<int>& axes = {});
KerasTensor expand_dims(const KerasTensor& x, const Axes& axis);
KerasTensor squeeze(const KerasTensor& x, const Axes& axis = {});
KerasTensor concatenate(const std::vector<KerasTensor>& xs, int axis = 0);
KerasTensor stack(const std::vector<KerasTensor>& xs, int axis = 0);

KerasTensor relu(const KerasTensor& x);
KerasTensor sigmoid(const KerasTensor& x);
KerasTensor softmax(const KerasTensor& x, const Axes& axis = -1);

}  // namespace keras::ops

namespace keras {

// Arithmetic, as KerasTensor's Python operators (in namespace keras, so that argument-dependent
// lookup finds them for KerasTensors).
KerasTensor operator+(const KerasTensor& x, const ops::SymbolicArg& y);
KerasTensor operator+(double x, const KerasTensor& y);
KerasTensor operator-(const KerasTensor& x, const ops::SymbolicArg& y);
KerasTensor operator-(double x, const KerasTensor& y);
KerasTensor operator*(const KerasTensor& x, const ops::SymbolicArg& y);
KerasTensor operator*(double x, const KerasTensor& y);
/// TrueDivide, as Python's `/`.
KerasTensor operator/(const KerasTensor& x, const ops::SymbolicArg& y);
KerasTensor operator/(double x, const KerasTensor& y);
KerasTensor operator-(const KerasTensor& x);

}  // namespace keras

#pragma GCC visibility pop

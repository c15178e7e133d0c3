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
  /// A tensor of the graph.
  SymbolicArg(const KerasTensor& tensor) : value_(tensor) {}                     // NOLINT
  /// A list of tensors of the graph (Concatenate's and Stack's `xs`).
  SymbolicArg(std::vector<KerasTensor> tensors) : value_(std::move(tensors)) {}  // NOLINT
  /// A number, recorded as Keras records a Python float.
  SymbolicArg(double constant) : value_(Config(constant)) {}                     // NOLINT
  /// An integer, recorded as Keras records a Python int.
  SymbolicArg(int constant) : value_(Config(constant)) {}                        // NOLINT
  /// A bool, recorded as Keras records a Python bool.
  SymbolicArg(bool constant) : value_(Config(constant)) {}                       // NOLINT
  /// Any JSON constant (a nested list of numbers, a string).
  static SymbolicArg constant(Config value) { return SymbolicArg(Tag{}, std::move(value)); }

  /// The tensor, the list of tensors, or the JSON constant.
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
/// x1 + x2, recorded as a Keras `Add` node.
KerasTensor add(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 + x2 for a constant x1, recorded as a Keras `Add` node.
KerasTensor add(double x1, const KerasTensor& x2);
/// x1 - x2, recorded as a Keras `Subtract` node.
KerasTensor subtract(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 - x2 for a constant x1, recorded as a Keras `Subtract` node.
KerasTensor subtract(double x1, const KerasTensor& x2);
/// x1 * x2, recorded as a Keras `Multiply` node.
KerasTensor multiply(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 * x2 for a constant x1, recorded as a Keras `Multiply` node.
KerasTensor multiply(double x1, const KerasTensor& x2);
/// x1 / x2, recorded as a Keras `Divide` node.
KerasTensor divide(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 / x2 for a constant x1, recorded as a Keras `Divide` node.
KerasTensor divide(double x1, const KerasTensor& x2);
/// x1 ** x2, recorded as a Keras `Power` node.
KerasTensor power(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 ** x2 for a constant x1, recorded as a Keras `Power` node.
KerasTensor power(double x1, const KerasTensor& x2);
/// The elementwise maximum of x1 and x2, recorded as a Keras `Maximum` node.
KerasTensor maximum(const KerasTensor& x1, const SymbolicArg& x2);
/// The elementwise maximum of x1 and x2 for a constant x1, recorded as a Keras `Maximum` node.
KerasTensor maximum(double x1, const KerasTensor& x2);
/// The elementwise minimum of x1 and x2, recorded as a Keras `Minimum` node.
KerasTensor minimum(const KerasTensor& x1, const SymbolicArg& x2);
/// The elementwise minimum of x1 and x2 for a constant x1, recorded as a Keras `Minimum` node.
KerasTensor minimum(double x1, const KerasTensor& x2);
/// x1 == x2, recorded as a Keras `Equal` node.
KerasTensor equal(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 == x2 for a constant x1, recorded as a Keras `Equal` node.
KerasTensor equal(double x1, const KerasTensor& x2);
/// x1 != x2, recorded as a Keras `NotEqual` node.
KerasTensor not_equal(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 != x2 for a constant x1, recorded as a Keras `NotEqual` node.
KerasTensor not_equal(double x1, const KerasTensor& x2);
/// x1 > x2, recorded as a Keras `Greater` node.
KerasTensor greater(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 > x2 for a constant x1, recorded as a Keras `Greater` node.
KerasTensor greater(double x1, const KerasTensor& x2);
/// x1 >= x2, recorded as a Keras `GreaterEqual` node.
KerasTensor greater_equal(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 >= x2 for a constant x1, recorded as a Keras `GreaterEqual` node.
KerasTensor greater_equal(double x1, const KerasTensor& x2);
/// x1 < x2, recorded as a Keras `Less` node.
KerasTensor less(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 < x2 for a constant x1, recorded as a Keras `Less` node.
KerasTensor less(double x1, const KerasTensor& x2);
/// x1 <= x2, recorded as a Keras `LessEqual` node.
KerasTensor less_equal(const KerasTensor& x1, const SymbolicArg& x2);
/// x1 <= x2 for a constant x1, recorded as a Keras `LessEqual` node.
KerasTensor less_equal(double x1, const KerasTensor& x2);
/// The matrix product x1 @ x2, recorded as a Keras `Matmul` node.
KerasTensor matmul(const KerasTensor& x1, const KerasTensor& x2);
/// x1 where condition is true, else x2, recorded as a Keras `Where` node.
KerasTensor where(const KerasTensor& condition, const SymbolicArg& x1, const SymbolicArg& x2);

/// The absolute value, recorded as a Keras `Absolute` node.
KerasTensor abs(const KerasTensor& x);
/// e ** x, recorded as a Keras `Exp` node.
KerasTensor exp(const KerasTensor& x);
/// The natural logarithm, recorded as a Keras `Log` node.
KerasTensor log(const KerasTensor& x);
/// The square root, recorded as a Keras `Sqrt` node.
KerasTensor sqrt(const KerasTensor& x);
/// x * x, recorded as a Keras `Square` node.
KerasTensor square(const KerasTensor& x);
/// The hyperbolic tangent, recorded as a Keras `Tanh` node.
KerasTensor tanh(const KerasTensor& x);
/// x limited to [x_min, x_max], recorded as a Keras `Clip` node.
KerasTensor clip(const KerasTensor& x, double x_min, double x_max);
/// x converted to `dtype`, recorded as a Keras `Cast` node.
KerasTensor cast(const KerasTensor& x, DType dtype);

/// The sum over `axis` (None: all axes), recorded as a Keras `Sum` node.
KerasTensor sum(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);
/// The mean over `axis` (None: all axes), recorded as a Keras `Mean` node.
KerasTensor mean(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);
/// The maximum over `axis` (None: all axes), recorded as a Keras `Max` node.
KerasTensor max(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);
/// The minimum over `axis` (None: all axes), recorded as a Keras `Min` node.
KerasTensor min(const KerasTensor& x, const Axes& axis = {}, bool keepdims = false);

/// x with shape `new_shape` (one dimension may be -1), recorded as a Keras `Reshape` node.
KerasTensor reshape(const KerasTensor& x, const Shape& new_shape);
/// x with its axes permuted by `axes` (empty: reversed), recorded as a Keras `Transpose` node.
KerasTensor transpose(const KerasTensor& x, const std::vector<int>& axes = {});
/// x with new axes of extent 1 at `axis`, recorded as a Keras `ExpandDims` node.
KerasTensor expand_dims(const KerasTensor& x, const Axes& axis);
/// x without the extent-1 axes in `axis` (None: all of them), recorded as a Keras `Squeeze` node.
KerasTensor squeeze(const KerasTensor& x, const Axes& axis = {});
/// xs joined along the existing `axis`, recorded as a Keras `Concatenate` node.
KerasTensor concatenate(const std::vector<KerasTensor>& xs, int axis = 0);
/// xs stacked along a new `axis`, recorded as a Keras `Stack` node.
KerasTensor stack(const std::vector<KerasTensor>& xs, int axis = 0);

/// max(x, 0), recorded as a Keras `Relu` node.
KerasTensor relu(const KerasTensor& x);
/// 1 / (1 + exp(-x)), recorded as a Keras `Sigmoid` node.
KerasTensor sigmoid(const KerasTensor& x);
/// The softmax over `axis`, recorded as a Keras `Softmax` node.
KerasTensor softmax(const KerasTensor& x, const Axes& axis = -1);

}  // namespace keras::ops

namespace keras {

// Arithmetic, as KerasTensor's Python operators (in namespace keras, so that argument-dependent
// lookup finds them for KerasTensors).
/// x + y, as Python's `+` (a Keras `Add` node).
KerasTensor operator+(const KerasTensor& x, const ops::SymbolicArg& y);
/// x + y for a constant x, as Python's `+` (a Keras `Add` node).
KerasTensor operator+(double x, const KerasTensor& y);
/// x - y, as Python's `-` (a Keras `Subtract` node).
KerasTensor operator-(const KerasTensor& x, const ops::SymbolicArg& y);
/// x - y for a constant x, as Python's `-` (a Keras `Subtract` node).
KerasTensor operator-(double x, const KerasTensor& y);
/// x * y, as Python's `*` (a Keras `Multiply` node).
KerasTensor operator*(const KerasTensor& x, const ops::SymbolicArg& y);
/// x * y for a constant x, as Python's `*` (a Keras `Multiply` node).
KerasTensor operator*(double x, const KerasTensor& y);
/// TrueDivide, as Python's `/`.
KerasTensor operator/(const KerasTensor& x, const ops::SymbolicArg& y);
/// x / y for a constant x: TrueDivide, as Python's `/`.
KerasTensor operator/(double x, const KerasTensor& y);
/// -x, as Python's unary `-` (a Keras `Negative` node).
KerasTensor operator-(const KerasTensor& x);

}  // namespace keras

#pragma GCC visibility pop

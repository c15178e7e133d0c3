// keras::ops on KerasTensors (keras/ops/symbolic.h): each call is an OperationLayer node whose
// class and config are those keras.ops writes for the same call (keras/src/ops/*.py:
// `Class(constructor args).symbolic_call(call args)`).

#include "keras/ops/symbolic.h"

#include "keras/core/errors.h"
#include "keras/layers/operation_layer.h"

namespace keras::ops {
namespace {

Config axis_json(const Axes& axis) {
  if (axis.is_none()) return nullptr;
  if (axis.list().size() == 1) return axis.list()[0];
  Config out = Config::array();
  for (int a : axis.list()) out.push_back(a);
  return out;
}

KerasTensor one(std::vector<KerasTensor> outs, const std::string& class_name) {
  check(outs.size() == 1, class_name, " returned ", outs.size(), " tensors; expected one.");
  return outs[0];
}

KerasTensor op(const std::string& class_name, std::vector<SymbolicArg> args,
               Config config = Config::object()) {
  return one(call_operation(class_name, std::move(args), std::move(config)), class_name);
}

}  // namespace

std::vector<KerasTensor> call_operation(const std::string& class_name,
                                        std::vector<SymbolicArg> args, Config config) {
  // The call's arguments with each tensor as {"__tensor__": k}, in order of appearance.
  Config call_args = Config::array();
  std::vector<KerasTensor> tensors;
  auto slot = [&](const KerasTensor& t) {
    check(t.defined(), class_name, ": an argument is an undefined KerasTensor.");
    tensors.push_back(t);
    return Config{{"__tensor__", tensors.size() - 1}};
  };
  for (const SymbolicArg& arg : args) {
    const auto& v = arg.value();
    if (auto* t = std::get_if<KerasTensor>(&v)) {
      call_args.push_back(slot(*t));
    } else if (auto* list = std::get_if<std::vector<KerasTensor>>(&v)) {
      Config items = Config::array();
      for (const KerasTensor& t : *list) items.push_back(slot(t));
      call_args.push_back(items);
    } else {
      call_args.push_back(std::get<Config>(v));
    }
  }
  check(!tensors.empty(), class_name,
        ": a symbolic op call needs at least one KerasTensor argument (with constants only, "
        "call the op on Tensors).");
  auto layer = make_layer<layers::OperationLayer>(class_name, std::move(config), call_args);
  return (*layer)(tensors);
}

KerasTensor add(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Add", {x1, x2});
}
KerasTensor add(double x1, const KerasTensor& x2) {
  return op("Add", {x1, x2});
}
KerasTensor subtract(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Subtract", {x1, x2});
}
KerasTensor subtract(double x1, const KerasTensor& x2) {
  return op("Subtract", {x1, x2});
}
KerasTensor multiply(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Multiply", {x1, x2});
}
KerasTensor multiply(double x1, const KerasTensor& x2) {
  return op("Multiply", {x1, x2});
}
KerasTensor divide(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Divide", {x1, x2});
}
KerasTensor divide(double x1, const KerasTensor& x2) {
  return op("Divide", {x1, x2});
}
KerasTensor power(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Power", {x1, x2});
}
KerasTensor power(double x1, const KerasTensor& x2) {
  return op("Power", {x1, x2});
}
KerasTensor maximum(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Maximum", {x1, x2});
}
KerasTensor maximum(double x1, const KerasTensor& x2) {
  return op("Maximum", {x1, x2});
}
KerasTensor minimum(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Minimum", {x1, x2});
}
KerasTensor minimum(double x1, const KerasTensor& x2) {
  return op("Minimum", {x1, x2});
}
KerasTensor equal(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Equal", {x1, x2});
}
KerasTensor equal(double x1, const KerasTensor& x2) {
  return op("Equal", {x1, x2});
}
KerasTensor not_equal(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("NotEqual", {x1, x2});
}
KerasTensor not_equal(double x1, const KerasTensor& x2) {
  return op("NotEqual", {x1, x2});
}
KerasTensor greater(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Greater", {x1, x2});
}
KerasTensor greater(double x1, const KerasTensor& x2) {
  return op("Greater", {x1, x2});
}
KerasTensor greater_equal(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("GreaterEqual", {x1, x2});
}
KerasTensor greater_equal(double x1, const KerasTensor& x2) {
  return op("GreaterEqual", {x1, x2});
}
KerasTensor less(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("Less", {x1, x2});
}
KerasTensor less(double x1, const KerasTensor& x2) {
  return op("Less", {x1, x2});
}
KerasTensor less_equal(const KerasTensor& x1, const SymbolicArg& x2) {
  return op("LessEqual", {x1, x2});
}
KerasTensor less_equal(double x1, const KerasTensor& x2) {
  return op("LessEqual", {x1, x2});
}
KerasTensor matmul(const KerasTensor& x1, const KerasTensor& x2) {
  return op("Matmul", {x1, x2});
}
KerasTensor where(const KerasTensor& condition, const SymbolicArg& x1, const SymbolicArg& x2) {
  return op("Where", {condition, x1, x2});
}

KerasTensor abs(const KerasTensor& x) {
  return op("Absolute", {x});
}
KerasTensor exp(const KerasTensor& x) {
  return op("Exp", {x});
}
KerasTensor log(const KerasTensor& x) {
  return op("Log", {x});
}
KerasTensor sqrt(const KerasTensor& x) {
  return op("Sqrt", {x});
}
KerasTensor square(const KerasTensor& x) {
  return op("Square", {x});
}
KerasTensor tanh(const KerasTensor& x) {
  return op("Tanh", {x});
}
KerasTensor clip(const KerasTensor& x, double x_min, double x_max) {
  return op("Clip", {x}, {{"x_min", x_min}, {"x_max", x_max}});
}
KerasTensor cast(const KerasTensor& x, DType dtype) {
  return op("Cast", {x}, {{"dtype", std::string(dtype_name(dtype))}});
}

KerasTensor sum(const KerasTensor& x, const Axes& axis, bool keepdims) {
  return op("Sum", {x}, {{"axis", axis_json(axis)}, {"keepdims", keepdims}});
}
KerasTensor mean(const KerasTensor& x, const Axes& axis, bool keepdims) {
  return op("Mean", {x}, {{"axis", axis_json(axis)}, {"keepdims", keepdims}});
}
KerasTensor max(const KerasTensor& x, const Axes& axis, bool keepdims) {
  return op("Max", {x}, {{"axis", axis_json(axis)}, {"keepdims", keepdims}, {"initial", nullptr}});
}
KerasTensor min(const KerasTensor& x, const Axes& axis, bool keepdims) {
  return op("Min", {x}, {{"axis", axis_json(axis)}, {"keepdims", keepdims}, {"initial", nullptr}});
}

KerasTensor reshape(const KerasTensor& x, const Shape& new_shape) {
  Config dims = Config::array();
  for (int64_t d : new_shape) dims.push_back(d);
  return op("Reshape", {x}, {{"newshape", dims}});
}
KerasTensor transpose(const KerasTensor& x, const std::vector<int>& axes) {
  return op("Transpose", {x}, {{"axes", axes.empty() ? Config() : Config(axes)}});
}
KerasTensor expand_dims(const KerasTensor& x, const Axes& axis) {
  return op("ExpandDims", {x}, {{"axis", axis_json(axis)}});
}
KerasTensor squeeze(const KerasTensor& x, const Axes& axis) {
  return op("Squeeze", {x}, {{"axis", axis_json(axis)}});
}
KerasTensor concatenate(const std::vector<KerasTensor>& xs, int axis) {
  return op("Concatenate", {xs}, {{"axis", axis}});
}
KerasTensor stack(const std::vector<KerasTensor>& xs, int axis) {
  return op("Stack", {xs}, {{"axis", axis}});
}

KerasTensor relu(const KerasTensor& x) {
  return op("Relu", {x});
}
KerasTensor sigmoid(const KerasTensor& x) {
  return op("Sigmoid", {x});
}
KerasTensor softmax(const KerasTensor& x, const Axes& axis) {
  return op("Softmax", {x}, {{"axis", axis_json(axis)}});
}

}  // namespace keras::ops

namespace keras {

KerasTensor operator+(const KerasTensor& x, const ops::SymbolicArg& y) {
  return ops::op("Add", {x, y});
}
KerasTensor operator+(double x, const KerasTensor& y) {
  return ops::op("Add", {x, y});
}
KerasTensor operator-(const KerasTensor& x, const ops::SymbolicArg& y) {
  return ops::op("Subtract", {x, y});
}
KerasTensor operator-(double x, const KerasTensor& y) {
  return ops::op("Subtract", {x, y});
}
KerasTensor operator*(const KerasTensor& x, const ops::SymbolicArg& y) {
  return ops::op("Multiply", {x, y});
}
KerasTensor operator*(double x, const KerasTensor& y) {
  return ops::op("Multiply", {x, y});
}
KerasTensor operator/(const KerasTensor& x, const ops::SymbolicArg& y) {
  return ops::op("TrueDivide", {x, y});
}
KerasTensor operator/(double x, const KerasTensor& y) {
  return ops::op("TrueDivide", {x, y});
}
KerasTensor operator-(const KerasTensor& x) {
  return ops::op("Negative", {x});
}

}  // namespace keras

// Converters of keras.ops nodes in Functional graphs (OperationLayer: `ops::mean(x, 1)` on a
// KerasTensor). A node's constructor config holds the op's options (axis, keepdims, ...); its
// call arguments hold the tensors ({"__tensor__": k}, input k of the node) and plain numbers.

#include "keras/layers/operation_layer.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// The call's positional arguments, tensors written {"__tensor__": k}.
Config call_args(const LayerCall& c) {
  const auto& op = static_cast<const layers::OperationLayer&>(c.layer);
  return op.call_args([](size_t k) { return Config{{"__tensor__", k}}; });
}

// The ONNX value of one argument: input k, or a number as a float32 scalar. The converters
// handle float32 tensors (where Keras's promotion and ONNX's typing agree: an integer Divide
// is a true division in Keras, a floor one in ONNX); other dtypes are refused.
std::string value_of(LayerCall& c, const Config& arg, const std::string& name) {
  for (DType d : c.input_dtypes)
    if (d != DType::Float32)
      c.fail("its input is " + std::string(dtype_name(d)) + "; keras.ops nodes export on float32");
  if (arg.is_object() && arg.contains("__tensor__"))
    return c.inputs.at(arg["__tensor__"].get<size_t>());
  if (arg.is_number()) return c.g.scalar_f32(c.scope() + "/" + name, arg.get<float>());
  c.fail("argument " + arg.dump() + " is neither a tensor nor a number");
}

std::string unary(LayerCall& c, const std::string& op) {
  return c.g.node(op, {value_of(c, call_args(c).at(0), "x")}, {}, c.scope());
}

std::string binary(LayerCall& c, const std::string& op) {
  const Config args = call_args(c);
  if (args.size() != 2) c.fail("it takes two arguments, got " + std::to_string(args.size()));
  return c.g.node(op, {value_of(c, args[0], "x1"), value_of(c, args[1], "x2")}, {}, c.scope());
}

// Normalized axes of config "axis" (null: every axis) for the first input's rank.
std::vector<int64_t> axes_of(const LayerCall& c) {
  const int rank = c.rank();
  const Config& a = c.config.contains("axis") ? c.config["axis"] : Config();
  std::vector<int64_t> axes;
  if (a.is_null())
    for (int i = 0; i < rank; ++i) axes.push_back(i);
  else if (a.is_number_integer())
    axes.push_back(a.get<int64_t>());
  else
    axes = a.get<std::vector<int64_t>>();
  for (int64_t& x : axes)
    if (x < 0) x += rank;
  return axes;
}

std::string reduction(LayerCall& c, const std::string& op) {
  if (c.config.contains("initial") && !c.config["initial"].is_null())
    c.fail("an `initial` value is not exported");
  return reduce(c.g, op, value_of(c, call_args(c).at(0), "x"), axes_of(c),
                c.config.value("keepdims", false), c.scope());
}

#define UNARY(fn, onnx_op) \
  Values fn(LayerCall& c) { return {unary(c, onnx_op)}; }
#define BINARY(fn, onnx_op) \
  Values fn(LayerCall& c) { return {binary(c, onnx_op)}; }
#define REDUCTION(fn, onnx_op) \
  Values fn(LayerCall& c) { return {reduction(c, onnx_op)}; }

UNARY(relu, "Relu")
UNARY(sigmoid, "Sigmoid")
UNARY(tanh_op, "Tanh")
UNARY(exp_op, "Exp")
UNARY(log_op, "Log")
UNARY(sqrt_op, "Sqrt")
UNARY(abs_op, "Abs")
UNARY(negative, "Neg")
UNARY(erf_op, "Erf")
UNARY(floor_op, "Floor")
UNARY(ceil_op, "Ceil")
UNARY(sin_op, "Sin")
UNARY(cos_op, "Cos")
BINARY(add, "Add")
BINARY(subtract, "Sub")
BINARY(multiply, "Mul")
BINARY(divide, "Div")
BINARY(maximum, "Max")
BINARY(minimum, "Min")
BINARY(power, "Pow")
BINARY(matmul, "MatMul")
REDUCTION(mean, "ReduceMean")
REDUCTION(sum, "ReduceSum")
REDUCTION(max_op, "ReduceMax")
REDUCTION(min_op, "ReduceMin")

Values square(LayerCall& c) {
  const std::string x = value_of(c, call_args(c).at(0), "x");
  return {c.g.node("Mul", {x, x}, {}, c.scope())};
}

Values silu(LayerCall& c) {
  const std::string x = value_of(c, call_args(c).at(0), "x");
  return {c.g.node("Mul", {x, c.g.node("Sigmoid", {x}, {}, c.scope())}, {}, c.scope())};
}

Values softmax(LayerCall& c, const std::string& op) {
  const std::vector<int64_t> axes = axes_of(c);
  if (axes.size() != 1) c.fail("softmax over several axes has no single ONNX node");
  return {c.g.node(op, {value_of(c, call_args(c).at(0), "x")}, {{"axis", axes[0]}}, c.scope())};
}
Values softmax_op(LayerCall& c) { return softmax(c, "Softmax"); }
Values log_softmax(LayerCall& c) { return softmax(c, "LogSoftmax"); }

Values concatenate(LayerCall& c) {
  const Config args = call_args(c);
  std::vector<std::string> in;
  for (const Config& a : args.at(0)) in.push_back(value_of(c, a, "x"));
  return {c.g.node("Concat", in, {{"axis", c.config.value("axis", int64_t{0})}}, c.scope())};
}

Values reshape(LayerCall& c) {
  const std::vector<int64_t> shape = c.at("newshape").get<std::vector<int64_t>>();
  for (int64_t d : shape)
    if (d == 0) c.fail("a zero-sized dimension in newshape is not exported");
  return {c.g.node("Reshape", {value_of(c, call_args(c).at(0), "x"),
                               c.g.constant_i64(c.scope() + "/shape", shape)},
                   {}, c.scope())};
}

Values transpose_op(LayerCall& c) {
  const int rank = c.rank();
  std::vector<int64_t> perm;
  const Config& a = c.config.contains("axes") ? c.config["axes"] : Config();
  if (a.is_null())
    for (int i = rank - 1; i >= 0; --i) perm.push_back(i);
  else
    perm = a.get<std::vector<int64_t>>();
  for (int64_t& p : perm)
    if (p < 0) p += rank;
  return {transpose(c.g, value_of(c, call_args(c).at(0), "x"), perm, c.scope())};
}

Values expand_dims(LayerCall& c) {
  const int out_rank = c.rank() + 1;
  std::vector<int64_t> axes = c.at("axis").is_number_integer()
                                  ? std::vector<int64_t>{c.at("axis").get<int64_t>()}
                                  : c.at("axis").get<std::vector<int64_t>>();
  for (int64_t& x : axes)
    if (x < 0) x += out_rank;
  return {c.g.node("Unsqueeze", {value_of(c, call_args(c).at(0), "x"),
                                 c.g.constant_i64(c.scope() + "/axes", axes)},
                   {}, c.scope())};
}

Values squeeze(LayerCall& c) {
  std::vector<std::string> in{value_of(c, call_args(c).at(0), "x")};
  if (c.config.contains("axis") && !c.config["axis"].is_null())
    in.push_back(c.g.constant_i64(c.scope() + "/axes", axes_of(c)));
  return {c.g.node("Squeeze", in, {}, c.scope())};
}

// A comparison of a tensor of any dtype with a tensor or a number (the number in the tensor's
// dtype, as Keras's promotion of a Python scalar keeps it): what Keras records for the masks of
// Embedding(mask_zero) (`not_equal(ids, 0)`) and Masking.
std::string comparison_operand(LayerCall& c, const Config& arg, const std::string& name,
                               DType like) {
  if (arg.is_object() && arg.contains("__tensor__"))
    return c.inputs.at(arg["__tensor__"].get<size_t>());
  if (!arg.is_number()) c.fail("argument " + arg.dump() + " is neither a tensor nor a number");
  const std::string v = c.g.scalar_f32(c.scope() + "/" + name, arg.get<float>());
  return like == DType::Float32 ? v
                                : c.g.node("Cast", {v}, {{"to", int64_t{onnx_type(like)}}},
                                           c.scope());
}

std::string comparison(LayerCall& c, const std::string& op) {
  const Config args = call_args(c);
  if (args.size() != 2) c.fail("it takes two arguments, got " + std::to_string(args.size()));
  if (c.input_dtypes.empty()) c.fail("the dtype of its input is unknown");
  const DType like = c.input_dtypes[0];
  for (DType d : c.input_dtypes)
    if (d != like) c.fail("it compares tensors of different dtypes");
  return c.g.node(op, {comparison_operand(c, args[0], "x1", like),
                       comparison_operand(c, args[1], "x2", like)},
                  {}, c.scope());
}

Values equal(LayerCall& c) { return {comparison(c, "Equal")}; }
Values not_equal(LayerCall& c) {
  return {c.g.node("Not", {comparison(c, "Equal")}, {}, c.scope())};
}

// any / all of a boolean tensor: the maximum / minimum of its 0/1 floats (ONNX has no logical
// reduction).
Values logical_reduction(LayerCall& c, const std::string& op) {
  for (DType d : c.input_dtypes)
    if (d != DType::Bool) c.fail("it reduces a " + std::string(dtype_name(d)) + " tensor; "
                                 "any/all export on bool tensors");
  const Config args = call_args(c);
  const Config& x = args.at(0);
  if (!(x.is_object() && x.contains("__tensor__"))) c.fail("its argument is not a tensor");
  const std::string f = mask_as_float(c.g, c.inputs.at(x["__tensor__"].get<size_t>()), c.scope());
  const std::string r = reduce(c.g, op, f, axes_of(c), c.config.value("keepdims", false), c.scope());
  return {c.g.node("Cast", {r}, {{"to", int64_t{9}}}, c.scope())};  // BOOL
}
Values any_op(LayerCall& c) { return logical_reduction(c, "ReduceMax"); }
Values all_op(LayerCall& c) { return logical_reduction(c, "ReduceMin"); }

}  // namespace

Converter find_op_converter(const std::string& class_name) {
  static const std::map<std::string, Converter> table{
      {"Relu", relu},         {"Sigmoid", sigmoid},       {"Tanh", tanh_op},
      {"Exp", exp_op},        {"Log", log_op},            {"Sqrt", sqrt_op},
      {"Absolute", abs_op},   {"Abs", abs_op},            {"Negative", negative},
      {"Erf", erf_op},        {"Floor", floor_op},        {"Ceil", ceil_op},
      {"Sin", sin_op},        {"Cos", cos_op},            {"Square", square},
      {"Silu", silu},         {"Softmax", softmax_op},    {"LogSoftmax", log_softmax},
      {"Add", add},           {"Subtract", subtract},     {"Multiply", multiply},
      {"Divide", divide},     {"TrueDivide", divide},     {"Maximum", maximum},
      {"Minimum", minimum},   {"Power", power},           {"Matmul", matmul},
      {"Mean", mean},         {"Sum", sum},               {"Max", max_op},
      {"Min", min_op},        {"Concatenate", concatenate}, {"Reshape", reshape},
      {"Transpose", transpose_op}, {"ExpandDims", expand_dims}, {"Squeeze", squeeze},
      {"Equal", equal},       {"NotEqual", not_equal},    {"Any", any_op},
      {"All", all_op},
  };
  auto it = table.find(class_name);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace keras::onnx

#include "keras/backend/primitives.h"

#include <array>

namespace keras::backend {
namespace {

template <typename E, size_t N>
std::string_view lookup(E value, const std::array<std::string_view, N>& names) {
  auto i = static_cast<size_t>(value);
  return i < N ? names[i] : std::string_view("unknown");
}

}  // namespace

std::string_view name_of(UnaryOp op) {
  static constexpr std::array<std::string_view, static_cast<size_t>(UnaryOp::kCount)> names = {
      "neg", "abs", "sign", "square", "reciprocal", "sqrt", "rsqrt", "cbrt",
      "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
      "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
      "arccosh", "arctanh",
      "floor", "ceil", "round", "trunc",
      "erf", "erfc", "erfinv", "lgamma", "digamma", "i0",
      "relu", "sigmoid", "softplus", "silu", "gelu", "gelu_tanh", "log_sigmoid", "elu",
      "leaky_relu", "clip", "power_scalar",
      "bitwise_invert",
      "logical_not", "isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit"};
  return lookup(op, names);
}

std::string_view name_of(BinaryOp op) {
  static constexpr std::array<std::string_view, static_cast<size_t>(BinaryOp::kCount)> names = {
      "add", "subtract", "multiply", "divide", "floor_divide", "mod", "fmod", "power",
      "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign", "nextafter",
      "logaddexp", "logaddexp2", "heaviside", "gcd", "lcm",
      "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
      "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
      "logical_and", "logical_or", "logical_xor"};
  return lookup(op, names);
}

std::string_view name_of(ReduceOp op) {
  static constexpr std::array<std::string_view, static_cast<size_t>(ReduceOp::kCount)> names = {
      "sum", "mean", "prod", "max", "min", "any", "all"};
  return lookup(op, names);
}

std::string_view name_of(ArgReduceOp op) {
  static constexpr std::array<std::string_view, 2> names = {"argmax", "argmin"};
  return lookup(op, names);
}

std::string_view name_of(ScanOp op) {
  static constexpr std::array<std::string_view, 4> names = {"cumsum", "cumprod", "cummax",
                                                            "cummin"};
  return lookup(op, names);
}

std::string_view name_of(ScatterReduce op) {
  static constexpr std::array<std::string_view, 5> names = {"assign", "add", "multiply",
                                                            "maximum", "minimum"};
  return lookup(op, names);
}

std::string_view name_of(RandomKind kind) {
  static constexpr std::array<std::string_view, 4> names = {"bits", "uniform", "normal",
                                                            "truncated_normal"};
  return lookup(kind, names);
}

std::string_view name_of(Capability cap) {
  static constexpr std::array<std::string_view, static_cast<size_t>(Capability::kCount)> names = {
      "conv",     "pool",      "softmax",     "linear",           "linalg",
      "epilogue", "conv_pool", "elementwise", "quantized_matmul", "int4_matmul"};
  return lookup(cap, names);
}

}  // namespace keras::backend

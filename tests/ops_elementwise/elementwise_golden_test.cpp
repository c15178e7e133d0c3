// The elementwise ops against NumPy (tools/golden/numpy_elementwise.py).

#include <gtest/gtest.h>

#include "golden.h"
#include "golden_args.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // the fixture helpers

using test::GoldenFn;
using test::GoldenOps;
using test::json;

using Unary = Tensor (*)(const Tensor&);
using Binary = Tensor (*)(const Tensor&, const Tensor&);

const std::vector<std::pair<const char*, Unary>>& unary_ops() {
  static const std::vector<std::pair<const char*, Unary>> ops = {
      {"negative", ops::negative},
      {"absolute", ops::absolute},
      {"abs", ops::abs},
      {"fabs", ops::fabs},
      {"square", ops::square},
      {"sqrt", ops::sqrt},
      {"cbrt", ops::cbrt},
      {"reciprocal", ops::reciprocal},
      {"sign", ops::sign},
      {"exp", ops::exp},
      {"exp2", ops::exp2},
      {"expm1", ops::expm1},
      {"log", ops::log},
      {"log1p", ops::log1p},
      {"log2", ops::log2},
      {"log10", ops::log10},
      {"sin", ops::sin},
      {"cos", ops::cos},
      {"tan", ops::tan},
      {"arcsin", ops::arcsin},
      {"arccos", ops::arccos},
      {"arctan", ops::arctan},
      {"sinh", ops::sinh},
      {"cosh", ops::cosh},
      {"tanh", ops::tanh},
      {"arcsinh", ops::arcsinh},
      {"arccosh", ops::arccosh},
      {"arctanh", ops::arctanh},
      {"deg2rad", ops::deg2rad},
      {"rad2deg", ops::rad2deg},
      {"sinc", ops::sinc},
      {"floor", ops::floor},
      {"ceil", ops::ceil},
      {"trunc", ops::trunc},
      {"i0", ops::i0},
      {"angle", ops::angle},
      {"real", ops::real},
      {"imag", ops::imag},
      {"conj", ops::conj},
      {"conjugate", ops::conjugate},
      {"bitwise_invert", ops::bitwise_invert},
      {"bitwise_not", ops::bitwise_not},
      {"isfinite", ops::isfinite},
      {"isinf", ops::isinf},
      {"isnan", ops::isnan},
      {"isposinf", ops::isposinf},
      {"isneginf", ops::isneginf},
      {"isreal", ops::isreal},
      {"signbit", ops::signbit},
      {"logical_not", ops::logical_not},
      {"erf", ops::erf},
      {"erfc", ops::erfc},
      {"erfinv", ops::erfinv},
      {"rsqrt", ops::rsqrt},
      {"operator~", [](const Tensor& x) { return ~x; }},
  };
  return ops;
}

const std::vector<std::pair<const char*, Binary>>& binary_ops() {
  static const std::vector<std::pair<const char*, Binary>> ops = {
      {"add", ops::add},
      {"subtract", ops::subtract},
      {"multiply", ops::multiply},
      {"divide", ops::divide},
      {"true_divide", ops::true_divide},
      {"divide_no_nan", ops::divide_no_nan},
      {"floor_divide", ops::floor_divide},
      {"mod", ops::mod},
      {"fmod", ops::fmod},
      {"power", ops::power},
      {"maximum", ops::maximum},
      {"minimum", ops::minimum},
      {"fmax", ops::fmax},
      {"fmin", ops::fmin},
      {"gcd", ops::gcd},
      {"lcm", ops::lcm},
      {"logaddexp", ops::logaddexp},
      {"logaddexp2", ops::logaddexp2},
      {"ldexp", ops::ldexp},
      {"arctan2", ops::arctan2},
      {"hypot", ops::hypot},
      {"heaviside", ops::heaviside},
      {"nextafter", ops::nextafter},
      {"bitwise_and", ops::bitwise_and},
      {"bitwise_or", ops::bitwise_or},
      {"bitwise_xor", ops::bitwise_xor},
      {"left_shift", ops::left_shift},
      {"right_shift", ops::right_shift},
      {"bitwise_left_shift", ops::bitwise_left_shift},
      {"bitwise_right_shift", ops::bitwise_right_shift},
      {"equal", ops::equal},
      {"not_equal", ops::not_equal},
      {"less", ops::less},
      {"less_equal", ops::less_equal},
      {"greater", ops::greater},
      {"greater_equal", ops::greater_equal},
      {"logical_and", ops::logical_and},
      {"logical_or", ops::logical_or},
      {"logical_xor", ops::logical_xor},
      {"operator%", [](const Tensor& a, const Tensor& b) { return a % b; }},
      {"operator&", [](const Tensor& a, const Tensor& b) { return a & b; }},
      {"operator|", [](const Tensor& a, const Tensor& b) { return a | b; }},
      {"operator^", [](const Tensor& a, const Tensor& b) { return a ^ b; }},
  };
  return ops;
}

// The op names a battery case ran (run_golden only sees "battery").
std::set<std::string>& battery_ops() {
  static std::set<std::string> names;
  return names;
}

const GoldenOps& elementwise_ops();

// kwargs ops=[...], arity=k: every op on the same k inputs, or op i on inputs k*i ... k*i+k-1.
TensorList run_battery(const TensorList& in, const json& kw) {
  const auto names = kw["ops"].get<std::vector<std::string>>();
  const size_t arity = kw.value("arity", 1);
  const bool same_inputs = in.size() == arity;
  TensorList out;
  for (size_t i = 0; i < names.size(); ++i) {
    auto it = elementwise_ops().find(names[i]);
    if (it == elementwise_ops().end()) {
      ADD_FAILURE() << "battery op '" << names[i] << "' is not mapped";
      out.emplace_back();
      continue;
    }
    TensorList args;
    for (size_t k = 0; k < arity; ++k) args.push_back(in[same_inputs ? k : arity * i + k]);
    TensorList r = it->second(args, kw);  // kwargs such as `scalar` apply to each op
    out.push_back(r.at(0));
    battery_ops().insert(names[i]);
  }
  return out;
}

const GoldenOps& elementwise_ops() {
  static const GoldenOps m = [] {
    GoldenOps m;
    for (const auto& [name, fn] : unary_ops()) {
      Unary f = fn;
      m[name] = [f](const TensorList& in, const json&) { return TensorList{f(in[0])}; };
      m[std::string(name) + "_transposed"] = [f](const TensorList& in, const json&) {
        return TensorList{f(ops::transpose(in[0]))};
      };
    }
    for (const auto& [name, fn] : binary_ops()) {
      Binary f = fn;
      m[name] = [f](const TensorList& in, const json&) { return TensorList{f(in[0], in[1])}; };
      // The second operand as a C++ literal (weakly typed).
      m[std::string(name) + "_scalar"] = [f](const TensorList& in, const json& kw) {
        return TensorList{f(in[0], Tensor(scalar_of(kw["scalar"])))};
      };
    }
    m["where"] = [](const TensorList& in, const json&) {
      return TensorList{ops::where(in[0], in[1], in[2])};
    };
    m["round"] = [](const TensorList& in, const json& kw) {
      return TensorList{ops::round(in[0], kw.value("decimals", 0))};
    };
    m["clip"] = [](const TensorList& in, const json& kw) {
      return TensorList{ops::clip(in[0], scalar_of(kw["x_min"]), scalar_of(kw["x_max"]))};
    };
    m["nan_to_num"] = [](const TensorList& in, const json& kw) {
      return TensorList{ops::nan_to_num(in[0], kw.value("nan", 0.0), opt_double(kw, "posinf"),
                                        opt_double(kw, "neginf"))};
    };
    m["isclose"] = [](const TensorList& in, const json& kw) {
      return TensorList{ops::isclose(in[0], in[1], kw.value("rtol", 1e-5), kw.value("atol", 1e-8),
                                     kw.value("equal_nan", false))};
    };
    m["allclose"] = [](const TensorList& in, const json& kw) {
      return TensorList{ops::allclose(in[0], in[1], kw.value("rtol", 1e-5), kw.value("atol", 1e-8),
                                      kw.value("equal_nan", false))};
    };
    m["battery"] = run_battery;
    return m;
  }();
  return m;
}

TEST(ElementwiseGolden, MatchNumpy) {
  std::set<std::string> seen = test::run_golden("numpy_elementwise", elementwise_ops());
  seen.insert(battery_ops().begin(), battery_ops().end());
  // Every elementwise op of keras.ops.numpy / keras.ops.math, and the operators, has a case.
  for (const char* op : {"add",
                         "subtract",
                         "multiply",
                         "divide",
                         "true_divide",
                         "divide_no_nan",
                         "floor_divide",
                         "mod",
                         "fmod",
                         "negative",
                         "absolute",
                         "abs",
                         "fabs",
                         "square",
                         "sqrt",
                         "cbrt",
                         "reciprocal",
                         "sign",
                         "power",
                         "maximum",
                         "minimum",
                         "fmax",
                         "fmin",
                         "gcd",
                         "lcm",
                         "exp",
                         "exp2",
                         "expm1",
                         "log",
                         "log1p",
                         "log2",
                         "log10",
                         "logaddexp",
                         "logaddexp2",
                         "ldexp",
                         "sin",
                         "cos",
                         "tan",
                         "arcsin",
                         "arccos",
                         "arctan",
                         "arctan2",
                         "hypot",
                         "sinh",
                         "cosh",
                         "tanh",
                         "arcsinh",
                         "arccosh",
                         "arctanh",
                         "deg2rad",
                         "rad2deg",
                         "sinc",
                         "floor",
                         "ceil",
                         "trunc",
                         "round",
                         "clip",
                         "nan_to_num",
                         "i0",
                         "heaviside",
                         "nextafter",
                         "angle",
                         "real",
                         "imag",
                         "conj",
                         "conjugate",
                         "bitwise_and",
                         "bitwise_or",
                         "bitwise_xor",
                         "bitwise_invert",
                         "bitwise_not",
                         "bitwise_left_shift",
                         "bitwise_right_shift",
                         "left_shift",
                         "right_shift",
                         "equal",
                         "not_equal",
                         "less",
                         "less_equal",
                         "greater",
                         "greater_equal",
                         "isclose",
                         "allclose",
                         "isfinite",
                         "isinf",
                         "isnan",
                         "isposinf",
                         "isneginf",
                         "isreal",
                         "signbit",
                         "logical_not",
                         "logical_and",
                         "logical_or",
                         "logical_xor",
                         "where",
                         "erf",
                         "erfc",
                         "erfinv",
                         "rsqrt",
                         "operator%",
                         "operator&",
                         "operator|",
                         "operator^",
                         "operator~"})
    EXPECT_TRUE(seen.count(op)) << "no fixture case exercises " << op;
}

// The same cases with the outputs of real Keras 3.15 (tools/keras_oracle/ops.py).
TEST(ElementwiseOracle, MatchKeras) {
  test::run_oracle("ops_numpy_elementwise", elementwise_ops());
}

}  // namespace
}  // namespace keras

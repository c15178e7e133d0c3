// The op classes of keras.src.ops.numpy that keras-cpp implements (keras/ops/operation.h).
//
// Each entry reads its arguments where Keras's class keeps them: constructor arguments (axis,
// keepdims, k, dtype, ...) come from the config, which Keras writes with every default filled
// in; call arguments (the tensors, and a few numbers such as Isclose's rtol or FullLike's
// fill_value) come from the recorded call. Keras's defaults stand in for absent entries.
// Checked against Keras by tests/oracle/op_nodes_test.cpp (tools/keras_oracle/op_nodes.py).
//
// Not registered: keras-cpp has no Histogram (Keras 3.15's JAX backend cannot run it either),
// and Arange takes no tensor that Keras could record as a graph input.

#include <limits>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/core/conversion.h"
#include "keras/ops/numpy.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {
namespace {

const char* const kModule = "keras.src.ops.numpy";

using UnaryFn = Tensor (*)(const Tensor&);
using BinaryFn = Tensor (*)(const Tensor&, const Tensor&);
// The reductions with (x, axis, keepdims) (sum, mean, var, nanmax, ...).
using ReductionFn = Tensor (*)(const Tensor&, const Axes&, bool);
// The arg-reductions with (x, optional axis, keepdims).
using ArgReductionFn = Tensor (*)(const Tensor&, std::optional<int>, bool);
// The cumulative reductions with (x, optional axis, optional dtype).
using CumulativeFn = Tensor (*)(const Tensor&, std::optional<int>, std::optional<DType>);
// The *_like creators with (x, optional dtype).
using LikeFn = Tensor (*)(const Tensor&, std::optional<DType>);
// The quantile family with (x, q, axis, method, keepdims).
using QuantileFn = Tensor (*)(const Tensor&, const Tensor&, const Axes&, const std::string&, bool);
// The joins of a list of tensors (hstack, vstack, dstack).
using JoinFn = Tensor (*)(const std::vector<Tensor>&);
// The fixed-axis splits (hsplit, vsplit, dsplit).
using SplitFn = TensorList (*)(const Tensor&, const SplitSpec&);

OperationSpec spec(std::string class_name, OperationFn fn) {
  return {std::move(class_name), kModule, std::move(fn)};
}

OperationSpec unary(std::string class_name, UnaryFn f) {
  return spec(std::move(class_name),
              [f](const OperationCall& c) -> TensorList { return {f(c.tensor(0))}; });
}

OperationSpec binary(std::string class_name, BinaryFn f) {
  return spec(std::move(class_name),
              [f](const OperationCall& c) -> TensorList { return {f(c.tensor(0), c.tensor(1))}; });
}

// Keras's axis=None (every axis) is Axes(); an int or a list is kept.
Axes axes_of(const OperationCall& c, const std::string& name = "axis") {
  std::optional<std::vector<int>> a = c.axes(name);
  return a ? Axes(*a) : Axes();
}

// One optional axis (argmax, cumsum, take, ...): None flattens.
std::optional<int> axis_of(const OperationCall& c, const std::string& name = "axis") {
  std::optional<int64_t> a = c.optional_integer(name);
  return a ? std::optional<int>(static_cast<int>(*a)) : std::nullopt;
}

// The sorts' axis: Keras's default is -1; None flattens.
std::optional<int> last_axis_by_default(const OperationCall& c) {
  return c.has("axis") ? axis_of(c) : std::optional<int>(-1);
}

int int_attr(const OperationCall& c, const std::string& name, int fallback) {
  return static_cast<int>(c.integer(name, fallback));
}

OperationSpec reduction(std::string class_name, ReductionFn f) {
  return spec(std::move(class_name), [f](const OperationCall& c) -> TensorList {
    return {f(c.tensor(0), axes_of(c), c.flag("keepdims", false))};
  });
}

OperationSpec arg_reduction(std::string class_name, ArgReductionFn f) {
  return spec(std::move(class_name), [f](const OperationCall& c) -> TensorList {
    return {f(c.tensor(0), axis_of(c), c.flag("keepdims", false))};
  });
}

OperationSpec cumulative(std::string class_name, CumulativeFn f) {
  return spec(std::move(class_name), [f](const OperationCall& c) -> TensorList {
    return {f(c.tensor(0), axis_of(c), c.dtype("dtype"))};
  });
}

OperationSpec like(std::string class_name, LikeFn f) {
  return spec(std::move(class_name), [f](const OperationCall& c) -> TensorList {
    return {f(c.tensor(0), c.dtype("dtype"))};
  });
}

// q is the call's second argument (a number or a tensor).
OperationSpec quantile_like(std::string class_name, QuantileFn f) {
  return spec(std::move(class_name), [f](const OperationCall& c) -> TensorList {
    return {f(c.tensor(0), c.tensor_attr("q", 1), axes_of(c), c.string("method", "linear"),
              c.flag("keepdims", false))};
  });
}

OperationSpec join(std::string class_name, JoinFn f) {
  return spec(std::move(class_name),
              [f](const OperationCall& c) -> TensorList { return {f(c.tensors(0))}; });
}

// indices_or_sections: a number of sections, or the indices where the pieces begin.
SplitSpec split_spec(const OperationCall& c) {
  Config v = c.attr("indices_or_sections");
  if (v.is_number_integer()) return SplitSpec(v.get<int64_t>());
  return SplitSpec(c.integers("indices_or_sections"));
}

OperationSpec fixed_split(std::string class_name, SplitFn f) {
  return spec(std::move(class_name),
              [f](const OperationCall& c) -> TensorList { return f(c.tensor(0), split_spec(c)); });
}

// A number of the config (Clip's bounds, Max's initial, FullLike's fill value) as a scalar:
// an int stays an int, as a Python literal does.
Scalar scalar_of(const OperationCall& c, const Config& v, const std::string& name) {
  if (v.is_boolean()) return Scalar(v.get<bool>());
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  if (v.is_number()) return Scalar(v.get<double>());
  c.fail(name + " must be a number; got " + v.dump());
}

// Python's int-or-list arguments (tile's repeats, roll's shift) as a list.
std::vector<int64_t> int_list(const OperationCall& c, const std::string& name) {
  return c.integers(name);
}

// A value filled to a shape from a tensor (full(shape, x), full_like(y, x)): x's dtype unless
// one is given.
Tensor filled(const Tensor& value, const Shape& shape, std::optional<DType> dtype) {
  return broadcast_to(cast(value, dtype.value_or(value.dtype())), shape);
}

// One entry of GetItem's key as Keras serializes it: an int, null (np.newaxis),
// {"class_name": "__slice__", "config": {start, stop, step}}, {"class_name": "__ellipsis__"}.
Index index_entry(const OperationCall& c, const Config& v) {
  if (v.is_null()) return NewAxis;
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_object() && v.value("class_name", "") == "__ellipsis__") return Ellipsis;
  if (v.is_object() && v.value("class_name", "") == "__slice__") {
    const Config& s = v.at("config");
    auto part = [&](const char* key) -> std::optional<int64_t> {
      if (!s.contains(key) || s[key].is_null()) return std::nullopt;
      if (!s[key].is_number_integer())
        c.fail(std::string("a slice's ") + key + " must be an integer; got " + s[key].dump());
      return s[key].get<int64_t>();
    };
    return Slice(part("start"), part("stop"), part("step"));
  }
  if (v.is_object() && v.contains("__tensor__")) c.fail("tensor keys inside a tuple key");
  c.fail("unsupported key entry " + v.dump().substr(0, 200));
}

Tensor get_item_of(const OperationCall& c) {
  Tensor x = c.tensor(0);
  Config key = c.attr("key", 1);
  if (key.is_object() && key.contains("__tensor__")) return get_item(x, {c.tensor_attr("key", 1)});
  std::vector<Index> entries;
  // A tuple key is a JSON list; anything else is a single entry.
  if (key.is_array()) {
    for (const Config& e : key) entries.push_back(index_entry(c, e));
  } else {
    entries.push_back(index_entry(c, key));
  }
  return get_item(x, std::span<const Index>(entries));
}

// Tensordot's axes: N, or two axes (or lists of axes) for x1 and x2.
TensordotAxes tensordot_axes(const OperationCall& c) {
  Config v = c.attr("axes");
  if (v.is_null()) return 2;
  if (v.is_number_integer()) return v.get<int>();
  if (!v.is_array() || v.size() != 2) c.fail("axes must be an integer or two lists of axes");
  auto side = [&](const Config& s) {
    std::vector<int> out;
    if (s.is_number_integer()) return std::vector<int>{s.get<int>()};
    for (const Config& a : s) out.push_back(a.get<int>());
    return out;
  };
  return TensordotAxes(side(v[0]), side(v[1]));
}

// Pad's pad_width: N, (before, after) for every axis, or one pair per axis.
PadWidth pad_width(const OperationCall& c) {
  Config v = c.attr("pad_width");
  if (v.is_number_integer()) return v.get<int64_t>();
  if (!v.is_array() || v.empty()) c.fail("pad_width must be an integer or pairs; got " + v.dump());
  std::vector<std::pair<int64_t, int64_t>> pairs;
  if (v[0].is_number_integer()) {
    // (before, after) or (both,) for every axis.
    int64_t before = v[0].get<int64_t>();
    pairs.push_back({before, v.size() > 1 ? v[1].get<int64_t>() : before});
    return pairs;
  }
  for (const Config& p : v) {
    if (!p.is_array() || p.empty()) c.fail("pad_width must hold pairs; got " + v.dump());
    int64_t before = p[0].get<int64_t>();
    pairs.push_back({before, p.size() > 1 ? p[1].get<int64_t>() : before});
  }
  return pairs;
}

LinspaceOptions linspace_options(const OperationCall& c) {
  return {.endpoint = c.flag("endpoint", true),
          .dtype = c.dtype("dtype"),
          .axis = int_attr(c, "axis", 0)};
}

// Ndim and Size return Python ints in Keras: a 0-d int32 tensor here (Keras's symbolic dtype).
Tensor python_int(int64_t v) {
  return convert_to_tensor(Scalar(v), DType::Int32);
}

void add_elementwise(OperationTable& t) {
  for (auto [name, f] :
       std::initializer_list<std::pair<const char*, UnaryFn>>{{"Absolute", absolute},
                                                              {"Abs", absolute},
                                                              {"Fabs", fabs},
                                                              {"Negative", negative},
                                                              {"Square", square},
                                                              {"Sqrt", sqrt},
                                                              {"Cbrt", cbrt},
                                                              {"Reciprocal", reciprocal},
                                                              {"Sign", sign},
                                                              {"Exp", exp},
                                                              {"Exp2", exp2},
                                                              {"Expm1", expm1},
                                                              {"Log", log},
                                                              {"Log1p", log1p},
                                                              {"Log2", log2},
                                                              {"Log10", log10},
                                                              {"Sin", sin},
                                                              {"Cos", cos},
                                                              {"Tan", tan},
                                                              {"Arcsin", arcsin},
                                                              {"Arccos", arccos},
                                                              {"Arctan", arctan},
                                                              {"Sinh", sinh},
                                                              {"Cosh", cosh},
                                                              {"Tanh", tanh},
                                                              {"Arcsinh", arcsinh},
                                                              {"Arccosh", arccosh},
                                                              {"Arctanh", arctanh},
                                                              {"Deg2rad", deg2rad},
                                                              {"Rad2deg", rad2deg},
                                                              {"Sinc", sinc},
                                                              {"Floor", floor},
                                                              {"Ceil", ceil},
                                                              {"Trunc", trunc},
                                                              {"I0", i0},
                                                              {"Angle", angle},
                                                              {"Real", real},
                                                              {"Imag", imag},
                                                              {"Conjugate", conjugate},
                                                              {"Conj", conjugate},
                                                              {"BitwiseInvert", bitwise_invert},
                                                              {"BitwiseNot", bitwise_not},
                                                              {"Isfinite", isfinite},
                                                              {"Isinf", isinf},
                                                              {"Isnan", isnan},
                                                              {"Isposinf", isposinf},
                                                              {"Isneginf", isneginf},
                                                              {"Isreal", isreal},
                                                              {"Signbit", signbit},
                                                              {"LogicalNot", logical_not},
                                                              {"Copy", copy},
                                                              {"Ravel", ravel},
                                                              {"Fliplr", fliplr},
                                                              {"Flipud", flipud},
                                                              {"Corrcoef", corrcoef}})
    t.push_back(unary(name, f));

  for (auto [name, f] : std::initializer_list<std::pair<const char*, BinaryFn>>{
           {"Add", add},
           {"Subtract", subtract},
           {"Multiply", multiply},
           {"Divide", divide},
           {"TrueDivide", true_divide},
           {"DivideNoNan", divide_no_nan},
           {"FloorDivide", floor_divide},
           {"Mod", mod},
           {"Fmod", fmod},
           {"Power", power},
           {"Maximum", maximum},
           {"Minimum", minimum},
           {"Fmax", fmax},
           {"Fmin", fmin},
           {"Gcd", gcd},
           {"Lcm", lcm},
           {"Logaddexp", logaddexp},
           {"Logaddexp2", logaddexp2},
           {"Ldexp", ldexp},
           {"Arctan2", arctan2},
           {"Hypot", hypot},
           {"Heaviside", heaviside},
           {"Nextafter", nextafter},
           {"BitwiseAnd", bitwise_and},
           {"BitwiseOr", bitwise_or},
           {"BitwiseXor", bitwise_xor},
           {"BitwiseLeftShift", bitwise_left_shift},
           {"LeftShift", left_shift},
           {"BitwiseRightShift", bitwise_right_shift},
           {"RightShift", right_shift},
           {"Equal", equal},
           {"NotEqual", not_equal},
           {"Less", less},
           {"LessEqual", less_equal},
           {"Greater", greater},
           {"GreaterEqual", greater_equal},
           {"LogicalAnd", logical_and},
           {"LogicalOr", logical_or},
           {"LogicalXor", logical_xor},
           {"Matmul", matmul},
           {"Dot", dot},
           {"Outer", outer},
           {"Inner", inner},
           {"Kron", kron},
           {"Vdot", vdot},
           {"Digitize", digitize}})
    t.push_back(binary(name, f));

  t.push_back(spec("Round", [](const OperationCall& c) -> TensorList {
    return {round(c.tensor(0), int_attr(c, "decimals", 0))};
  }));
  t.push_back(spec("Clip", [](const OperationCall& c) -> TensorList {
    Tensor x = c.tensor(0);
    Config lo = c.attr("x_min"), hi = c.attr("x_max");
    // A None bound leaves that side open.
    if (lo.is_null() && hi.is_null()) return {x};
    if (lo.is_null()) return {minimum(x, c.tensor_attr("x_max", std::nullopt))};
    if (hi.is_null()) return {maximum(x, c.tensor_attr("x_min", std::nullopt))};
    return {clip(x, scalar_of(c, lo, "x_min"), scalar_of(c, hi, "x_max"))};
  }));
  t.push_back(spec("NanToNum", [](const OperationCall& c) -> TensorList {
    auto optional_number = [&](const char* name) -> std::optional<double> {
      if (c.attr(name).is_null()) return std::nullopt;
      return c.number(name, 0.0);
    };
    return {nan_to_num(c.tensor(0), c.number("nan", 0.0), optional_number("posinf"),
                       optional_number("neginf"))};
  }));
  // Isclose takes rtol and atol in the call (isclose(x1, x2, rtol, atol)), equal_nan in the
  // constructor; AllClose takes all three in the constructor.
  t.push_back(spec("Isclose", [](const OperationCall& c) -> TensorList {
    return {isclose(c.tensor(0), c.tensor(1), c.number("rtol", 1e-5, 2), c.number("atol", 1e-8, 3),
                    c.flag("equal_nan", false))};
  }));
  t.push_back(spec("AllClose", [](const OperationCall& c) -> TensorList {
    return {allclose(c.tensor(0), c.tensor(1), c.number("rtol", 1e-5), c.number("atol", 1e-8),
                     c.flag("equal_nan", false))};
  }));
  t.push_back(spec("Where", [](const OperationCall& c) -> TensorList {
    Tensor x1 = c.tensor_attr("x1", 1), x2 = c.tensor_attr("x2", 2);
    // where(condition) alone is nonzero(condition), as in NumPy.
    if (!x1.defined() && !x2.defined()) return nonzero(c.tensor(0));
    if (!x1.defined() || !x2.defined()) c.fail("x1 and x2 must both be given, or neither");
    return {where(c.tensor(0), x1, x2)};
  }));
}

void add_reductions(OperationTable& t) {
  for (auto [name, f] :
       std::initializer_list<std::pair<const char*, ReductionFn>>{{"Sum", sum},
                                                                  {"Mean", mean},
                                                                  {"Amax", amax},
                                                                  {"Amin", amin},
                                                                  {"Ptp", ptp},
                                                                  {"All", all},
                                                                  {"Any", any},
                                                                  {"Nansum", nansum},
                                                                  {"Nanprod", nanprod},
                                                                  {"Nanmean", nanmean},
                                                                  {"Nanmax", nanmax},
                                                                  {"Nanmin", nanmin},
                                                                  {"Var", var},
                                                                  {"Std", std},
                                                                  {"Nanvar", nanvar},
                                                                  {"Nanstd", nanstd},
                                                                  {"Median", median},
                                                                  {"Nanmedian", nanmedian}})
    t.push_back(reduction(name, f));
  for (auto [name, f] :
       std::initializer_list<std::pair<const char*, ArgReductionFn>>{{"Argmax", argmax},
                                                                     {"Argmin", argmin},
                                                                     {"Nanargmax", nanargmax},
                                                                     {"Nanargmin", nanargmin}})
    t.push_back(arg_reduction(name, f));
  for (auto [name, f] :
       std::initializer_list<std::pair<const char*, CumulativeFn>>{{"Cumsum", cumsum},
                                                                   {"Cumprod", cumprod},
                                                                   {"Nancumsum", nancumsum},
                                                                   {"Nancumprod", nancumprod}})
    t.push_back(cumulative(name, f));
  for (auto [name, f] :
       std::initializer_list<std::pair<const char*, QuantileFn>>{{"Quantile", quantile},
                                                                 {"Nanquantile", nanquantile},
                                                                 {"Percentile", percentile},
                                                                 {"Nanpercentile", nanpercentile}})
    t.push_back(quantile_like(name, f));

  t.push_back(spec("Prod", [](const OperationCall& c) -> TensorList {
    return {prod(c.tensor(0), axes_of(c), c.flag("keepdims", false), c.dtype("dtype"))};
  }));
  t.push_back(spec("CountNonzero", [](const OperationCall& c) -> TensorList {
    return {count_nonzero(c.tensor(0), axes_of(c))};
  }));
  // Max and Min count `initial` in when it is given.
  t.push_back(spec("Max", [](const OperationCall& c) -> TensorList {
    Config initial = c.attr("initial");
    if (initial.is_null()) return {max(c.tensor(0), axes_of(c), c.flag("keepdims", false))};
    return {
        max(c.tensor(0), axes_of(c), c.flag("keepdims", false), scalar_of(c, initial, "initial"))};
  }));
  t.push_back(spec("Min", [](const OperationCall& c) -> TensorList {
    Config initial = c.attr("initial");
    if (initial.is_null()) return {min(c.tensor(0), axes_of(c), c.flag("keepdims", false))};
    return {
        min(c.tensor(0), axes_of(c), c.flag("keepdims", false), scalar_of(c, initial, "initial"))};
  }));
  // Trapezoid's sample points x are a constructor argument (a list in the config).
  t.push_back(spec("Trapezoid", [](const OperationCall& c) -> TensorList {
    return {trapezoid(c.tensor(0), c.tensor_attr("x", std::nullopt), c.number("dx", 1.0),
                      int_attr(c, "axis", -1))};
  }));
  // Average's weights are a call argument (keyword in Keras's own calls).
  t.push_back(spec("Average", [](const OperationCall& c) -> TensorList {
    return {average(c.tensor(0), axes_of(c), c.tensor_attr("weights", 1))};
  }));
  t.push_back(spec("Bincount", [](const OperationCall& c) -> TensorList {
    if (c.flag("sparse", false)) c.fail("sparse=True is not supported (keras-cpp is dense)");
    return {
        bincount(c.tensor(0), c.tensor_attr("weights", std::nullopt), c.integer("minlength", 0))};
  }));
}

void add_creation(OperationTable& t) {
  t.push_back(like("ZerosLike", zeros_like));
  t.push_back(like("OnesLike", ones_like));
  t.push_back(like("EmptyLike", empty_like));
  t.push_back(like("Array", array));
  // fill_value is a call argument: a number, or a tensor of the graph.
  t.push_back(spec("FullLike", [](const OperationCall& c) -> TensorList {
    Tensor x = c.tensor(0);
    Config v = c.attr("fill_value", 1);
    if (v.is_number() || v.is_boolean())
      return {full_like(x, scalar_of(c, v, "fill_value"), c.dtype("dtype"))};
    return {
        filled(c.tensor_attr("fill_value", 1), x.shape(), c.dtype("dtype").value_or(x.dtype()))};
  }));
  t.push_back(spec("Full", [](const OperationCall& c) -> TensorList {
    Shape shape(c.integers("shape"));
    Config v = c.attr("fill_value", 0);
    if (v.is_number() || v.is_boolean())
      return {full(shape, scalar_of(c, v, "fill_value"), c.dtype("dtype"))};
    // Keras's full defaults to floatx() whatever the fill value's dtype.
    return {
        filled(c.tensor_attr("fill_value", 0), shape, c.dtype("dtype").value_or(config::floatx()))};
  }));
  t.push_back(spec("Linspace", [](const OperationCall& c) -> TensorList {
    if (c.flag("retstep", false)) c.fail("retstep=True is not supported");
    return {linspace(c.tensor(0), c.tensor(1), c.integer("num", 50), linspace_options(c))};
  }));
  t.push_back(spec("Geomspace", [](const OperationCall& c) -> TensorList {
    return {geomspace(c.tensor(0), c.tensor(1), c.integer("num", 50), linspace_options(c))};
  }));
  t.push_back(spec("Logspace", [](const OperationCall& c) -> TensorList {
    LogspaceOptions o{.endpoint = c.flag("endpoint", true),
                      .base = c.number("base", 10.0),
                      .dtype = c.dtype("dtype"),
                      .axis = int_attr(c, "axis", 0)};
    return {logspace(c.tensor(0), c.tensor(1), c.integer("num", 50), o)};
  }));
  t.push_back(spec("Tril", [](const OperationCall& c) -> TensorList {
    return {tril(c.tensor(0), c.integer("k", 0))};
  }));
  t.push_back(spec("Triu", [](const OperationCall& c) -> TensorList {
    return {triu(c.tensor(0), c.integer("k", 0))};
  }));
  t.push_back(spec("Diag", [](const OperationCall& c) -> TensorList {
    return {diag(c.tensor(0), c.integer("k", 0))};
  }));
  t.push_back(spec("Diagflat", [](const OperationCall& c) -> TensorList {
    return {diagflat(c.tensor(0), c.integer("k", 0))};
  }));
  t.push_back(spec("Vander", [](const OperationCall& c) -> TensorList {
    return {vander(c.tensor(0), c.optional_integer("N"), c.flag("increasing", false))};
  }));
  // Meshgrid's inputs are the call's positional arguments (meshgrid(*x)).
  t.push_back(spec("Meshgrid", [](const OperationCall& c) -> TensorList {
    std::vector<Tensor> xs;
    for (size_t i = 0; i < c.num_args(); ++i) xs.push_back(c.tensor(i));
    return meshgrid(xs, c.string("indexing", "xy"));
  }));
}

void add_indexing(OperationTable& t) {
  t.push_back(
      spec("GetItem", [](const OperationCall& c) -> TensorList { return {get_item_of(c)}; }));
  t.push_back(spec("Take", [](const OperationCall& c) -> TensorList {
    return {take(c.tensor(0), c.tensor_attr("indices", 1), axis_of(c))};
  }));
  t.push_back(spec("TakeAlongAxis", [](const OperationCall& c) -> TensorList {
    return {take_along_axis(c.tensor(0), c.tensor_attr("indices", 1), axis_of(c))};
  }));
  t.push_back(spec("Diagonal", [](const OperationCall& c) -> TensorList {
    return {diagonal(c.tensor(0), c.integer("offset", 0), int_attr(c, "axis1", 0),
                     int_attr(c, "axis2", 1))};
  }));
  t.push_back(spec("Trace", [](const OperationCall& c) -> TensorList {
    return {trace(c.tensor(0), c.integer("offset", 0), int_attr(c, "axis1", 0),
                  int_attr(c, "axis2", 1))};
  }));
  t.push_back(spec("Select", [](const OperationCall& c) -> TensorList {
    Tensor fallback = c.tensor_attr("default", 2);
    return {select(c.tensors(0), c.tensors(1), fallback.defined() ? fallback : Tensor(0))};
  }));
  t.push_back(spec("UnravelIndex", [](const OperationCall& c) -> TensorList {
    return unravel_index(c.tensor(0), Shape(c.integers("shape")));
  }));
}

void add_products(OperationTable& t) {
  t.push_back(spec("Tensordot", [](const OperationCall& c) -> TensorList {
    return {tensordot(c.tensor(0), c.tensor(1), tensordot_axes(c))};
  }));
  // Einsum's operands are the call's positional arguments (einsum(subscripts, *operands)).
  t.push_back(spec("Einsum", [](const OperationCall& c) -> TensorList {
    std::vector<Tensor> operands;
    for (size_t i = 0; i < c.num_args(); ++i) operands.push_back(c.tensor(i));
    return {einsum(c.string("subscripts", ""), operands)};
  }));
  t.push_back(spec("Cross", [](const OperationCall& c) -> TensorList {
    return {cross(c.tensor(0), c.tensor(1), int_attr(c, "axisa", -1), int_attr(c, "axisb", -1),
                  int_attr(c, "axisc", -1), axis_of(c))};
  }));
  t.push_back(spec("Correlate", [](const OperationCall& c) -> TensorList {
    return {correlate(c.tensor(0), c.tensor(1), c.string("mode", "valid"))};
  }));
  t.push_back(spec("Slogdet", [](const OperationCall& c) -> TensorList {
    auto [sign, logdet] = slogdet(c.tensor(0));
    return {sign, logdet};
  }));
}

void add_shapes(OperationTable& t) {
  t.push_back(spec("Reshape", [](const OperationCall& c) -> TensorList {
    return {reshape(c.tensor(0), Shape(c.integers("newshape")))};
  }));
  t.push_back(spec("Transpose", [](const OperationCall& c) -> TensorList {
    return {transpose(c.tensor(0), c.axes("axes").value_or(std::vector<int>{}))};
  }));
  t.push_back(spec("ExpandDims", [](const OperationCall& c) -> TensorList {
    return {expand_dims(c.tensor(0), axes_of(c))};
  }));
  t.push_back(spec("Squeeze", [](const OperationCall& c) -> TensorList {
    return {squeeze(c.tensor(0), axes_of(c))};
  }));
  t.push_back(spec("BroadcastTo", [](const OperationCall& c) -> TensorList {
    return {broadcast_to(c.tensor(0), Shape(c.integers("shape")))};
  }));
  t.push_back(spec("Flip", [](const OperationCall& c) -> TensorList {
    return {flip(c.tensor(0), axes_of(c))};
  }));
  t.push_back(spec("Moveaxis", [](const OperationCall& c) -> TensorList {
    return {moveaxis(c.tensor(0), axes_of(c, "source"), axes_of(c, "destination"))};
  }));
  t.push_back(spec("Swapaxes", [](const OperationCall& c) -> TensorList {
    return {swapaxes(c.tensor(0), int_attr(c, "axis1", 0), int_attr(c, "axis2", 1))};
  }));
  t.push_back(spec("Rot90", [](const OperationCall& c) -> TensorList {
    std::vector<int> axes = c.axes("axes").value_or(std::vector<int>{0, 1});
    if (axes.size() != 2) c.fail("axes must be two axes");
    return {rot90(c.tensor(0), int_attr(c, "k", 1), {axes[0], axes[1]})};
  }));
  t.push_back(spec("View", [](const OperationCall& c) -> TensorList {
    std::optional<DType> dtype = c.dtype("dtype");
    return {dtype ? view(c.tensor(0), *dtype) : c.tensor(0)};
  }));
  t.push_back(spec("Ndim", [](const OperationCall& c) -> TensorList {
    return {python_int(ndim(c.tensor(0)))};
  }));
  t.push_back(spec("Size", [](const OperationCall& c) -> TensorList {
    return {python_int(size(c.tensor(0)))};
  }));

  t.push_back(spec("Concatenate", [](const OperationCall& c) -> TensorList {
    return {concatenate(c.tensors(0), int_attr(c, "axis", 0))};
  }));
  t.push_back(spec("Stack", [](const OperationCall& c) -> TensorList {
    return {stack(c.tensors(0), int_attr(c, "axis", 0))};
  }));
  t.push_back(spec("Append", [](const OperationCall& c) -> TensorList {
    return {append(c.tensor(0), c.tensor(1), axis_of(c))};
  }));
  t.push_back(join("Hstack", hstack));
  t.push_back(join("Vstack", vstack));
  t.push_back(join("Dstack", dstack));

  t.push_back(spec("Split", [](const OperationCall& c) -> TensorList {
    return split(c.tensor(0), split_spec(c), int_attr(c, "axis", 0));
  }));
  // array_split with indices cuts as split does.
  t.push_back(spec("ArraySplit", [](const OperationCall& c) -> TensorList {
    SplitSpec s = split_spec(c);
    int axis = int_attr(c, "axis", 0);
    return s.is_sections() ? array_split(c.tensor(0), s.sections(), axis)
                           : split(c.tensor(0), s, axis);
  }));
  t.push_back(fixed_split("Hsplit", hsplit));
  t.push_back(fixed_split("Vsplit", vsplit));
  t.push_back(fixed_split("Dsplit", dsplit));

  t.push_back(spec("Tile", [](const OperationCall& c) -> TensorList {
    return {tile(c.tensor(0), int_list(c, "repeats"))};
  }));
  t.push_back(spec("Repeat", [](const OperationCall& c) -> TensorList {
    Config repeats = c.attr("repeats");
    if (repeats.is_number_integer())
      return {repeat(c.tensor(0), repeats.get<int64_t>(), axis_of(c))};
    return {repeat(c.tensor(0), int_list(c, "repeats"), axis_of(c))};
  }));
  t.push_back(spec("Roll", [](const OperationCall& c) -> TensorList {
    Config shift = c.attr("shift");
    if (shift.is_number_integer()) return {roll(c.tensor(0), shift.get<int64_t>(), axes_of(c))};
    return {roll(c.tensor(0), int_list(c, "shift"), axes_of(c))};
  }));
  t.push_back(spec("Diff", [](const OperationCall& c) -> TensorList {
    return {diff(c.tensor(0), int_attr(c, "n", 1), int_attr(c, "axis", -1))};
  }));
  // constant_values is a call argument (pad(x, constant_values=...)); the rest the constructor's.
  t.push_back(spec("Pad", [](const OperationCall& c) -> TensorList {
    Config v = c.attr("constant_values", 1);
    std::optional<Scalar> constant;
    if (!v.is_null()) constant = scalar_of(c, v, "constant_values");
    return {pad(c.tensor(0), pad_width(c), c.string("mode", "constant"), constant)};
  }));
}

void add_sorting(OperationTable& t) {
  // Keras writes axis=-1 (the default) into these configs; null there means None (flatten).
  t.push_back(spec("Sort", [](const OperationCall& c) -> TensorList {
    return {sort(c.tensor(0), last_axis_by_default(c))};
  }));
  t.push_back(spec("Argsort", [](const OperationCall& c) -> TensorList {
    return {argsort(c.tensor(0), last_axis_by_default(c))};
  }));
  t.push_back(spec("Argpartition", [](const OperationCall& c) -> TensorList {
    return {argpartition(c.tensor(0), c.integer("kth", 0), last_axis_by_default(c))};
  }));
  t.push_back(spec("SearchSorted", [](const OperationCall& c) -> TensorList {
    return {searchsorted(c.tensor(0), c.tensor(1), c.string("side", "left"))};
  }));
  t.push_back(spec("IsIn", [](const OperationCall& c) -> TensorList {
    return {
        isin(c.tensor(0), c.tensor(1), c.flag("assume_unique", false), c.flag("invert", false))};
  }));
  t.push_back(
      spec("Nonzero", [](const OperationCall& c) -> TensorList { return nonzero(c.tensor(0)); }));
  // Unique returns the values alone, or (values, index, inverse, counts) with those asked for.
  t.push_back(spec("Unique", [](const OperationCall& c) -> TensorList {
    UniqueOptions o;
    o.sorted = c.flag("sorted", true);
    o.return_index = c.flag("return_index", false);
    o.return_inverse = c.flag("return_inverse", false);
    o.return_counts = c.flag("return_counts", false);
    o.axis = axis_of(c);
    o.size = c.optional_integer("size");
    Config fill = c.attr("fill_value");
    if (!fill.is_null()) o.fill_value = scalar_of(c, fill, "fill_value");
    UniqueResult r = unique(c.tensor(0), o);
    TensorList out = {r.values};
    if (o.return_index) out.push_back(r.index);
    if (o.return_inverse) out.push_back(r.inverse);
    if (o.return_counts) out.push_back(r.counts);
    return out;
  }));
}

}  // namespace

void add_numpy_operations(OperationTable& table) {
  add_elementwise(table);
  add_reductions(table);
  add_creation(table);
  add_indexing(table);
  add_products(table);
  add_shapes(table);
  add_sorting(table);
}

}  // namespace keras::ops::detail

// Converters of the normalization layers, with inference semantics: BatchNormalization uses its
// moving statistics.

#include <algorithm>
#include <cmath>

#include "keras/core/config.h"
#include "keras/ops/numpy.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// Normalized (non-negative) axes of config "axis" (an integer or a list) for rank `rank`.
std::vector<int64_t> axes_of(const LayerCall& c, int rank) {
  const Config& a = c.at("axis");
  std::vector<int64_t> axes = a.is_number_integer() ? std::vector<int64_t>{a.get<int64_t>()}
                                                    : a.get<std::vector<int64_t>>();
  for (int64_t& x : axes) {
    if (x < 0) x += rank;
    if (x <= 0 || x >= rank) c.fail("axis " + std::to_string(x) + " is out of range");
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

// The shape a per-channel constant over `axes` needs to broadcast against the input: its
// dimensions at those axes, 1 at the others after the first of them (numpy rules align the
// trailing axes, so the batch and leading axes need no entry).
Shape broadcast_shape(const LayerCall& c, const std::vector<int64_t>& axes) {
  const Shape& in = c.input_shapes[0];
  Shape s;
  for (int64_t d = axes.front(); d < in.rank(); ++d) {
    const bool on = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (on && in[static_cast<size_t>(d)] < 0) c.fail("the size of normalized axis is unknown");
    s.push_back(on ? in[static_cast<size_t>(d)] : 1);
  }
  return s;
}

std::vector<float> host(const Tensor& t) { return t.astype(DType::Float32).to_vector<float>(); }

// Inference: x * a + b with a = gamma / sqrt(moving_variance + epsilon) and
// b = beta - moving_mean * a, computed here in double (Keras computes the same terms in float).
Values batch_normalization(LayerCall& c) {
  const std::vector<int64_t> axes = axes_of(c, c.rank());
  const std::vector<float> mean = host(c.weight("moving_mean"));
  const std::vector<float> var = host(c.weight("moving_variance"));
  const double eps = c.at("epsilon").get<double>();
  const std::vector<float> gamma = c.config.value("scale", true) ? host(c.weight("gamma"))
                                                                 : std::vector<float>(mean.size(), 1.0f);
  const std::vector<float> beta = c.config.value("center", true) ? host(c.weight("beta"))
                                                                 : std::vector<float>(mean.size(), 0.0f);
  std::vector<float> a(mean.size()), b(mean.size());
  for (size_t i = 0; i < mean.size(); ++i) {
    const double inv = 1.0 / std::sqrt(static_cast<double>(var[i]) + eps);
    a[i] = static_cast<float>(inv * gamma[i]);
    b[i] = static_cast<float>(beta[i] - mean[i] * inv * gamma[i]);
  }
  const Shape shape = broadcast_shape(c, axes);
  const std::string s = c.scope();
  const std::string y = c.g.node("Mul", {c.inputs[0], c.g.constant_f32(s + "/scale", a, shape)}, {}, s);
  return {c.g.node("Add", {y, c.g.constant_f32(s + "/offset", b, shape)}, {}, s)};
}

// True when `axes` are the last axes of the input, in a run (ONNX's LayerNormalization
// normalizes over every axis from its `axis` on).
bool trailing(const std::vector<int64_t>& axes, int rank) {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != rank - static_cast<int64_t>(axes.size()) + static_cast<int64_t>(i)) return false;
  return true;
}

// A normalization weight (gamma, beta, scale) shaped to broadcast against the input.
std::string weight_as(LayerCall& c, const std::string& name, const Shape& shape) {
  return c.initializer(name, ops::reshape(c.weight(name), shape));
}

// x * rsqrt(reduce(x) + epsilon) over `axes`, where reduce is the mean of d * d for d = x - mean
// (variance) or of x * x (mean square); returns the normalized value of `x` or of `d`.
std::string normalize(LayerCall& c, const std::string& x, const std::vector<int64_t>& axes,
                      bool center_input, bool subtract_mean, double epsilon) {
  Graph& g = c.g;
  const std::string s = c.scope();
  std::string d = x;
  if (center_input) d = g.node("Sub", {x, reduce(g, "ReduceMean", x, axes, true, s)}, {}, s);
  const std::string second = reduce(g, "ReduceMean", g.node("Mul", {d, d}, {}, s), axes, true, s);
  const std::string inv = g.node(
      "Reciprocal",
      {g.node("Sqrt", {g.node("Add", {second, g.scalar_f32(s + "/epsilon", static_cast<float>(epsilon))}, {}, s)},
              {}, s)},
      {}, s);
  return g.node("Mul", {subtract_mean ? d : x, inv}, {}, s);
}

Values layer_normalization(LayerCall& c) {
  const int rank = c.rank();
  const std::vector<int64_t> axes = axes_of(c, rank);
  const Shape shape = broadcast_shape(c, axes);
  const double eps = c.at("epsilon").get<double>();
  const bool scale = c.config.value("scale", true), center = c.config.value("center", true);
  Graph& g = c.g;
  const std::string s = c.scope();
  if (c.config.value("rms_scaling", false)) {
    // keras-cpp's and Keras's deprecated rms_scaling: x * rsqrt(variance + epsilon) * gamma.
    std::string y = normalize(c, c.inputs[0], axes, true, false, eps);
    if (scale) y = g.node("Mul", {y, weight_as(c, "gamma", shape)}, {}, s);
    return {y};
  }
  if (trailing(axes, rank) && g.opset() >= 17) {
    const std::string gamma =
        scale ? weight_as(c, "gamma", shape)
              : g.constant_f32(s + "/ones", std::vector<float>(static_cast<size_t>(shape.numel()), 1.0f), shape);
    std::vector<std::string> in{c.inputs[0], gamma};
    if (center) in.push_back(weight_as(c, "beta", shape));
    return {g.node("LayerNormalization", in,
                   {{"axis", axes.front()}, {"epsilon", static_cast<float>(eps)}}, s)};
  }
  std::string y = normalize(c, c.inputs[0], axes, true, true, eps);
  if (scale) y = g.node("Mul", {y, weight_as(c, "gamma", shape)}, {}, s);
  if (center) y = g.node("Add", {y, weight_as(c, "beta", shape)}, {}, s);
  return {y};
}

// x * rsqrt(mean(x * x) + epsilon) * scale (ONNX has RMSNormalization only from opset 23).
Values rms_normalization(LayerCall& c) {
  const std::vector<int64_t> axes = axes_of(c, c.rank());
  const Config& e = c.at("epsilon");
  const double eps = e.is_null() ? config::epsilon() : e.get<double>();
  std::string y = normalize(c, c.inputs[0], axes, false, false, eps);
  if (c.has_weight("scale"))
    y = c.g.node("Mul", {y, weight_as(c, "scale", broadcast_shape(c, axes))}, {}, c.scope());
  return {y};
}

// x * rsqrt(max(sum(x * x), 1e-24)) over `axis` (ops::normalize with order 2, epsilon 1e-12).
Values unit_normalization(LayerCall& c) {
  Graph& g = c.g;
  const std::string s = c.scope();
  const std::string& x = c.inputs[0];
  const std::string sq = reduce(g, "ReduceSum", g.node("Mul", {x, x}, {}, s), axes_of(c, c.rank()),
                                true, s);
  const std::string clamped = g.node("Max", {sq, g.scalar_f32(s + "/epsilon2", 1e-24f)}, {}, s);
  return {g.node("Mul", {x, g.node("Reciprocal", {g.node("Sqrt", {clamped}, {}, s)}, {}, s)}, {},
                 s)};
}

// The channels split into (groups, channels / groups), statistics per sample and group over the
// other non-batch axes, x * inv + (beta - mean * inv) with inv = gamma / sqrt(variance + eps).
Values group_normalization(LayerCall& c) {
  const Shape& in = c.input_shapes[0];
  const int rank = c.rank();
  int64_t axis = c.at("axis").get<int64_t>();
  if (axis < 0) axis += rank;
  const int64_t groups = c.at("groups").get<int64_t>(), channels = in[static_cast<size_t>(axis)];
  std::vector<int64_t> grouped{0}, param, reduction;  // 0: the batch, copied by Reshape
  for (int64_t d = 1; d < rank; ++d) {
    if (in[static_cast<size_t>(d)] < 0) c.fail("its input has an unknown non-batch dimension");
    if (d == axis) {
      grouped.push_back(groups);
      grouped.push_back(channels / groups);
      param.push_back(groups);
      param.push_back(channels / groups);
      reduction.push_back(d + 1);
    } else {
      grouped.push_back(in[static_cast<size_t>(d)]);
      param.push_back(1);
      reduction.push_back(d < axis ? d : d + 1);
    }
  }
  Graph& g = c.g;
  const std::string s = c.scope();
  const std::string xg = g.node("Reshape", {c.inputs[0], g.constant_i64(s + "/grouped", grouped)}, {}, s);
  const std::string mean = reduce(g, "ReduceMean", xg, reduction, true, s);
  const std::string d = g.node("Sub", {xg, mean}, {}, s);
  const std::string var = reduce(g, "ReduceMean", g.node("Mul", {d, d}, {}, s), reduction, true, s);
  const double eps = c.at("epsilon").get<double>();
  std::string inv = g.node(
      "Reciprocal",
      {g.node("Sqrt", {g.node("Add", {var, g.scalar_f32(s + "/epsilon", static_cast<float>(eps))}, {}, s)}, {}, s)},
      {}, s);
  const Shape param_shape(param.begin(), param.end());
  if (c.config.value("scale", true)) inv = g.node("Mul", {inv, weight_as(c, "gamma", param_shape)}, {}, s);
  std::string res = g.node("Neg", {g.node("Mul", {mean, inv}, {}, s)}, {}, s);
  if (c.config.value("center", true)) res = g.node("Add", {res, weight_as(c, "beta", param_shape)}, {}, s);
  const std::string y = g.node("Add", {g.node("Mul", {xg, inv}, {}, s), res}, {}, s);
  std::vector<int64_t> back{0};
  for (int64_t dd = 1; dd < rank; ++dd) back.push_back(in[static_cast<size_t>(dd)]);
  return {g.node("Reshape", {y, g.constant_i64(s + "/shape", back)}, {}, s)};
}

}  // namespace

void register_normalization(std::map<std::string, Converter>& t) {
  t["BatchNormalization"] = batch_normalization;
  t["LayerNormalization"] = layer_normalization;
  t["RMSNormalization"] = rms_normalization;
  t["UnitNormalization"] = unit_normalization;
  t["GroupNormalization"] = group_normalization;
}

}  // namespace keras::onnx

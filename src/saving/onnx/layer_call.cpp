#include "layer_call.h"

#include <cmath>
#include <limits>

#include "keras/autograd/variable.h"
#include "keras/core/errors.h"
#include "keras/layers/core/lora.h"
#include "keras/ops/numpy/elementwise.h"
#include "keras/ops/numpy/linear.h"
#include "keras/ops/core/conversion.h"

namespace keras::onnx {

namespace {

// A weight as the layer computes with it: with LoRA enabled, the base plus the adapters' update
// (lora_alpha / rank) * A @ B, as Keras's kernel property and keras-cpp's LoraLayer compute it
// (and as Keras's export of a LoRA model does).
Tensor with_lora_update(const Layer& layer, const std::string& name, const Tensor& base) {
  const auto* lora = dynamic_cast<const layers::LoraLayer*>(&layer);
  if (!lora || !lora->lora_enabled()) return base;
  Tensor a, b;
  for (const Variable& v : layer.own_weights()) {
    if (v.name() == "lora_" + name + "_a") a = v.value();
    if (v.name() == "lora_" + name + "_b") b = v.value();
  }
  if (!a.defined() || !b.defined()) return base;
  const double scale = lora->lora_alpha()->to_double() / static_cast<double>(lora->lora_rank());
  return ops::cast(ops::add(base, ops::multiply(ops::matmul(a, b), Scalar(scale))),
                   base.dtype());
}

}  // namespace

Tensor layer_weight(const Layer& layer, const std::string& name) {
  for (const Variable& v : layer.weights())
    if (v.name() == name) return with_lora_update(layer, name, v.value());
  return Tensor();
}

Tensor LayerCall::weight(const std::string& name) const {
  Tensor w = layer_weight(layer, name);
  if (!w.defined()) fail("it has no weight named \"" + name + "\" (is it built?)");
  return w;
}

bool LayerCall::has_weight(const std::string& name) const {
  for (const Variable& v : layer.weights())
    if (v.name() == name) return true;
  return false;
}

std::string LayerCall::weight_value(const std::string& name) const {
  return initializer(name, weight(name));
}

std::string LayerCall::initializer(const std::string& name, const Tensor& value) const {
  return float_initializer(*this, scope() + "/" + name, value);
}

std::string float_initializer(const LayerCall& c, const std::string& base, const Tensor& value) {
  if (value.dtype() != DType::Float32)
    c.fail("its weight \"" + base + "\" is " + std::string(dtype_name(value.dtype())) +
           "; export writes float32 models (use the float32 dtype policy)");
  return c.g.initializer(base, value);
}

std::string activation_name(const LayerCall& c, const Config& config) {
  const Config& a = config.contains("activation") ? config["activation"] : Config();
  if (a.is_null()) return "linear";
  if (!a.is_string()) c.fail("its activation is not a built-in one");
  return a.get<std::string>();
}

std::string reverse_axis(Graph& g, const std::string& x, int64_t axis, const std::string& base) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  return g.node("Slice", {x, g.constant_i64(base + "/starts", {-1}),
                          g.constant_i64(base + "/ends", {-big}),
                          g.constant_i64(base + "/axes", {axis}),
                          g.constant_i64(base + "/steps", {-1})},
                {}, base);
}

void LayerCall::fail(const std::string& why) const {
  throw ValueError("export: layer \"" + layer.name() + "\" (" + layer.class_name() +
                   ") cannot be exported to ONNX: " + why + ".");
}

void LayerCall::refuse_quantized() const {
  if (!layer.quantization_mode().empty())
    fail("it is quantized (dtype policy \"" + layer.dtype_policy().name +
         "\"); export writes float32 models: export the model before quantize()");
}

const Config& LayerCall::at(const std::string& key) const {
  if (!config.contains(key)) fail("its config has no \"" + key + "\"");
  return config[key];
}

int LayerCall::rank() const {
  if (input_shapes.empty()) fail("its input shape is unknown");
  return input_shapes[0].rank();
}

std::vector<int64_t> int_tuple(const LayerCall& c, const std::string& key, int n) {
  const Config& v = c.at(key);
  if (v.is_number_integer()) return std::vector<int64_t>(static_cast<size_t>(n), v.get<int64_t>());
  std::vector<int64_t> out = v.get<std::vector<int64_t>>();
  if (static_cast<int>(out.size()) != n)
    c.fail("\"" + key + "\" has " + std::to_string(out.size()) + " values, expected " +
           std::to_string(n));
  return out;
}

std::string transpose(Graph& g, const std::string& x, const std::vector<int64_t>& perm,
                      const std::string& base) {
  return g.node("Transpose", {x}, {{"perm", perm}}, base);
}

std::vector<int64_t> to_channels_first(int rank) {
  std::vector<int64_t> p{0, rank - 1};
  for (int i = 1; i < rank - 1; ++i) p.push_back(i);
  return p;
}

std::vector<int64_t> to_channels_last(int rank) {
  std::vector<int64_t> p{0};
  for (int i = 2; i < rank; ++i) p.push_back(i);
  p.push_back(1);
  return p;
}

std::string reduce(Graph& g, const std::string& op, const std::string& x,
                   const std::vector<int64_t>& axes, bool keepdims, const std::string& base) {
  const Attribute keep{"keepdims", static_cast<int64_t>(keepdims)};
  // ReduceSum took its axes as an input from opset 13, the others from opset 18.
  const bool axes_input = op == "ReduceSum" ? g.opset() >= 13 : g.opset() >= 18;
  if (axes_input) return g.node(op, {x, g.constant_i64(base + "/axes", axes)}, {keep}, base);
  return g.node(op, {x}, {{"axes", axes}, keep}, base);
}

std::string apply_activation(LayerCall& c, const std::string& x, const std::string& name) {
  Graph& g = c.g;
  const std::string base = c.scope() + "/" + name;
  if (name.empty() || name == "linear") return x;
  if (name == "relu") return g.node("Relu", {x}, {}, base);
  if (name == "sigmoid") return g.node("Sigmoid", {x}, {}, base);
  if (name == "tanh") return g.node("Tanh", {x}, {}, base);
  if (name == "softmax") return g.node("Softmax", {x}, {{"axis", int64_t{-1}}}, base);
  if (name == "log_softmax") return g.node("LogSoftmax", {x}, {{"axis", int64_t{-1}}}, base);
  if (name == "elu") return g.node("Elu", {x}, {{"alpha", 1.0f}}, base);
  if (name == "selu")  // Keras's constants, as ONNX's defaults
    return g.node("Selu", {x}, {{"alpha", 1.67326324f}, {"gamma", 1.05070098f}}, base);
  if (name == "softplus") return g.node("Softplus", {x}, {}, base);
  if (name == "softsign") return g.node("Softsign", {x}, {}, base);
  if (name == "exponential") return g.node("Exp", {x}, {}, base);
  if (name == "relu6")
    return g.node("Clip", {x, g.scalar_f32(base + "/min", 0.0f), g.scalar_f32(base + "/max", 6.0f)},
                  {}, base);
  if (name == "leaky_relu")  // Keras 3's default negative_slope
    return g.node("LeakyRelu", {x}, {{"alpha", 0.2f}}, base);
  if (name == "hard_sigmoid")  // Keras 3: relu6(x + 3) / 6
    return g.node("HardSigmoid", {x}, {{"alpha", 1.0f / 6.0f}, {"beta", 0.5f}}, base);
  if (name == "hard_silu" || name == "hard_swish") return g.node("HardSwish", {x}, {}, base);
  if (name == "silu" || name == "swish")
    return g.node("Mul", {x, g.node("Sigmoid", {x}, {}, base)}, {}, base);
  if (name == "mish") {
    const std::string t = g.node("Tanh", {g.node("Softplus", {x}, {}, base)}, {}, base);
    return g.node("Mul", {x, t}, {}, base);
  }
  if (name == "gelu") {  // Keras's default: the exact form, 0.5 x (1 + erf(x / sqrt(2)))
    if (g.opset() >= 20) return g.node("Gelu", {x}, {}, base);
    const std::string e = g.node(
        "Erf", {g.node("Mul", {x, g.scalar_f32(base + "/rsqrt2", static_cast<float>(M_SQRT1_2))},
                       {}, base)},
        {}, base);
    const std::string one_plus = g.node("Add", {e, g.scalar_f32(base + "/one", 1.0f)}, {}, base);
    const std::string half_x = g.node("Mul", {x, g.scalar_f32(base + "/half", 0.5f)}, {}, base);
    return g.node("Mul", {half_x, one_plus}, {}, base);
  }
  c.fail("activation \"" + name + "\" has no ONNX mapping");
}

Converter find_converter(const std::string& class_name) {
  static const std::map<std::string, Converter> table = [] {
    std::map<std::string, Converter> t;
    register_core(t);
    register_conv(t);
    register_normalization(t);
    register_rnn(t);
    register_attention(t);
    register_wrappers(t);
    register_preprocessing(t);
    register_adaptive_pooling(t);
    register_masking(t);
    register_conv_lstm(t);
    return t;
  }();
  auto it = table.find(class_name);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace keras::onnx

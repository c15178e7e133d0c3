// keras.activations: the built-in functions by name, on top of keras::ops.

#include <map>

#include "keras/activations/activation.h"
#include "keras/ops/ops.h"

namespace keras::activations {
namespace {

using Fn = Activation::Fn;

// keras/src/activations/__init__.py ALL_OBJECTS, with Keras's default arguments.
const std::map<std::string, Fn>& builtins() {
  static const std::map<std::string, Fn> table = {
      {"celu", [](const Tensor& x) { return ops::celu(x); }},
      {"elu", [](const Tensor& x) { return ops::elu(x); }},
      {"exponential", [](const Tensor& x) { return ops::exp(x); }},
      {"gelu", [](const Tensor& x) { return ops::gelu(x, /*approximate=*/false); }},
      {"glu", [](const Tensor& x) { return ops::glu(x); }},
      {"hard_shrink", [](const Tensor& x) { return ops::hard_shrink(x); }},
      {"hard_sigmoid", [](const Tensor& x) { return ops::hard_sigmoid(x); }},
      {"hard_silu", [](const Tensor& x) { return ops::hard_silu(x); }},
      {"hard_swish", [](const Tensor& x) { return ops::hard_silu(x); }},
      {"hard_tanh", [](const Tensor& x) { return ops::hard_tanh(x); }},
      {"leaky_relu", [](const Tensor& x) { return ops::leaky_relu(x, 0.2); }},
      {"log_sigmoid", [](const Tensor& x) { return ops::log_sigmoid(x); }},
      {"log_softmax", [](const Tensor& x) { return ops::log_softmax(x); }},
      {"mish", [](const Tensor& x) { return ops::multiply(x, ops::tanh(ops::softplus(x))); }},
      {"relu", [](const Tensor& x) { return ops::relu(x); }},
      {"relu6", [](const Tensor& x) { return ops::relu6(x); }},
      {"selu", [](const Tensor& x) { return ops::selu(x); }},
      {"sigmoid", [](const Tensor& x) { return ops::sigmoid(x); }},
      {"silu", [](const Tensor& x) { return ops::silu(x); }},
      {"swish", [](const Tensor& x) { return ops::silu(x); }},
      {"soft_shrink", [](const Tensor& x) { return ops::soft_shrink(x); }},
      {"softmax", [](const Tensor& x) { return ops::softmax(x); }},
      {"softplus", [](const Tensor& x) { return ops::softplus(x); }},
      {"softsign", [](const Tensor& x) { return ops::softsign(x); }},
      {"sparse_plus", [](const Tensor& x) { return ops::sparse_plus(x); }},
      {"sparse_sigmoid", [](const Tensor& x) { return ops::sparse_sigmoid(x); }},
      {"sparsemax", [](const Tensor& x) { return ops::sparsemax(x); }},
      {"squareplus", [](const Tensor& x) { return ops::squareplus(x); }},
      {"tanh", [](const Tensor& x) { return ops::tanh(x); }},
      {"tanh_shrink", [](const Tensor& x) { return ops::tanh_shrink(x); }},
  };
  return table;
}

// The aliases ALL_OBJECTS_DICT adds: they name the same function object, so Keras's configs
// record the function's own name ("silu" for "swish").
std::string canonical_name(const std::string& name) {
  if (name == "swish") return "silu";
  if (name == "hard_swish") return "hard_silu";
  return name;
}

}  // namespace

Activation::Activation(const char* name) : Activation(std::string(name)) {}

Activation::Activation(const std::string& name) : name_(canonical_name(name)) {
  if (name.empty() || name == "linear" || name == "None") {
    name_ = "linear";
    return;
  }
  auto it = builtins().find(name);
  if (it == builtins().end()) {
    std::string known = "linear";
    for (const auto& [n, f] : builtins()) known += ", " + n;
    throw ValueError("Unknown activation '" + name + "'. Known activations: " + known + ".");
  }
  fn_ = it->second;
  // Keras's aliases name the same Python function, and configs record the function's name.
  if (name == "swish") name_ = "silu";
  if (name == "hard_swish") name_ = "hard_silu";
}

Activation::Activation(Fn fn, std::string name) : fn_(std::move(fn)), name_(std::move(name)) {}

Activation get(const std::string& name) { return Activation(name); }

Config serialize(const Activation& activation) { return activation.name(); }

Activation deserialize(const Config& config) {
  if (config.is_null()) return Activation();
  if (config.is_string()) return Activation(config.get<std::string>());
  // The full record of a registered function: {"class_name": "function", "config": name}.
  if (config.is_object() && config.contains("config") && config["config"].is_string())
    return Activation(config["config"].get<std::string>());
  throw ValueError("Cannot read an activation from config " + config.dump() + ".");
}

}  // namespace keras::activations

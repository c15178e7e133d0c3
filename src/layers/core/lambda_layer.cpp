#include "keras/layers/core/lambda_layer.h"

#include <map>
#include <mutex>

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

// The one global registry of Lambda functions, by registered name.
struct LambdaRegistry {
  std::mutex mutex;
  std::map<std::string, LambdaFunction> functions;
};

LambdaRegistry& lambda_registry() {
  static LambdaRegistry* r = new LambdaRegistry();
  return *r;
}

std::string registered_names() {
  LambdaRegistry& r = lambda_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::string out;
  for (const auto& [name, fn] : r.functions) out += (out.empty() ? "" : ", ") + ("'" + name + "'");
  return out.empty() ? "none" : out;
}

// What configs record for an anonymous function (Python names its lambdas this way too).
constexpr const char* kAnonymous = "<lambda>";

[[noreturn]] void not_registered(const std::string& layer, const std::string& name) {
  if (name == kAnonymous)
    throw ValueError("Lambda '" + layer +
                     "': the layer wraps an anonymous function, which a config cannot name, so "
                     "it cannot be rebuilt from its config. Register the function with "
                     "keras::layers::register_lambda(\"name\", fn) and create the layer with "
                     "keras::layers::Lambda(\"name\") to save and reload it.");
  throw ValueError(
      "Lambda '" + layer + "': no function is registered under the name '" + name +
      "', so the layer cannot be rebuilt from its config (keras-cpp never executes code from "
      "a config). Register the function first: keras::layers::register_lambda(\"" + name +
      "\", [](const keras::Tensor& x) { ... }). Registered: " + registered_names() + ".");
}

// Whether `name` is one of keras.activations (which Keras records as plain functions).
bool is_keras_activation(const std::string& name) {
  try {
    activations::Activation a(name);
    return true;
  } catch (const ValueError&) {
    return false;
  }
}

// The function a Lambda config's "function" entry names.
std::pair<LambdaFunction, std::string> function_from_config(const std::string& layer,
                                                           const Config& f) {
  auto bytecode = [&] {
    throw ValueError("Lambda '" + layer +
                     "': the config holds a Python lambda (bytecode). keras-cpp never executes "
                     "code from a config; replace the lambda by a named function, register a C++ "
                     "equivalent with keras::layers::register_lambda(name, fn), and save the "
                     "model again.");
  };
  if (f.is_array()) bytecode();  // Keras 2: (code, defaults, closure).
  if (f.is_string()) {
    const std::string name = f.get<std::string>();
    if (auto fn = registered_lambda(name)) return {fn, name};
    not_registered(layer, name);
  }
  check(f.is_object(), "Lambda '", layer, "': cannot read the function from config ", f.dump(),
        ".");
  const std::string cls = f.value("class_name", std::string());
  if (cls == "__lambda__") bytecode();
  check(cls == "function" && f.contains("config") && f["config"].is_string(), "Lambda '", layer,
        "': expected a function record ({\"class_name\": \"function\", \"config\": name, ...}); "
        "got ", f.dump(), ".");
  const std::string plain = f["config"].get<std::string>();
  std::string registered = plain;
  // Keras 3.15 writes registered_name "function" (and module "builtins") for every function
  // that was not registered with a package: the name is then the config alone.
  if (f.contains("registered_name") && f["registered_name"].is_string() &&
      f["registered_name"].get<std::string>() != "function")
    registered = f["registered_name"].get<std::string>();
  for (const std::string& name : {registered, plain})
    if (auto fn = registered_lambda(name)) return {fn, name};
  // Keras's own activations (Lambda(keras.activations.relu)) need no registration.
  const std::string module = f.value("module", std::string());
  if ((module == "keras.activations" || module == "builtins") && plain != kAnonymous &&
      is_keras_activation(plain)) {
    activations::Activation a(plain);
    return {[a](const Tensor& x) { return a(x); }, plain};
  }
  not_registered(layer, registered);
}

}  // namespace

void register_lambda(const std::string& name, LambdaFunction function) {
  check(!name.empty() && name != kAnonymous, "register_lambda: invalid name '", name, "'.");
  check(static_cast<bool>(function), "register_lambda('", name, "'): the function is empty.");
  LambdaRegistry& r = lambda_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.functions[name] = std::move(function);
}

LambdaFunction registered_lambda(const std::string& name) {
  LambdaRegistry& r = lambda_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.functions.find(name);
  return it == r.functions.end() ? LambdaFunction() : it->second;
}

LambdaLayer::LambdaLayer(LambdaFunction function, std::string function_name,
                         LambdaOptions options)
    : Layer(base_options(options), "lambda"),
      function_(std::move(function)),
      function_name_(std::move(function_name)),
      options_(std::move(options)) {
  check(static_cast<bool>(function_), "Lambda '", name(), "': the function is empty.");
  if (options_.output_shape)
    for (int64_t d : *options_.output_shape)
      check(d >= 0 || d == kUnknownDim, "Lambda '", name(), "': output_shape ",
            shape_string(*options_.output_shape), " has an invalid dimension ", d, ".");
  set_supports_masking(static_cast<bool>(options_.mask));
  set_built(true);
}

Tensor LambdaLayer::compute_mask(const Tensor& inputs, const Tensor& mask) const {
  return options_.mask ? options_.mask(inputs, mask) : Tensor();
}

Tensor LambdaLayer::call(const Tensor& inputs, const CallContext&) {
  // Symbolic calls take a fully known output_shape as given (Keras's compute_output_shape).
  if (options_.output_shape && inputs.backend().is_symbolic() && inputs.ndim() >= 1) {
    bool known = true;
    for (int64_t d : *options_.output_shape) known = known && d >= 0;
    if (known) {
      Shape shape{inputs.shape()[0]};
      for (int64_t d : *options_.output_shape) shape.push_back(d);
      return ops::zeros(shape, inputs.dtype());
    }
  }
  Tensor out = function_(inputs);
  check(out.defined(), "Lambda '", name(), "': the function returned an undefined tensor.");
  return out;
}

Config LambdaLayer::get_config() const {
  Config c = Layer::get_config();
  const std::string fn = function_name_.empty() ? kAnonymous : function_name_;
  if (!registered_lambda(fn) && is_keras_activation(fn))  // as Keras 3.15 records its functions
    c["function"] = {{"module", "builtins"},
                     {"class_name", "function"},
                     {"config", fn},
                     {"registered_name", "function"}};
  else
    c["function"] = {{"module", "keras_cpp"},
                     {"class_name", "function"},
                     {"config", fn},
                     {"registered_name", fn}};
  if (options_.output_shape) {
    Config shape = Config::array();
    for (int64_t d : *options_.output_shape) shape.push_back(d < 0 ? Config(nullptr) : Config(d));
    c["output_shape"] = shape;
  }
  if (options_.mask)  // An anonymous function: from_config refuses it (see the header).
    c["mask"] = {{"module", "keras_cpp"},
                 {"class_name", "function"},
                 {"config", kAnonymous},
                 {"registered_name", kAnonymous}};
  c["arguments"] = Config::object();
  return c;
}

std::shared_ptr<Layer> LambdaLayer::from_config(const Config& c) {
  LambdaOptions o;
  read_base_config(c, o);
  const std::string layer = o.name.empty() ? std::string("lambda") : o.name;
  check(c.contains("function"), "Lambda.from_config: the config has no 'function': ", c.dump(),
        ".");
  if (c.value("function_type", std::string()) == "lambda")
    function_from_config(layer, Config::array());  // Keras 2 bytecode: raises.
  auto [fn, fn_name] = function_from_config(layer, c["function"]);
  if (c.contains("output_shape") && c["output_shape"].is_array()) {
    // A function-valued output_shape is not needed: shapes come from running the function.
    Shape shape;
    for (const Config& d : c["output_shape"]) shape.push_back(d.is_null() ? kUnknownDim : d.get<int64_t>());
    o.output_shape = shape;
  }
  if (c.contains("mask"))
    check(c["mask"].is_null(), "Lambda '", layer, "': a Lambda mask (", c["mask"].dump(),
          ") cannot be loaded from a config; pass LambdaOptions::mask in C++ or write a custom "
          "layer with compute_mask instead.");
  if (c.contains("arguments"))
    check(c["arguments"].is_null() || c["arguments"].empty(), "Lambda '", layer,
          "': function arguments (", c["arguments"].dump(),
          ") are not supported; capture them in the registered C++ function instead.");
  return std::make_shared<LambdaLayer>(fn, fn_name, o);
}

LayerPtr<LambdaLayer> Lambda(LambdaFunction function, LambdaOptions options) {
  return make_layer<LambdaLayer>(std::move(function), std::string(), std::move(options));
}

LayerPtr<LambdaLayer> Lambda(const std::string& function_name, LambdaOptions options) {
  LambdaFunction fn = registered_lambda(function_name);
  if (!fn) not_registered(options.name.empty() ? std::string("lambda") : options.name, function_name);
  return make_layer<LambdaLayer>(std::move(fn), function_name, std::move(options));
}

}  // namespace keras::layers

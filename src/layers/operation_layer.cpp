// OperationLayer: a Keras op call as a node of a Functional graph (keras/layers/operation_layer.h).

#include "keras/layers/operation_layer.h"

#include "keras/core/errors.h"

namespace keras::layers {
namespace {

bool is_tensor_slot(const Config& v) {
  return v.is_object() && v.contains("__tensor__");
}

// Counts the tensor slots of a call's arguments and checks they are 0, 1, 2, ... in order of
// appearance (how the node's inputs are ordered).
void count_slots(const Config& v, size_t& next, const std::string& op) {
  if (is_tensor_slot(v)) {
    check(v["__tensor__"].is_number_integer() && v["__tensor__"].get<int64_t>() >= 0 &&
              v["__tensor__"].get<size_t>() == next,
          op, ": the call's tensors must be numbered in order of appearance; got ", v.dump(), ".");
    ++next;
  } else if (v.is_array() || v.is_object()) {
    for (const Config& e : v) count_slots(e, next, op);
  }
}

Config replace_slots(const Config& v, const std::function<Config(size_t)>& tensor_record) {
  if (is_tensor_slot(v)) return tensor_record(v["__tensor__"].get<size_t>());
  if (v.is_array()) {
    Config out = Config::array();
    for (const Config& e : v) out.push_back(replace_slots(e, tensor_record));
    return out;
  }
  if (v.is_object()) {
    Config out = Config::object();
    for (const auto& [k, e] : v.items()) out[k] = replace_slots(e, tensor_record);
    return out;
  }
  return v;
}

const ops::OperationSpec& spec_of(const std::string& class_name) {
  const ops::OperationSpec* spec = ops::find_operation(class_name);
  if (!spec)
    throw NotImplementedError(
        "The Keras op '" + class_name +
        "' in this Functional graph has no keras-cpp implementation. Register one with "
        "keras::ops::register_operation({\"" +
        class_name + "\", module, fn}) before loading.");
  return *spec;
}

LayerOptions options_of(const Config& config) {
  LayerOptions options;
  if (config.is_object() && config.value("name", Config()).is_string())
    options.name = config["name"].get<std::string>();
  return options;
}

std::string snake_case(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (i > 0) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

OperationLayer::OperationLayer(std::string class_name, Config config, Config call_args,
                               Config call_kwargs)
    : Layer(options_of(config), snake_case(class_name)),
      class_name_(std::move(class_name)),
      spec_(&spec_of(class_name_)),
      config_(config.is_object() ? std::move(config) : Config::object()) {
  config_.erase("name");
  set_call(std::move(call_args), std::move(call_kwargs));
}

Config OperationLayer::get_config() const {
  Config out = {{"name", name()}};
  for (const auto& [k, v] : config_.items()) out[k] = v;
  return out;
}

size_t OperationLayer::set_call(Config call_args, Config call_kwargs) {
  check(call_args.is_array(), class_name_, ": the call's arguments must be a list; got ",
        call_args.dump().substr(0, 200), ".");
  if (call_kwargs.is_null()) call_kwargs = Config::object();
  check(call_kwargs.is_object(), class_name_, ": the call's keyword arguments must be an object.");
  size_t n = 0;
  count_slots(call_args, n, class_name_);
  count_slots(call_kwargs, n, class_name_);
  args_ = std::move(call_args);
  kwargs_ = std::move(call_kwargs);
  num_tensors_ = n;
  return n;
}

Config OperationLayer::call_args(const std::function<Config(size_t)>& tensor_record) const {
  return replace_slots(args_, tensor_record);
}

Config OperationLayer::call_kwargs(const std::function<Config(size_t)>& tensor_record) const {
  return replace_slots(kwargs_, tensor_record);
}

Tensor OperationLayer::call(const Tensor& inputs, const CallContext& ctx) {
  TensorList out = call_list({inputs}, ctx);
  check(out.size() == 1, class_name_, " '", name(), "' returns ", out.size(),
        " tensors; call it with call_all().");
  return out[0];
}

TensorList OperationLayer::call_list(const TensorList& inputs, const CallContext&) {
  check(inputs.size() == num_tensors_, class_name_, " '", name(), "' reads ", num_tensors_,
        " tensor(s) but received ", inputs.size(), ".");
  ops::OperationCall call(class_name_, config_, args_, kwargs_, inputs);
  return spec_->fn(call);
}

bool OperationLayer::is_operation_record(const Config& record) {
  if (!record.is_object() || !record.value("module", Config()).is_string()) return false;
  const std::string module = record["module"].get<std::string>();
  return module.rfind("keras.src.ops.", 0) == 0;
}

std::shared_ptr<Layer> OperationLayer::from_record(const Config& record) {
  check(record.is_object() && record.value("class_name", Config()).is_string(),
        "OperationLayer: expected a {\"class_name\", \"config\", ...} record; got ",
        record.dump().substr(0, 200), ".");
  return make_layer<OperationLayer>(record["class_name"].get<std::string>(),
                                    record.value("config", Config::object()));
}

}  // namespace keras::layers

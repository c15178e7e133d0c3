// keras.DTypePolicy and the global default (keras/src/dtype_policies/dtype_policy.py).

#include "keras/layers/dtype_policy.h"

#include <algorithm>
#include <mutex>
#include <optional>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/quantizers/quantizers.h"

namespace keras {
namespace {

struct DefaultPolicy {
  std::mutex mutex;
  std::optional<DTypePolicy> policy;  // unset: follow floatx()
};

DefaultPolicy& default_policy_state() {
  static DefaultPolicy state;
  return state;
}

}  // namespace

namespace {

// "<mode>_from_<source>": Keras's dtype_policies.get of a quantized policy name.
DTypePolicy quantized_from_name(const std::string& name, size_t at) {
  std::string mode = name.substr(0, at);
  DTypePolicy p = DTypePolicy::from_name(name.substr(at + 6));
  p.name = name;
  if (mode.rfind("int4/", 0) == 0) {
    try {
      p.block_size = std::stoll(mode.substr(5));
    } catch (const std::exception&) {
      throw ValueError("Invalid mode for Int4DTypePolicy. <block_size> must be an integer. "
                       "Expected format 'int4/<block_size>', but got '" + mode + "'.");
    }
    check(p.block_size == -1 || p.block_size > 0,
          "Invalid block_size in mode. Supported values are -1 (per-channel) or a positive "
          "integer (sub-channel), but got ", p.block_size, " from '", mode, "'.");
    mode = "int4";
  } else if (const std::string base = mode.substr(0, mode.find('/'));
             base == "gptq" || base == "awq") {
    // GPTQDTypePolicy / AWQDTypePolicy: "<gptq|awq>/<weight_bits>/<group_size>".
    const std::string cls = base == "gptq" ? "GPTQDTypePolicy" : "AWQDTypePolicy";
    const std::string format = "'" + base + "/<weight_bits>/<group_size>'";
    const size_t a = mode.find('/'), b = a == std::string::npos ? a : mode.find('/', a + 1);
    check(a != std::string::npos && b != std::string::npos &&
              mode.find('/', b + 1) == std::string::npos,
          "Invalid mode for ", cls, ". Expected format ", format, ", but got '", mode, "'.");
    int64_t bits = 0;
    try {
      size_t used = 0;
      bits = std::stoll(mode.substr(a + 1, b - a - 1), &used);
      check(used == b - a - 1, "");
      p.block_size = std::stoll(mode.substr(b + 1), &used);
      check(used == mode.size() - b - 1, "");
    } catch (const std::exception&) {
      throw ValueError("Invalid mode for " + cls + ". <weight_bits> and <group_size> must be "
                       "integers. Expected format " + format + ", but got '" + mode + "'.");
    }
    if (base == "gptq")
      check(bits == 2 || bits == 3 || bits == 4 || bits == 8, "Invalid weight_bits in mode. "
            "Supported values are 2, 3, 4, and 8, but got ", bits, " from '", mode, "'.");
    else
      check(bits == 4, "Invalid weight_bits in mode. AWQ only supports 4-bit quantization, but "
            "got ", bits, " from '", mode, "'.");
    check(p.block_size == -1 || p.block_size > 0, "Invalid group_size in mode. Supported values "
          "are -1 (", base == "gptq" ? "whole-tensor" : "per-channel",
          ") or a positive integer, but got ", p.block_size, " from '", mode, "'.");
    mode = base;
  } else if (mode == "int4") {
    // Keras's legacy QuantizedDTypePolicy("int4"), per channel: block_size 0 marks it so that
    // it serializes as that class again (Int4DTypePolicy names have -1 or a positive size).
    p.block_size = 0;
  }
  const auto& modes = quantizers::quantization_modes();
  check(std::find(modes.begin(), modes.end(), mode) != modes.end(),
        "Invalid quantization mode. Expected one of ('int8', 'float8', 'int4', 'gptq', 'awq'). "
        "Received: mode=", mode, " (in the dtype policy '", name, "').");
  check(!(mode == "int8" && p.compute_dtype == DType::Float16),
        "Quantization mode='int8' doesn't work well with compute_dtype='float16'.");
  p.quantization_mode = mode;
  return p;
}

}  // namespace

DTypePolicy DTypePolicy::from_name(const std::string& name) {
  if (size_t at = name.find("_from_"); at != std::string::npos)
    return quantized_from_name(name, at);
  DTypePolicy p;
  p.name = name;
  if (name == "mixed_float16" || name == "mixed_bfloat16") {
    p.variable_dtype = DType::Float32;
    p.compute_dtype = name == "mixed_float16" ? DType::Float16 : DType::BFloat16;
    return p;
  }
  try {
    DType t = dtype_from_string(name);
    p.variable_dtype = p.compute_dtype = t;
  } catch (const ValueError&) {
    throw ValueError("Invalid dtype policy '" + name +
                     "'. Expected a dtype name (\"float32\", ...), \"mixed_float16\", "
                     "\"mixed_bfloat16\" or a quantized policy (\"int8_from_float32\").");
  }
  return p;
}

DTypePolicy DTypePolicy::default_policy() { return config::dtype_policy(); }

std::string DTypePolicy::source_name() const {
  if (quantization_mode.empty()) return name;
  return name.substr(name.find("_from_") + 6);
}

Config DTypePolicy::serialize() const {
  auto object = [](const char* cls, Config config) {
    return Config{{"module", "keras.dtype_policies"},
                  {"class_name", cls},
                  {"config", std::move(config)},
                  {"registered_name", nullptr}};
  };
  if (quantization_mode.empty())
    return {{"module", "keras"},
            {"class_name", "DTypePolicy"},
            {"config", {{"name", name}}},
            {"registered_name", nullptr}};
  if (quantization_mode == "int4" && block_size != 0)
    return object("Int4DTypePolicy", {{"mode", "int4/" + std::to_string(block_size)},
                                      {"source_name", source_name()}});
  if (quantization_mode == "gptq" || quantization_mode == "awq")
    return object(quantization_mode == "gptq" ? "GPTQDTypePolicy" : "AWQDTypePolicy",
                  {{"mode", name.substr(0, name.find("_from_"))}, {"source_name", source_name()}});
  if (quantization_mode == "float8")
    return object("QuantizedFloat8DTypePolicy", {{"mode", quantization_mode},
                                                 {"source_name", source_name()},
                                                 {"amax_history_length", amax_history_length}});
  return object("QuantizedDTypePolicy",
                {{"mode", quantization_mode}, {"source_name", source_name()}});
}

DTypePolicy DTypePolicy::deserialize(const Config& d) {
  if (d.is_string()) return from_name(d.get<std::string>());
  check(d.is_object() && d.contains("config"), "Invalid dtype policy config: ", d.dump(), ".");
  const Config& c = d["config"];
  if (c.contains("name")) return from_name(c["name"].get<std::string>());
  check(c.contains("mode") && c.contains("source_name"),
        "A quantized dtype policy config needs 'mode' and 'source_name'; got ", d.dump(), ".");
  DTypePolicy p = from_name(c["mode"].get<std::string>() + "_from_" +
                            c["source_name"].get<std::string>());
  if (c.contains("amax_history_length"))
    p.amax_history_length = c["amax_history_length"].get<int64_t>();
  return p;
}

namespace config {

void set_dtype_policy(const std::string& policy) { set_dtype_policy(DTypePolicy::from_name(policy)); }

void set_dtype_policy(const DTypePolicy& policy) {
  DefaultPolicy& s = default_policy_state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.policy = policy;
}

DTypePolicy dtype_policy() {
  DefaultPolicy& s = default_policy_state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.policy) return *s.policy;
  }
  return DTypePolicy::from_name(std::string(dtype_name(floatx())));
}

namespace detail {
void reset_dtype_policy() {
  DefaultPolicy& s = default_policy_state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.policy.reset();
}
}  // namespace detail

}  // namespace config
}  // namespace keras

// keras.quantizers.GPTQConfig and AWQConfig (keras/src/quantizers/gptq_config.py,
// awq_config.py): Keras's checks, get_config and dtype_policy_string.

#include "keras/quantizers/gptq_config.h"

#include "keras/core/errors.h"
#include "keras/quantizers/awq_config.h"
#include "quantizers/calibrated_config.h"
#include "quantizers/calibration_state.h"

namespace keras::quantizers {
namespace {

using GptqConfigObject = detail::CalibratedConfig<GPTQConfigOptions>;
using AwqConfigObject = detail::CalibratedConfig<AWQConfigOptions>;

// Keras's checks, in the order its constructors run them.
void check_sizes(int64_t num_samples, int64_t sequence_length) {
  check(num_samples > 0, "num_samples must be a positive integer.");
  check(sequence_length > 0, "sequence_length must be a positive integer.");
}

void check_group(int64_t group_size, const char* meaning) {
  check(group_size >= -1 && group_size != 0, "Invalid group_size. Supported values are -1 (",
        meaning, ") or a positive integer, but got ", group_size, ".");
}

}  // namespace

QuantizationConfigPtr GPTQConfig(GPTQConfigOptions o) {
  check(o.weight_bits == 2 || o.weight_bits == 3 || o.weight_bits == 4 || o.weight_bits == 8,
        "Unsupported weight_bits ", o.weight_bits, ". Supported values are 2, 3, 4, and 8.");
  check_sizes(o.num_samples, o.sequence_length);
  check(o.hessian_damping >= 0 && o.hessian_damping <= 1,
        "hessian_damping must be between 0 and 1.");
  check_group(o.group_size, "whole-tensor");
  return std::make_shared<GptqConfigObject>("gptq", std::move(o));
}

QuantizationConfigPtr AWQConfig(AWQConfigOptions o) {
  check(o.weight_bits == 4, "AWQ only supports 4-bit quantization. Received weight_bits=",
        o.weight_bits, ".");
  check_sizes(o.num_samples, o.sequence_length);
  check_group(o.group_size, "per-channel");
  check(o.num_grid_points > 0, "num_grid_points must be a positive integer.");
  return std::make_shared<AwqConfigObject>("awq", std::move(o));
}

const GPTQConfigOptions* gptq_options(const QuantizationConfigPtr& config) {
  return GptqConfigObject::options_of(config.get());
}

const AWQConfigOptions* awq_options(const QuantizationConfigPtr& config) {
  return AwqConfigObject::options_of(config.get());
}

namespace detail {

std::string calibrated_policy_mode(const QuantizationConfigPtr& config) {
  if (const auto* g = gptq_options(config))
    return "gptq/" + std::to_string(g->weight_bits) + "/" + std::to_string(g->group_size);
  if (const auto* a = awq_options(config))
    return "awq/" + std::to_string(a->weight_bits) + "/" + std::to_string(a->group_size);
  throw ValueError("Quantization mode '" + (config ? config->mode : std::string("?")) +
                   "' needs a config made by keras::quantizers::GPTQConfig or AWQConfig (with "
                   "the calibration dataset and the model's quantization_layer_structure).");
}

QuantizationConfigPtr without_calibration_inputs(const QuantizationConfigPtr& config) {
  auto settings_only = [](auto options) {
    options.dataset = CalibrationDataset();
    options.tokenizer = Tokenizer();
    options.quantization_layer_structure.reset();
    return options;
  };
  if (const auto* g = gptq_options(config))
    return std::make_shared<GptqConfigObject>("gptq", settings_only(*g));
  if (const auto* a = awq_options(config))
    return std::make_shared<AwqConfigObject>("awq", settings_only(*a));
  return config;
}

Config serialize_calibrated_config(const QuantizationConfig& config) {
  if (const auto* g = GptqConfigObject::options_of(&config))
    return detail::quantizer_record("GPTQConfig", {{"dataset", nullptr},
                                                   {"tokenizer", nullptr},
                                                   {"weight_bits", g->weight_bits},
                                                   {"num_samples", g->num_samples},
                                                   {"per_channel", g->per_channel},
                                                   {"sequence_length", g->sequence_length},
                                                   {"hessian_damping", g->hessian_damping},
                                                   {"group_size", g->group_size},
                                                   {"symmetric", g->symmetric},
                                                   {"activation_order", g->activation_order},
                                                   {"quantization_layer_structure", nullptr}});
  if (const auto* a = AwqConfigObject::options_of(&config))
    return detail::quantizer_record("AWQConfig", {{"dataset", nullptr},
                                                  {"tokenizer", nullptr},
                                                  {"weight_bits", a->weight_bits},
                                                  {"num_samples", a->num_samples},
                                                  {"sequence_length", a->sequence_length},
                                                  {"group_size", a->group_size},
                                                  {"num_grid_points", a->num_grid_points},
                                                  {"quantization_layer_structure", nullptr}});
  return Config();
}

QuantizationConfigPtr deserialize_calibrated_config(const std::string& class_name,
                                                    const Config& c) {
  auto get = [&c](const char* key, auto fallback) {
    return c.contains(key) && !c[key].is_null() ? c[key].get<decltype(fallback)>() : fallback;
  };
  if (class_name == "GPTQConfig") {
    GPTQConfigOptions o;
    o.weight_bits = get("weight_bits", o.weight_bits);
    o.num_samples = get("num_samples", o.num_samples);
    o.per_channel = get("per_channel", o.per_channel);
    o.sequence_length = get("sequence_length", o.sequence_length);
    o.hessian_damping = get("hessian_damping", o.hessian_damping);
    o.group_size = get("group_size", o.group_size);
    o.symmetric = get("symmetric", o.symmetric);
    o.activation_order = get("activation_order", o.activation_order);
    return GPTQConfig(std::move(o));
  }
  AWQConfigOptions o;
  o.weight_bits = get("weight_bits", o.weight_bits);
  o.num_samples = get("num_samples", o.num_samples);
  o.sequence_length = get("sequence_length", o.sequence_length);
  o.group_size = get("group_size", o.group_size);
  o.num_grid_points = get("num_grid_points", o.num_grid_points);
  return AWQConfig(std::move(o));
}

}  // namespace detail
}  // namespace keras::quantizers

#include "keras/quantizers/quantizers.h"

#include <algorithm>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "keras/quantizers/int4.h"
#include "ops/nn/quantized_linear.h"
#include "quantizers/calibrated_config.h"

namespace keras::quantizers {
namespace {

std::optional<AbsMaxQuantizer> optional_quantizer(const Config& config, const char* key) {
  if (!config.contains(key) || config[key].is_null()) return std::nullopt;
  return AbsMaxQuantizer::deserialize(config[key]);
}

}  // namespace

Quantized abs_max_quantize(const Tensor& x, const ops::Axes& axis,
                           std::pair<double, double> value_range, DType dtype, double epsilon) {
  // int8 along the last axis (the inputs of every quantized call): one backend pass.
  const bool last_axis_only = !axis.is_none() && axis.list().size() == 1 &&
                              (axis.list()[0] == -1 || axis.list()[0] == x.ndim() - 1);
  if (dtype == DType::Int8 && last_axis_only)
    if (auto fused = ops::detail::quantize_rows_int8(
            x, ops::detail::Int8QuantizerSpec::of(value_range, epsilon)))
      return {fused->first, fused->second};
  // The same ops in the same order as Keras, so each float32 rounding is the same.
  Tensor amax = ops::max(ops::abs(x), axis, /*keepdims=*/true);
  Tensor scale = ops::cast(Tensor(value_range.second) / (amax + Tensor(epsilon)), x.dtype());
  Tensor values = ops::clip(ops::round(x * scale), value_range.first, value_range.second);
  return {ops::cast(values, dtype), scale};
}

Quantized AbsMaxQuantizer::operator()(const Tensor& x, std::optional<ops::Axes> call_axis) const {
  ops::Axes chosen = call_axis ? *call_axis : axis ? ops::Axes(*axis) : ops::Axes(-1);
  return abs_max_quantize(x, chosen, value_range, output_dtype, epsilon);
}

Config AbsMaxQuantizer::serialize() const {
  Config c = {{"value_range", {value_range.first, value_range.second}},
              {"epsilon", epsilon},
              {"output_dtype", std::string(dtype_name(output_dtype))}};
  // Keras writes whole numbers for the default range ([-127, 127]).
  if (value_range.first == static_cast<int64_t>(value_range.first) &&
      value_range.second == static_cast<int64_t>(value_range.second))
    c["value_range"] = {static_cast<int64_t>(value_range.first),
                        static_cast<int64_t>(value_range.second)};
  if (axis) c["axis"] = *axis;
  return detail::quantizer_record("AbsMaxQuantizer", c);
}

AbsMaxQuantizer AbsMaxQuantizer::deserialize(const Config& config) {
  std::string cls = config.value("class_name", "");
  check(cls == "AbsMaxQuantizer", "keras.quantizers: cannot deserialize the quantizer '", cls,
        "'; keras-cpp has AbsMaxQuantizer only (", config.dump(), ").");
  const Config& c = config.at("config");
  AbsMaxQuantizer q;
  if (c.contains("value_range"))
    q.value_range = {c["value_range"][0].get<double>(), c["value_range"][1].get<double>()};
  if (c.contains("epsilon")) q.epsilon = c["epsilon"].get<double>();
  if (c.contains("output_dtype"))
    q.output_dtype = dtype_from_string(c["output_dtype"].get<std::string>());
  if (c.contains("axis") && !c["axis"].is_null()) {
    std::vector<int> axes;
    if (c["axis"].is_number()) axes.push_back(c["axis"].get<int>());
    else for (const auto& a : c["axis"]) axes.push_back(a.get<int>());
    q.axis = axes;
  }
  check(q.output_dtype == DType::Int8, "AbsMaxQuantizer: output_dtype '",
        dtype_name(q.output_dtype), "' is not supported; keras-cpp quantizes to int8.");
  check(q.value_range.first >= -128 && q.value_range.second <= 127,
        "Quantizer with output_dtype='int8' requires value_range to be within the interval "
        "[-128, 127]. Received: value_range=(", q.value_range.first, ", ", q.value_range.second,
        ")");
  return q;
}

const std::vector<std::string>& quantization_modes() {
  static const std::vector<std::string> modes = {"int8", "float8", "int4", "gptq", "awq"};
  return modes;
}

QuantizationConfig QuantizationConfig::default_for(const std::string& mode) {
  QuantizationConfig c;
  c.mode = mode;
  if (mode == "int8") {
    c.activation_quantizer = AbsMaxQuantizer{};
  } else if (mode == "int4") {
    c.block_size = 128;
  } else if (mode == "gptq" || mode == "awq") {
    const std::string name = mode == "gptq" ? "GPTQConfig" : "AWQConfig";
    throw ValueError("For mode='" + mode + "', you must pass a config: keras::quantizers::" +
                     name + "({.dataset = ..., .quantization_layer_structure = ...}) with the "
                     "calibration data (keras/quantizers/" + mode + "_config.h).");
  } else if (mode != "float8") {
    throw ValueError("Invalid quantization mode. Expected one of ('int8', 'float8', 'int4', "
                     "'gptq', 'awq'). Received: mode=" + mode);
  }
  return c;
}

Config QuantizationConfig::serialize() const {
  if (mode == "gptq" || mode == "awq") {
    Config c = detail::serialize_calibrated_config(*this);
    check(!c.is_null(), "A '", mode, "' quantization config must come from "
          "keras::quantizers::", mode == "gptq" ? "GPTQConfig" : "AWQConfig", "().");
    return c;
  }
  if (mode == "float8")
    return detail::quantizer_record("Float8QuantizationConfig", Config::object());
  Config c = {{"weight_quantizer", weight_quantizer ? weight_quantizer->serialize() : Config()},
              {"activation_quantizer",
               activation_quantizer ? activation_quantizer->serialize() : Config()}};
  if (mode == "int4") {
    c["block_size"] = block_size ? Config(*block_size) : Config();
    return detail::quantizer_record("Int4QuantizationConfig", c);
  }
  return detail::quantizer_record("Int8QuantizationConfig", c);
}

std::shared_ptr<const QuantizationConfig> QuantizationConfig::deserialize(const Config& config) {
  if (config.is_null()) return nullptr;
  std::string cls = config.value("class_name", "");
  auto out = std::make_shared<QuantizationConfig>();
  const Config empty = Config::object();
  const Config& c = config.contains("config") ? config["config"] : empty;
  if (cls == "GPTQConfig" || cls == "AWQConfig") return detail::deserialize_calibrated_config(cls, c);
  if (cls == "Int8QuantizationConfig") out->mode = "int8";
  else if (cls == "Int4QuantizationConfig") out->mode = "int4";
  else if (cls == "Float8QuantizationConfig") out->mode = "float8";
  else
    throw ValueError("quantization_config: '" + cls +
                     "' is not supported by keras-cpp (supported: Int8QuantizationConfig, "
                     "Int4QuantizationConfig, Float8QuantizationConfig, GPTQConfig, AWQConfig).");
  out->weight_quantizer = optional_quantizer(c, "weight_quantizer");
  out->activation_quantizer = optional_quantizer(c, "activation_quantizer");
  if (out->mode == "int4" && c.contains("block_size") && !c["block_size"].is_null())
    out->block_size = c["block_size"].get<int64_t>();
  if (out->mode == "int4") validate_int4_config(*out);  // Keras's from_config runs __init__
  return out;
}

}  // namespace keras::quantizers

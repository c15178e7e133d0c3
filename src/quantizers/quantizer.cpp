// keras.quantizers.Quantizer, get and fake_quant_with_min_max_vars
// (keras/src/quantizers/__init__.py, quantizers.py).

#include "keras/quantizers/quantizer.h"

#include <functional>

#include "keras/core/errors.h"
#include "keras/core/promotion.h"
#include "keras/ops/ops.h"

namespace keras::quantizers {

// ---- Quantizer -----------------------------------------------------------------------------

Quantizer::Quantizer(std::string output_dtype) : output_dtype_(std::move(output_dtype)) {
  (void)dtype_from_string(output_dtype_);  // ValueError for a name that is no dtype
}

TensorList Quantizer::operator()(const Tensor& x) const {
  return {x};
}

Config Quantizer::get_config() const {
  throw NotImplementedError(class_name() + " does not implement get_config()");
}

Config Quantizer::serialize() const {
  return {{"module", "keras.quantizers"},
          {"class_name", class_name()},
          {"config", get_config()},
          {"registered_name", nullptr}};
}

AbsMaxQuantizerObject::AbsMaxQuantizerObject(AbsMaxQuantizer quantizer)
    : Quantizer(std::string(dtype_name(quantizer.output_dtype))),
      quantizer_(std::move(quantizer)) {}

TensorList AbsMaxQuantizerObject::operator()(const Tensor& x) const {
  Quantized q = quantizer_(x);
  return {q.values, q.scale};
}

Config AbsMaxQuantizerObject::get_config() const {
  return quantizer_.serialize()["config"];
}

// ---- get / serialize / deserialize ---------------------------------------------------------

namespace {

// Keras's ALL_OBJECTS_DICT: each class by its name and its snake-case name.
enum class Known { kQuantizer, kAbsMax, kConfig, kNone };

Known lookup(const std::string& name) {
  if (name == "Quantizer" || name == "quantizer") return Known::kQuantizer;
  if (name == "AbsMaxQuantizer" || name == "abs_max_quantizer") return Known::kAbsMax;
  for (const char* c :
       {"QuantizationConfig", "Int8QuantizationConfig", "Int4QuantizationConfig",
        "Float8QuantizationConfig", "AWQConfig", "quantization_config", "int8_quantization_config",
        "int4_quantization_config", "float8_quantization_config", "awq_config"})
    if (name == c) return Known::kConfig;
  return Known::kNone;
}

}  // namespace

Config serialize(const Quantizer& quantizer) {
  return quantizer.serialize();
}

QuantizerPtr deserialize(const Config& config) {
  check(config.is_object() && config.contains("class_name") && config["class_name"].is_string(),
        "keras.quantizers.deserialize: expected {\"class_name\": ..., \"config\": {...}}; got ",
        config.dump().substr(0, 200), ".");
  const std::string cls = config["class_name"].get<std::string>();
  const Config c = config.contains("config") && config["config"].is_object() ? config["config"]
                                                                             : Config::object();
  switch (lookup(cls)) {
    case Known::kQuantizer: {
      for (auto it = c.begin(); it != c.end(); ++it)
        check(it.key() == "output_dtype", "Quantizer.from_config: unexpected argument `", it.key(),
              "`; Quantizer takes output_dtype only.");
      return std::make_shared<Quantizer>(c.value("output_dtype", std::string("int8")));
    }
    case Known::kAbsMax: {
      Config record = {{"class_name", "AbsMaxQuantizer"}, {"config", c}};
      return std::make_shared<AbsMaxQuantizerObject>(AbsMaxQuantizer::deserialize(record));
    }
    default:
      throw ValueError("keras.quantizers.deserialize: '" + cls +
                       "' is not a quantizer class (Quantizer, AbsMaxQuantizer); quantization "
                       "configs come from get() or QuantizationConfig::deserialize.");
  }
}

QuantizerPtr get(const Config& identifier) {
  if (identifier.is_null()) return nullptr;
  if (identifier.is_object()) {
    const Known known = lookup(identifier.value("class_name", ""));
    if (known == Known::kQuantizer || known == Known::kAbsMax) return deserialize(identifier);
  } else if (identifier.is_string()) {
    const std::string name = identifier.get<std::string>();
    switch (lookup(name)) {
      case Known::kQuantizer:
        return std::make_shared<Quantizer>();
      case Known::kAbsMax:
        return std::make_shared<AbsMaxQuantizerObject>();
      case Known::kConfig:
        throw ValueError("Could not interpret quantizer identifier: " + name +
                         " (a quantization config, not a quantizer: Keras fails on it too; use "
                         "QuantizationConfig::deserialize on its serialized form).");
      case Known::kNone:
        break;
    }
  }
  throw ValueError("Could not interpret quantizer identifier: " +
                   (identifier.is_string() ? identifier.get<std::string>() : identifier.dump()));
}

// ---- fake_quant_with_min_max_vars ----------------------------------------------------------

Tensor fake_quant_with_min_max_vars(const Tensor& inputs, const Tensor& min_vals,
                                    const Tensor& max_vals, int num_bits, bool narrow_range,
                                    std::optional<int> axis) {
  check(num_bits >= 2 && num_bits <= 16,
        "fake_quant_with_min_max_vars: num_bits must be in [2, "
        "16]; got ",
        num_bits, ".");
  check(is_floating(inputs.dtype()),
        "fake_quant_with_min_max_vars: inputs must be floating "
        "point; got ",
        dtype_name(inputs.dtype()), ".");
  if (axis) {
    const int rank = inputs.ndim();
    check(*axis >= -rank && *axis < rank, "fake_quant_with_min_max_vars: axis ", *axis,
          " is out of range for inputs of rank ", rank, ".");
    if (*axis < 0) *axis += rank;
  } else {
    check(min_vals.size() == 1 && max_vals.size() == 1,
          "fake_quant_with_min_max_vars: per-tensor quantization (axis unset) takes one min and "
          "one max; got shapes ",
          min_vals.shape(), " and ", max_vals.shape(), ". Pass axis for per-channel ranges.");
  }
  const double quant_max = static_cast<double>((1 << num_bits) - 1);
  const double quant_min = narrow_range ? 1.0 : 0.0;

  auto fn = [=](const TensorList& args) -> std::pair<TensorList, ops::GradFn> {
    const Tensor& x = args[0];
    const Tensor& min_val = args[1];
    const Tensor& max_val = args[2];
    // adjust_and_nudge, in at least float32.
    const DType compute = result_type({min_val.dtype(), DType::Float32});
    Tensor lo = ops::cast(min_val, compute), hi = ops::cast(max_val, compute);
    Tensor diff = ops::subtract(hi, lo);
    Tensor scale = ops::divide(diff, quant_max - quant_min);
    Tensor inv_scale = ops::divide(quant_max - quant_min, diff);  // recomputed, as Keras
    Tensor zero_point_from_min = ops::subtract(quant_min, ops::divide(lo, scale));
    Tensor zero_point = ops::clip(zero_point_from_min, quant_min, quant_max);
    Tensor nudged_zero_point = ops::round(zero_point);
    Tensor nudged_min = ops::multiply(ops::subtract(quant_min, nudged_zero_point), scale);
    Tensor nudged_max = ops::multiply(ops::subtract(quant_max, nudged_zero_point), scale);

    Tensor quant_zero =
        ops::floor(ops::add(ops::multiply(ops::negative(nudged_min), inv_scale), 0.5));
    // jnp.clip with array bounds: minimum(maximum(x, lo), hi).
    Tensor clamped =
        ops::minimum(ops::maximum(ops::cast(x, nudged_min.dtype()), nudged_min), nudged_max);
    Tensor shifted = ops::subtract(clamped, nudged_min);
    Tensor result = ops::multiply(
        ops::floor(ops::add(ops::subtract(ops::multiply(shifted, inv_scale), quant_zero), 0.5)),
        scale);
    result = ops::cast(result, x.dtype());

    Tensor inside =
        ops::logical_and(ops::greater_equal(x, nudged_min), ops::less_equal(x, nudged_max));
    Tensor at_min = ops::less_equal(x, nudged_min);
    Tensor at_max = ops::greater_equal(x, nudged_max);
    const Shape min_shape = min_val.shape(), max_shape = max_val.shape();
    const int rank = x.ndim();
    ops::GradFn grad = [=](const TensorList& upstream) -> TensorList {
      const Tensor& up = upstream[0];
      const Tensor zero = ops::zeros_like(up);
      Tensor dx = ops::where(inside, up, zero);
      // Summed over every axis but the channel axis (all of them per tensor).
      std::vector<int> others;
      for (int i = 0; i < rank; ++i)
        if (!axis || i != *axis) others.push_back(i);
      auto reduce = [&](const Tensor& g, const Shape& shape) {
        Tensor s = axis ? ops::sum(g, ops::Axes(others)) : ops::sum(g);
        return ops::reshape(s, shape);
      };
      Tensor dmin = reduce(ops::where(at_min, up, zero), min_shape);
      Tensor dmax = reduce(ops::where(at_max, up, zero), max_shape);
      return {dx, dmin, dmax};
    };
    return {{result}, grad};
  };
  using Fn = std::function<std::pair<TensorList, ops::GradFn>(const TensorList&)>;
  return ops::custom_gradient(Fn(fn))({inputs, min_vals, max_vals})[0];
}

}  // namespace keras::quantizers

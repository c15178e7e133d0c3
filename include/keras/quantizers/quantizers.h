#pragma once
// keras.quantizers: the abs-max quantizer and the quantization configs of Keras 3.15
// (keras/src/quantizers/quantizers.py, quantization_config.py), serialized as Keras writes them.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/core/json.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::quantizers {

/// The quantized tensor and the scale that maps the input onto it (q = round(x * scale)).
struct Quantized {
  /// The quantized values, in the requested dtype (int8 by default).
  Tensor values;
  /// The scale, with the reduced axes kept (dequantize with values / scale).
  Tensor scale;
};

/// keras.quantizers.abs_max_quantize: scale = value_range[1] / (max|x| over `axis` + epsilon)
/// (kept dims, x's dtype), values = clip(round(x * scale), value_range) cast to `dtype`
/// (round: half to even, as NumPy and JAX).
Quantized abs_max_quantize(const Tensor& x, const ops::Axes& axis,
                           std::pair<double, double> value_range = {-127, 127},
                           DType dtype = DType::Int8, double epsilon = 1e-7);

/// keras.quantizers.AbsMaxQuantizer.
struct AbsMaxQuantizer {
  /// Unset: the axis the caller passes (Keras's deprecated constructor axis).
  std::optional<std::vector<int>> axis;
  /// The range quantized values are clipped to (Keras's `value_range`).
  std::pair<double, double> value_range{-127, 127};
  /// Added to max|x| so an all-zero slice gets a finite scale (Keras's `epsilon`).
  double epsilon = 1e-7;
  /// The dtype of the quantized values (Keras's `output_dtype`); deserialize() accepts only int8.
  DType output_dtype = DType::Int8;

  /// Quantizes x along `axis`; without one, along the quantizer's own axis, else the last.
  Quantized operator()(const Tensor& x, std::optional<ops::Axes> axis = std::nullopt) const;
  /// The serialized object {"module": "keras.quantizers", "class_name": "AbsMaxQuantizer", ...}.
  Config serialize() const;
  /// ValueError for another class or an output dtype other than int8.
  static AbsMaxQuantizer deserialize(const Config& config);
};

/// keras.quantizers.QuantizationConfig and its Int8/Int4/Float8 subclasses.
struct QuantizationConfig {
  /// "int8", "int4" or "float8".
  std::string mode;
  /// How the weights are quantized (Keras's `weight_quantizer`); unset: the mode's default.
  std::optional<AbsMaxQuantizer> weight_quantizer;
  /// Int8QuantizationConfig's default is AbsMaxQuantizer(); int4's and float8's is none.
  std::optional<AbsMaxQuantizer> activation_quantizer;
  /// int4 only: the group size along the input axis; -1 or unset: one scale per output channel.
  std::optional<int64_t> block_size;

  /// Keras's default config of `mode` (validate_and_resolve_config with config=None).
  static QuantizationConfig default_for(const std::string& mode);
  /// The serialized object Keras writes as a layer's "quantization_config".
  Config serialize() const;
  /// The config a serialized one describes; null gives nullptr.
  static std::shared_ptr<const QuantizationConfig> deserialize(const Config& config);
};

/// A shared, immutable QuantizationConfig; null stands for the mode's default.
using QuantizationConfigPtr = std::shared_ptr<const QuantizationConfig>;

/// The quantization modes Keras 3.15 has (dtype_policies.QUANTIZATION_MODES).
const std::vector<std::string>& quantization_modes();

}  // namespace keras::quantizers

#pragma GCC visibility pop

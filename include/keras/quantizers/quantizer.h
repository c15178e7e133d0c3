#pragma once
// keras.quantizers.Quantizer (the base class of quantizer objects), keras.quantizers.get and
// keras.quantizers.fake_quant_with_min_max_vars (keras/src/quantizers/__init__.py and
// quantizers.py of Keras 3.15).
//
//   auto q = quantizers::get(Config("abs_max_quantizer"));          // a quantizer object
//   TensorList out = (*q)(x);                                         // {values, scale}
//   Tensor y = quantizers::fake_quant_with_min_max_vars(x, lo, hi);  // trainable lo and hi

#include <memory>
#include <optional>
#include <string>

#include "keras/core/json.h"
#include "keras/quantizers/quantizers.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::quantizers {

/// keras.quantizers.Quantizer: a callable that quantizes a tensor. The base returns its input
/// unchanged and has no get_config (NotImplementedError, as in Keras).
class Quantizer {
 public:
  /// `output_dtype`: a dtype name ("int8" by default); ValueError for an unknown one.
  explicit Quantizer(std::string output_dtype = "int8");
  virtual ~Quantizer() = default;

  /// The dtype name of the quantized values (Keras's `output_dtype`).
  const std::string& output_dtype() const { return output_dtype_; }
  /// Keras's __call__: the base gives {x}; AbsMaxQuantizerObject gives {values, scale}.
  virtual TensorList operator()(const Tensor& x) const;
  /// The serialized class name ("Quantizer", "AbsMaxQuantizer").
  virtual std::string class_name() const { return "Quantizer"; }
  /// The constructor arguments; the base class raises NotImplementedError.
  virtual Config get_config() const;
  /// {"module": "keras.quantizers", "class_name", "config": get_config(), "registered_name": null}.
  Config serialize() const;

 private:
  std::string output_dtype_;
};

/// keras.quantizers.AbsMaxQuantizer as a Quantizer object (what get() returns for it); the
/// AbsMaxQuantizer options struct in quantizers.h is what layers and configs hold.
class AbsMaxQuantizerObject : public Quantizer {
 public:
  /// Wraps the options of `quantizer` (axis, value_range, epsilon, output_dtype).
  explicit AbsMaxQuantizerObject(AbsMaxQuantizer quantizer = {});
  /// {values, scale} (AbsMaxQuantizer::operator()).
  TensorList operator()(const Tensor& x) const override;
  std::string class_name() const override { return "AbsMaxQuantizer"; }
  /// Keras's config: axis, value_range, epsilon, output_dtype.
  Config get_config() const override;
  /// The quantizer's options.
  const AbsMaxQuantizer& quantizer() const { return quantizer_; }

 private:
  AbsMaxQuantizer quantizer_;
};

/// A shared, immutable Quantizer (what get() returns).
using QuantizerPtr = std::shared_ptr<const Quantizer>;

/// keras.quantizers.get: null gives null; a class name or its snake case ("Quantizer",
/// "abs_max_quantizer") a default instance; a serialized Quantizer or AbsMaxQuantizer the
/// object. ValueError "Could not interpret quantizer identifier" otherwise, quantization configs
/// included: Keras's get() refuses their records (a config is not callable) and fails on their
/// names (it passes the empty keyword dict as the first argument); use
/// QuantizationConfig::deserialize for those.
QuantizerPtr get(const Config& identifier);
/// keras.quantizers.serialize for a quantizer object.
Config serialize(const Quantizer& quantizer);
/// keras.quantizers.deserialize: the quantizer a serialized Quantizer or AbsMaxQuantizer is.
QuantizerPtr deserialize(const Config& config);

/// keras.quantizers.fake_quant_with_min_max_vars: `inputs` clamped to [min_vals, max_vals]
/// (after nudging the range so that 0 is exactly representable), quantized to 2^num_bits
/// levels ([1, 2^num_bits - 1] with narrow_range) and dequantized, in the inputs' dtype.
/// Per tensor (`axis` unset; scalar min and max) or per channel along `axis` (min and max of
/// that axis's length, broadcast against the inputs as Keras does, so the channel axis is the
/// last one in practice). The gradient is Keras's custom one (its JAX/torch path): the
/// upstream gradient passes to the inputs inside the nudged range and is summed into min_vals
/// (inputs <= nudged min) and max_vals (inputs >= nudged max).
Tensor fake_quant_with_min_max_vars(const Tensor& inputs, const Tensor& min_vals,
                                    const Tensor& max_vals, int num_bits = 8,
                                    bool narrow_range = false,
                                    std::optional<int> axis = std::nullopt);

}  // namespace keras::quantizers

#pragma GCC visibility pop

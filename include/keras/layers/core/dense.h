#pragma once
// keras.layers.Dense: activation(inputs @ kernel + bias), kernel of shape (input_dim, units).
// LoRA: enable_lora (keras/layers/core/lora.h). Quantization: quantize("int8") and the
// "int8_from_<policy>" dtype policies (src/layers/quantization/dense_quantized.cpp), int4
// (src/layers/quantization/dense_int4.cpp).

#include "keras/layers/core/lora.h"
#include "keras/layers/options.h"
#include "keras/quantizers/float8.h"

namespace keras::layers {

struct DenseOptions {
  activations::Activation activation;
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg bias_constraint;
  /// > 0: LoRA of this rank is enabled when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  std::optional<Scalar> lora_alpha;
  /// Keras's quantization_config (keras.quantizers): how quantize() or a quantized dtype
  /// policy ("int8_from_float32") quantizes the kernel and the inputs; null: the mode's default.
  quantizers::QuantizationConfigPtr quantization_config;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Dense layer (Keras's "Dense").
class DenseLayer : public LoraLayer {
 public:
  DenseLayer(int64_t units, DenseOptions options = {});
  std::string class_name() const override { return "Dense"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t units() const { return units_; }
  /// Keras's kernel property: the kernel variable's value (int8: the int values; int4: the
  /// unpacked int values, (input_dim, units)), with the LoRA update added (and the sum cast to
  /// the compute dtype) when LoRA is enabled.
  Tensor kernel() const {
    return lora_merged(quantization_mode() == "int4" ? int4_kernel() : kernel_.value());
  }
  /// The stored kernel (Keras's _kernel), frozen while LoRA is enabled.
  const Variable& kernel_variable() const { return kernel_; }
  const Variable& bias() const { return bias_; }
  /// The LoRA adapters (undefined until enable_lora).
  const Variable& lora_kernel_a() const { return lora_a(); }
  const Variable& lora_kernel_b() const { return lora_b(); }
  /// int8: the per-unit scale of the int8 kernel (float kernel = kernel / kernel_scale).
  const Variable& kernel_scale() const { return kernel_scale_; }
  /// int4 with blocks (sub-channel): the zero point per group and unit, and each input's group
  /// (Keras's kernel_zero, g_idx); undefined otherwise.
  const Variable& kernel_zero() const { return kernel_zero_; }
  const Variable& g_idx() const { return g_idx_; }
  /// Keras's variable_serialization_spec: kernel, bias, then the quantization variables of
  /// the mode (a quantized layer builds them in another order).
  std::vector<Variable> variables_to_load() const override;

 protected:
  LoraTarget lora_target() const override;
  std::vector<std::pair<Variable, Tensor>> lora_requantized() const override;
  void quantize_weights(const std::string& mode,
                        const quantizers::QuantizationConfigPtr& config) override;

 private:
  // Quantized modes (src/layers/quantization/dense_quantized.cpp).
  void quantized_build(const Shape& kernel_shape);
  Tensor quantized_call(const Tensor& inputs);
  /// int8 and int4: the float kernel the quantized one stands for, (input_dim, units), in the
  /// compute dtype (what the inputs' gradient goes through).
  Tensor dequantized_kernel() const;
  /// The LoRA term (if enabled), the bias and the activation after a quantized product.
  Tensor quantized_output(Tensor y, const Tensor& x) const;
  // int4 (src/layers/quantization/dense_int4.cpp).
  void int4_build(const Shape& kernel_shape);
  Tensor int4_call(const Tensor& inputs);
  void int4_quantize(const quantizers::QuantizationConfigPtr& config);
  Tensor int4_kernel() const;
  // float8 (src/layers/quantization/dense_float8.cpp): the float kernel plus these.
  Tensor float8_call(const Tensor& inputs, bool training);
  void float8_quantize(const quantizers::QuantizationConfigPtr& config);
  quantizers::Float8Variables float8_;

  int64_t units_;
  DenseOptions options_;
  Variable kernel_, bias_;
  Variable kernel_scale_;
  Variable kernel_zero_, g_idx_;
};

/// A densely connected layer of `units` outputs.
LayerPtr<DenseLayer> Dense(int64_t units, DenseOptions options = {});

}  // namespace keras::layers

#pragma once
// keras.layers.Dense: activation(inputs @ kernel + bias), kernel of shape (input_dim, units).
// LoRA: enable_lora (keras/layers/core/lora.h). Quantization: quantize("int8") and the
// "int8_from_<policy>" dtype policies (src/layers/quantization/dense_quantized.cpp), int4
// (src/layers/quantization/dense_int4.cpp), GPTQ and AWQ (keras/quantizers/gptq_config.h,
// src/layers/quantization/dense_calibrated.cpp).

#include "keras/layers/core/lora.h"
#include "keras/layers/options.h"
#include "keras/quantizers/float8.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Dense's arguments besides `units`.
struct DenseOptions {
  /// Applied to the output (Keras's `activation`); unset: none (linear, `a(x) = x`).
  activations::Activation activation;
  /// Whether the layer adds a bias vector (Keras's `use_bias`).
  bool use_bias = true;
  /// Initializer of the `kernel` matrix (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of the bias vector (Keras's `bias_initializer`).
  initializers::InitializerArg bias_initializer = "zeros";
  /// Regularizer applied to the `kernel` matrix (Keras's `kernel_regularizer`); null for none.
  regularizers::RegularizerArg kernel_regularizer;
  /// Regularizer applied to the bias vector (Keras's `bias_regularizer`); null for none.
  regularizers::RegularizerArg bias_regularizer;
  /// Regularizer applied to the layer's output (Keras's `activity_regularizer`); null for none.
  regularizers::RegularizerArg activity_regularizer;
  /// Constraint applied to the `kernel` matrix after each update (Keras's `kernel_constraint`).
  constraints::ConstraintArg kernel_constraint;
  /// Constraint applied to the bias vector after each update (Keras's `bias_constraint`).
  constraints::ConstraintArg bias_constraint;
  /// > 0: LoRA of this rank is enabled when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  /// Keras's `lora_alpha`; as in Keras, build() enables LoRA without it, so the update's scale
  /// is 1 (pass lora_alpha to enable_lora() to scale it).
  std::optional<Scalar> lora_alpha;
  /// Keras's quantization_config (keras.quantizers): how quantize() or a quantized dtype
  /// policy ("int8_from_float32") quantizes the kernel and the inputs; null: the mode's default.
  quantizers::QuantizationConfigPtr quantization_config;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Dense layer (Keras's "Dense").
class DenseLayer : public LoraLayer {
 public:
  /// keras.layers.Dense with `units` outputs (the output dimension, Keras's `units`).
  DenseLayer(int64_t units, DenseOptions options = {});
  std::string class_name() const override { return "Dense"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The output dimension (Keras's `units`).
  int64_t units() const { return units_; }
  /// Keras's kernel property: the kernel variable's value (int8: the int values; int4: the
  /// unpacked int values, (input_dim, units)), with the LoRA update added (and the sum cast to
  /// the compute dtype) when LoRA is enabled.
  /// GPTQ/AWQ: the float kernel until calibrated, then the unpacked integer values in Keras's
  /// (units, input_dim) layout.
  Tensor kernel() const;
  /// The stored kernel (Keras's _kernel), frozen while LoRA is enabled; a calibrated GPTQ/AWQ
  /// layer's packed uint8 kernel (Keras's quantized_kernel).
  const Variable& kernel_variable() const { return kernel_; }
  /// The bias vector, (units,); undefined without `use_bias`.
  const Variable& bias() const { return bias_; }
  /// The LoRA adapters (undefined until enable_lora).
  const Variable& lora_kernel_a() const { return lora_a(); }
  /// The second LoRA adapter, B, (rank, units); the kernel's update is A @ B, scaled.
  const Variable& lora_kernel_b() const { return lora_b(); }
  /// int8: the per-unit scale of the int8 kernel (float kernel = kernel / kernel_scale).
  const Variable& kernel_scale() const { return kernel_scale_; }
  /// int4 with blocks (sub-channel): the zero point per group and unit, and each input's group
  /// (Keras's kernel_zero, g_idx); undefined otherwise.
  const Variable& kernel_zero() const { return kernel_zero_; }
  /// int4 with blocks: each input's group index (Keras's `g_idx`); undefined otherwise.
  const Variable& g_idx() const { return g_idx_; }
  /// GPTQ and AWQ ("gptq"/"awq" modes, set by Model::quantize with a GPTQConfig/AWQConfig):
  /// whether calibration has replaced the float kernel (a layer loaded from a file is).
  bool is_calibrated() const { return calibrated_; }
  /// AWQ: the per-input scales the kernel was multiplied by before quantization.
  const Variable& awq_scales() const { return awq_scales_; }
  /// GPTQ/AWQ calibration's result for this layer, all in Keras's layout: `quantized` the
  /// integer values (units, input_dim) in [0, 2^bits - 1] (uint8; packed here when 4-bit),
  /// `scale` and `zero` (units, groups), `g_idx` (input_dim,) each input's group, and for AWQ
  /// `awq_scales` (input_dim,). The float kernel is dropped (Keras's `del self._kernel`).
  void set_calibrated_kernel(const Tensor& quantized, const Tensor& scale, const Tensor& zero,
                             const Tensor& g_idx, const Tensor& awq_scales = {});
  /// Keras's variable_serialization_spec: kernel, bias, then the quantization variables of
  /// the mode (a quantized layer builds them in another order).
  std::vector<Variable> variables_to_load() const override;
  /// GPTQ/AWQ: a layer never calibrated (outside every block) is written with its float
  /// kernel rounded to the nearest level (Keras 3.15 writes zeros there).
  std::vector<Variable> variables_to_save() const override;
  /// GPTQ/AWQ: a loaded layer is calibrated (as Keras's load_own_variables marks it).
  void variables_loaded() override;

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
  // GPTQ and AWQ (src/layers/quantization/dense_calibrated.cpp): the float kernel serves calls
  // until set_calibrated_kernel installs the quantized one.
  void calibrated_build(const Shape& kernel_shape);
  Tensor calibrated_call(const Tensor& inputs);
  /// The calibrated kernel dequantized, (input_dim, units), in the compute dtype.
  Tensor calibrated_dequantized_kernel() const;
  Variable quantized_kernel_, awq_scales_;
  bool calibrated_ = false;

  int64_t units_;
  DenseOptions options_;
  Variable kernel_, bias_;
  Variable kernel_scale_;
  Variable kernel_zero_, g_idx_;
};

/// A densely connected layer of `units` outputs.
LayerPtr<DenseLayer> Dense(int64_t units, DenseOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

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
  /// GPTQ/AWQ: the float kernel until calibrated, then the unpacked integer values in Keras's
  /// (units, input_dim) layout.
  Tensor kernel() const;
  /// The stored kernel (Keras's _kernel), frozen while LoRA is enabled; a calibrated GPTQ/AWQ
  /// layer's packed uint8 kernel (Keras's quantized_kernel).
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

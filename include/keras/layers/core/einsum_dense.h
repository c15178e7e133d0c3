#pragma once
// keras.layers.EinsumDense: activation(einsum(equation, inputs, kernel) + bias), the kernel's
// shape read from the equation, the input shape and `output_shape`.
//
//   auto layer = layers::EinsumDense("abc,cd->abd", {layers::kNone, 64}, {.bias_axes = "d"});
//
// LoRA: enable_lora (keras/layers/core/lora.h). Quantization: quantize("int8") and the
// "int8_from_<policy>" dtype policies (src/layers/quantization/einsum_dense_quantized.cpp),
// int4 (src/layers/quantization/einsum_dense_int4.cpp), GPTQ and AWQ
// (src/layers/quantization/einsum_dense_calibrated.cpp).

#include <string>
#include <vector>

#include "keras/layers/core/lora.h"
#include "keras/quantizers/float8.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// An unknown dimension in a layer argument that is a shape (Keras's None).
inline constexpr int64_t kNone = -1;

/// keras.layers.EinsumDense's arguments besides `equation` and `output_shape`.
struct EinsumDenseOptions {
  /// Applied to the output (Keras's `activation`); unset: none (linear).
  activations::Activation activation;
  /// The output labels that get a bias ("" for no bias, Keras's None).
  std::string bias_axes;
  /// Initializer of the `kernel` (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of the bias (Keras's `bias_initializer`).
  initializers::InitializerArg bias_initializer = "zeros";
  /// Regularizer applied to the `kernel` (Keras's `kernel_regularizer`); null for none.
  regularizers::RegularizerArg kernel_regularizer;
  /// Regularizer applied to the bias (Keras's `bias_regularizer`); null for none.
  regularizers::RegularizerArg bias_regularizer;
  /// Regularizer applied to the layer's output (Keras's `activity_regularizer`); null for none.
  regularizers::RegularizerArg activity_regularizer;
  /// Constraint applied to the `kernel` after each update (Keras's `kernel_constraint`).
  constraints::ConstraintArg kernel_constraint;
  /// Constraint applied to the bias after each update (Keras's `bias_constraint`).
  constraints::ConstraintArg bias_constraint;
  /// > 0: LoRA of this rank is enabled when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  /// Keras's `lora_alpha`: the LoRA update is scaled by `lora_alpha / lora_rank`; unset:
  /// `lora_rank` (a scale of 1).
  std::optional<Scalar> lora_alpha;
  /// Keras's quantization_config (see DenseOptions).
  quantizers::QuantizationConfigPtr quantization_config;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The EinsumDense layer (Keras's "EinsumDense").
class EinsumDenseLayer : public LoraLayer {
 public:
  /// `output_shape` excludes the batch axis and any axes the equation's "..." stands for;
  /// kNone marks a dimension taken from the input.
  EinsumDenseLayer(std::string equation, std::vector<int64_t> output_shape,
                   EinsumDenseOptions options = {});
  std::string class_name() const override { return "EinsumDense"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The einsum equation, "inputs,kernel->output" (Keras's `equation`).
  const std::string& equation() const { return equation_; }
  /// The output shape with the batch axis (-1 where unknown), known once built.
  const Shape& full_output_shape() const { return full_output_shape_; }
  /// Keras's kernel property: the kernel variable's value (int8: the int values; int4: the
  /// unpacked int values in the kernel's shape), with the LoRA update added (and the sum cast
  /// to the compute dtype) when LoRA is enabled.
  /// GPTQ/AWQ: the float kernel until calibrated, then the unpacked integer values in Keras's
  /// (columns, rows) layout (see calibration_kernel).
  Tensor kernel() const;
  /// The stored kernel (Keras's _kernel), frozen while LoRA is enabled; a calibrated GPTQ/AWQ
  /// layer's packed uint8 kernel (Keras's quantized_kernel).
  const Variable& kernel_variable() const { return kernel_; }
  /// Undefined when bias_axes is empty.
  const Variable& bias() const { return bias_; }
  /// The LoRA adapters (undefined until enable_lora).
  const Variable& lora_kernel_a() const { return lora_a(); }
  /// The second LoRA adapter, B (undefined until enable_lora).
  const Variable& lora_kernel_b() const { return lora_b(); }
  /// int8: the kernel's scale, laid out to broadcast against the output (Keras's layout).
  const Variable& kernel_scale() const { return kernel_scale_; }
  /// int4 with blocks: the zero points and each kernel row's group (see DenseLayer).
  const Variable& kernel_zero() const { return kernel_zero_; }
  /// int4 with blocks: each kernel row's group index (Keras's `g_idx`); undefined otherwise.
  const Variable& g_idx() const { return g_idx_; }
  /// Keras's variable_serialization_spec: kernel, bias, then the quantization variables.
  std::vector<Variable> variables_to_load() const override;
  /// GPTQ/AWQ: a layer never calibrated is written rounded to the nearest level (see
  /// DenseLayer::variables_to_save).
  std::vector<Variable> variables_to_save() const override;
  /// GPTQ/AWQ: a loaded layer is calibrated.
  void variables_loaded() override;
  /// GPTQ and AWQ (see DenseLayer): whether calibration has replaced the float kernel.
  bool is_calibrated() const { return calibrated_; }
  /// AWQ: the per-row scales the kernel was multiplied by before quantization.
  const Variable& awq_scales() const { return awq_scales_; }
  /// The float kernel as the (rows, columns) matrix GPTQ/AWQ quantize: a 2-d kernel as it is;
  /// a 3-d one, Keras's way, (in, heads * head_dim) when its first axis is the largest (a
  /// query/key/value projection), else (heads * head_dim, out) (an attention output).
  Tensor calibration_kernel() const;
  /// Calibration's result in Keras's layout: `quantized` (columns, rows) levels, `scale` and
  /// `zero` (columns, groups), `g_idx` (rows,), `awq_scales` (rows,) for AWQ.
  void set_calibrated_kernel(const Tensor& quantized, const Tensor& scale, const Tensor& zero,
                             const Tensor& g_idx, const Tensor& awq_scales = {});

 protected:
  LoraTarget lora_target() const override;
  std::vector<std::pair<Variable, Tensor>> lora_requantized() const override;
  void quantize_weights(const std::string& mode,
                        const quantizers::QuantizationConfigPtr& config) override;

 private:
  // Quantized modes (src/layers/quantization/einsum_dense_quantized.cpp).
  void quantized_build(const Shape& kernel_shape);
  Tensor quantized_call(const Tensor& inputs);
  /// The LoRA term (if enabled), the bias and the activation after a quantized einsum.
  Tensor quantized_output(Tensor y, const Tensor& x) const;
  Variable kernel_scale_;
  // int4 (src/layers/quantization/einsum_dense_int4.cpp): the kernel is stored flattened to
  // (reduced, other) axes and packed; int4_kernel_shape_ is its float shape.
  void int4_build(const Shape& kernel_shape);
  Tensor int4_call(const Tensor& inputs);
  void int4_quantize(const quantizers::QuantizationConfigPtr& config);
  Tensor int4_kernel() const;
  /// The int4 kernel dequantized, in its float shape and the compute dtype.
  Tensor int4_dequantized_kernel() const;
  std::vector<std::pair<Variable, Tensor>> int4_lora_requantized() const;
  Variable kernel_zero_, g_idx_;
  Shape int4_kernel_shape_;
  // float8 (src/layers/quantization/einsum_dense_float8.cpp): the float kernel plus these.
  Tensor float8_call(const Tensor& inputs, bool training);
  void float8_quantize(const quantizers::QuantizationConfigPtr& config);
  quantizers::Float8Variables float8_;
  // GPTQ and AWQ (src/layers/quantization/einsum_dense_calibrated.cpp).
  void calibrated_build(const Shape& kernel_shape);
  Tensor calibrated_call(const Tensor& inputs);
  /// The calibrated kernel dequantized, in the kernel's shape and the compute dtype.
  Tensor calibrated_dequantized_kernel() const;
  Variable quantized_kernel_, awq_scales_;
  bool calibrated_ = false;
  // The float kernel's shape, and the columns of its (rows, columns) form (Keras's
  // gptq_unpacked_column_size / awq_unpacked_column_size).
  Shape calibrated_kernel_shape_;
  int64_t calibrated_columns_ = 0;

  std::string equation_;
  std::vector<int64_t> partial_output_shape_;
  EinsumDenseOptions options_;
  Shape full_output_shape_;
  int input_rank_ = -1;
  Variable kernel_, bias_;
};

/// A layer computing einsum(equation, inputs, kernel) (+ bias over `bias_axes`).
LayerPtr<EinsumDenseLayer> EinsumDense(std::string equation, std::vector<int64_t> output_shape,
                                       EinsumDenseOptions options = {});
/// EinsumDense with a one-dimensional output_shape.
LayerPtr<EinsumDenseLayer> EinsumDense(std::string equation, int64_t output_shape,
                                       EinsumDenseOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

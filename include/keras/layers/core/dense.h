#pragma once
// keras.layers.Dense: activation(inputs @ kernel + bias), kernel of shape (input_dim, units).

#include "keras/layers/core/lora.h"
#include "keras/layers/options.h"

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
  /// Keras's kernel property: the kernel variable's value, with the LoRA update merged in when
  /// LoRA is enabled.
  Tensor kernel() const { return lora_merged(kernel_); }
  /// The stored kernel (Keras's _kernel), frozen while LoRA is enabled.
  const Variable& kernel_variable() const { return kernel_; }
  const Variable& bias() const { return bias_; }
  /// The LoRA adapters (undefined until enable_lora).
  const Variable& lora_kernel_a() const { return lora_a(); }
  const Variable& lora_kernel_b() const { return lora_b(); }

 protected:
  LoraTarget lora_target() const override;

 private:
  int64_t units_;
  DenseOptions options_;
  Variable kernel_, bias_;
};

/// A densely connected layer of `units` outputs.
LayerPtr<DenseLayer> Dense(int64_t units, DenseOptions options = {});

}  // namespace keras::layers

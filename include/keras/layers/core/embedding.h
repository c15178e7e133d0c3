#pragma once
// keras.layers.Embedding: integer ids -> rows of an (input_dim, output_dim) table.
//
//   auto embed = layers::Embedding(1000, 64, {.mask_zero = true});
//   Tensor y = embed(ids);   // ids (batch, length) -> (batch, length, 64); mask = ids != 0
//
// LoRA: enable_lora (keras/layers/core/lora.h) adapts the table. Quantization: quantize("int8")
// and the "int8_from_<policy>" dtype policies: an int8 table and a scale per row
// (src/layers/quantization/embedding_quantized.cpp); int4: two values of a row per byte
// (src/layers/quantization/embedding_int4.cpp).

#include "keras/layers/core/lora.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {
namespace detail {
struct RequantizedKernel;  // src/layers/quantization/lora_requantize.h
}  // namespace detail

/// keras.layers.Embedding's arguments besides `input_dim` and `output_dim`.
struct EmbeddingOptions {
  /// Keras's "uniform": RandomUniform(-0.05, 0.05).
  initializers::InitializerArg embeddings_initializer = "uniform";
  /// Regularizer applied to the `embeddings` table (Keras's `embeddings_regularizer`); null for
  /// none.
  regularizers::RegularizerArg embeddings_regularizer;
  /// Regularizer applied to the layer's output (Keras's `activity_regularizer`); null for none.
  regularizers::RegularizerArg activity_regularizer;
  /// Constraint applied to the `embeddings` table after each update (Keras's
  /// `embeddings_constraint`).
  constraints::ConstraintArg embeddings_constraint;
  /// Id 0 is padding: the output mask is ids != 0 (so input_dim counts the padding id).
  bool mask_zero = false;
  /// Initial table of shape (input_dim, output_dim); the layer is built at construction.
  Tensor weights;
  /// > 0: LoRA of this rank is enabled when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  /// Keras's `lora_alpha`; as in Keras, build() enables LoRA without it, so the update's scale is 1
  /// (pass lora_alpha to enable_lora() to scale it).
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

/// The Embedding layer (Keras's "Embedding").
class EmbeddingLayer : public LoraLayer {
 public:
  /// keras.layers.Embedding: a table of `input_dim` vectors of size `output_dim`.
  EmbeddingLayer(int64_t input_dim, int64_t output_dim, EmbeddingOptions options = {});
  std::string class_name() const override { return "Embedding"; }
  void build(const Shape& input_shape) override;
  /// Ids of any integer dtype (others are cast to int32, as Keras); every id must lie in
  /// [0, input_dim), else ValueError.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// ids != 0 with mask_zero, else none.
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The vocabulary size, the largest id plus 1 (Keras's `input_dim`).
  int64_t input_dim() const { return input_dim_; }
  /// The size of each embedding vector (Keras's `output_dim`).
  int64_t output_dim() const { return output_dim_; }
  /// Whether id 0 is padding and masked out (Keras's `mask_zero`).
  bool mask_zero() const { return options_.mask_zero; }
  /// Keras's embeddings property: the table's value (int8: the int values; int4: unpacked),
  /// with the LoRA update added (and the sum cast to the compute dtype) when LoRA is enabled.
  Tensor embeddings() const {
    return lora_merged(quantization_mode() == "int4" ? int4_embeddings() : embeddings_.value());
  }
  /// The stored table (Keras's _embeddings), frozen while LoRA is enabled.
  const Variable& embeddings_variable() const { return embeddings_; }
  /// The LoRA adapters (undefined until enable_lora).
  const Variable& lora_embeddings_a() const { return lora_a(); }
  /// The second LoRA adapter, B, (rank, output_dim) (undefined until enable_lora).
  const Variable& lora_embeddings_b() const { return lora_b(); }
  /// int8: the scale of each row of the int8 table (float row = row / embeddings_scale).
  const Variable& embeddings_scale() const { return embeddings_scale_; }
  /// int4 with blocks: the zero point per row and group, and each column's group (Keras's
  /// embeddings_zero, g_idx); undefined otherwise.
  const Variable& embeddings_zero() const { return embeddings_zero_; }
  /// int4 with blocks: each column's group index (Keras's `g_idx`); undefined otherwise.
  const Variable& g_idx() const { return g_idx_; }

 protected:
  LoraTarget lora_target() const override;
  std::vector<std::pair<Variable, Tensor>> lora_requantized() const override;
  void quantize_weights(const std::string& mode,
                        const quantizers::QuantizationConfigPtr& config) override;

 private:
  /// The rows of `table` at `ids`: shape ids.shape() + the table's trailing axes.
  Tensor lookup(Tensor table, const Tensor& ids) const;
  // Quantized modes (src/layers/quantization/embedding_quantized.cpp).
  void quantized_build();
  Tensor quantized_call(const Tensor& ids);
  // int4 (src/layers/quantization/embedding_int4.cpp).
  void int4_build();
  Tensor int4_call(const Tensor& ids);
  void int4_quantize(const quantizers::QuantizationConfigPtr& config);
  Tensor int4_embeddings() const;
  /// int8 and int4: the float table the quantized one stands for, in the compute dtype.
  Tensor dequantized_embeddings() const;
  /// rows plus the LoRA term of these ids (when enabled), as Keras's quantized calls.
  Tensor with_lora_rows(const Tensor& rows, const Tensor& ids) const;
  /// The table quantized with one scale per row (int8; int4 per channel, packed) or in groups
  /// of `block_size` columns with zero points (int4); `weight_quantizer` replaces the per-row
  /// default (a config's).
  static detail::RequantizedKernel quantize_table(
      const Tensor& table, const std::string& mode, int64_t block_size,
      const std::optional<quantizers::AbsMaxQuantizer>& weight_quantizer);

  int64_t input_dim_, output_dim_;
  EmbeddingOptions options_;
  Variable embeddings_;
  Variable embeddings_scale_;
  Variable embeddings_zero_, g_idx_;
};

/// A lookup table of `input_dim` vectors of size `output_dim`.
LayerPtr<EmbeddingLayer> Embedding(int64_t input_dim, int64_t output_dim,
                                   EmbeddingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

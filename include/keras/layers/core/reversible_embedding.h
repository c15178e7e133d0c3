#pragma once
// keras.layers.ReversibleEmbedding (keras/src/layers/core/reversible_embedding.py): an
// Embedding that can also project hidden states back onto the vocabulary, with the transposed
// table (tied weights, the default) or a separate (output_dim, input_dim) matrix.
//
//   auto embed = layers::ReversibleEmbedding(100, 32);
//   Tensor h = embed(ids);               // (batch, length) -> (batch, length, 32)
//   Tensor logits = embed->reverse(h);   // Keras's embed(h, reverse=True): (batch, length, 100)
//
// Saved weights: "embeddings", then "reverse_embeddings" when untied (Keras's
// variable_serialization_spec). quantize("int8") quantizes both (the reverse matrix with one
// scale per vocabulary entry); int4 is not implemented for this layer yet.

#include <optional>
#include <string>

#include "keras/layers/core/embedding.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// ReversibleEmbedding's arguments: Embedding's, then tie_weights, reverse_dtype and
/// logit_soft_cap, with Keras's defaults.
struct ReversibleEmbeddingOptions {
  /// The reverse projection uses transpose(embeddings); false: its own "reverse_embeddings"
  /// weight of shape (output_dim, input_dim), initialized like the table.
  bool tie_weights = true;
  /// Initializer of the `embeddings` table (Keras's `embeddings_initializer`; "uniform" is
  /// RandomUniform(-0.05, 0.05)).
  initializers::InitializerArg embeddings_initializer = "uniform";
  /// Regularizer applied to the `embeddings` table (Keras's `embeddings_regularizer`); null for
  /// none.
  regularizers::RegularizerArg embeddings_regularizer;
  /// Regularizer applied to the layer's output (Keras's `activity_regularizer`); null for none.
  regularizers::RegularizerArg activity_regularizer;
  /// Constraint applied to the `embeddings` table after each update (Keras's
  /// `embeddings_constraint`).
  constraints::ConstraintArg embeddings_constraint;
  /// Id 0 is padding: the forward output's mask is ids != 0 (Keras's `mask_zero`).
  bool mask_zero = false;
  /// The dtype of the reverse matmul (inputs and kernel cast to it); empty: no cast.
  std::string reverse_dtype;
  /// When set, reverse logits become tanh(logits / cap) * cap.
  std::optional<double> logit_soft_cap;
  /// > 0: LoRA of this rank is enabled on the table when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  /// Keras's `lora_alpha` (see EmbeddingOptions::lora_alpha).
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

/// The ReversibleEmbedding layer (Keras's "ReversibleEmbedding").
class ReversibleEmbeddingLayer : public EmbeddingLayer {
 public:
  /// keras.layers.ReversibleEmbedding: an Embedding of `input_dim` vectors of size `output_dim`
  /// that can also project back to `input_dim` logits (see reverse()).
  ReversibleEmbeddingLayer(int64_t input_dim, int64_t output_dim,
                           ReversibleEmbeddingOptions options = {});
  std::string class_name() const override { return "ReversibleEmbedding"; }
  void build(const Shape& input_shape) override;
  /// The embedding lookup, or the reverse projection inside reverse().
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// None: Keras attaches the forward mask in call() and disables compute_mask; keras-cpp's
  /// forward mask is Embedding's (ids != 0 with mask_zero), the reverse call has none.
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  /// Embedding's config plus tie_weights, reverse_dtype, logit_soft_cap.
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's layer(inputs, reverse=True): (..., output_dim) -> (..., input_dim) logits,
  /// inputs @ transpose(embeddings) (or @ reverse_embeddings), soft-capped when asked. A layer
  /// call (builds the layer, records gradients). Eager only: a Functional graph cannot record
  /// reverse=True yet (NotImplementedError for a symbolic tensor).
  Tensor reverse(const Tensor& inputs);
  /// reverse() on a symbolic tensor: NotImplementedError (a Functional graph cannot record
  /// reverse=True yet).
  KerasTensor reverse(const KerasTensor& inputs);

  /// Whether the reverse projection uses transpose(embeddings) (Keras's `tie_weights`).
  bool tie_weights() const { return options_.tie_weights; }
  /// The dtype of the reverse matmul (Keras's `reverse_dtype`); empty: no cast.
  const std::string& reverse_dtype() const { return options_.reverse_dtype; }
  /// The soft cap of the reverse logits, tanh(logits / cap) * cap (Keras's `logit_soft_cap`);
  /// unset: none.
  const std::optional<double>& logit_soft_cap() const { return options_.logit_soft_cap; }
  /// The untied reverse matrix (int8 once quantized); undefined with tie_weights.
  const Variable& reverse_embeddings() const { return reverse_embeddings_; }
  /// int8: the scale of each column of the int8 reverse matrix; undefined otherwise.
  const Variable& reverse_embeddings_scale() const { return reverse_embeddings_scale_; }

 protected:
  /// int8 (both matrices); int4: NotImplementedError.
  void quantize_weights(const std::string& mode,
                        const quantizers::QuantizationConfigPtr& config) override;

 private:
  Tensor reverse_call(const Tensor& inputs) const;
  Tensor int8_reverse_call(const Tensor& inputs) const;
  Tensor soft_cap(const Tensor& logits) const;
  /// Adds the untied reverse weights of the current mode.
  void build_reverse();

  ReversibleEmbeddingOptions options_;
  Variable reverse_embeddings_, reverse_embeddings_scale_;
  quantizers::QuantizationConfigPtr quantized_with_;  // set by quantize()
};

/// keras.layers.ReversibleEmbedding(input_dim, output_dim, ...).
LayerPtr<ReversibleEmbeddingLayer> ReversibleEmbedding(int64_t input_dim, int64_t output_dim,
                                                       ReversibleEmbeddingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

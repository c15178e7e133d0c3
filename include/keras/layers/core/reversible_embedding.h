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
  initializers::InitializerArg embeddings_initializer = "uniform";
  regularizers::RegularizerArg embeddings_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg embeddings_constraint;
  bool mask_zero = false;
  /// The dtype of the reverse matmul (inputs and kernel cast to it); empty: no cast.
  std::string reverse_dtype;
  /// When set, reverse logits become tanh(logits / cap) * cap.
  std::optional<double> logit_soft_cap;
  int64_t lora_rank = 0;
  std::optional<Scalar> lora_alpha;
  quantizers::QuantizationConfigPtr quantization_config;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The ReversibleEmbedding layer (Keras's "ReversibleEmbedding").
class ReversibleEmbeddingLayer : public EmbeddingLayer {
 public:
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
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's layer(inputs, reverse=True): (..., output_dim) -> (..., input_dim) logits,
  /// inputs @ transpose(embeddings) (or @ reverse_embeddings), soft-capped when asked. A layer
  /// call (builds the layer, records gradients). Eager only: a Functional graph cannot record
  /// reverse=True yet (NotImplementedError for a symbolic tensor).
  Tensor reverse(const Tensor& inputs);
  KerasTensor reverse(const KerasTensor& inputs);

  bool tie_weights() const { return options_.tie_weights; }
  const std::string& reverse_dtype() const { return options_.reverse_dtype; }
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

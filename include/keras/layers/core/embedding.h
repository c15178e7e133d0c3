#pragma once
// keras.layers.Embedding: integer ids -> rows of an (input_dim, output_dim) table.
//
//   auto embed = layers::Embedding(1000, 64, {.mask_zero = true});
//   Tensor y = embed(ids);   // ids (batch, length) -> (batch, length, 64); mask = ids != 0
//
// Not supported: LoRA and quantization. A config with lora_rank loads as the plain layer (Keras
// saves the table with the LoRA update merged in).

#include "keras/layers/options.h"

namespace keras::layers {

struct EmbeddingOptions {
  /// Keras's "uniform": RandomUniform(-0.05, 0.05).
  initializers::InitializerArg embeddings_initializer = "uniform";
  regularizers::RegularizerArg embeddings_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg embeddings_constraint;
  /// Id 0 is padding: the output mask is ids != 0 (so input_dim counts the padding id).
  bool mask_zero = false;
  /// Initial table of shape (input_dim, output_dim); the layer is built at construction.
  Tensor weights;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Embedding layer (Keras's "Embedding").
class EmbeddingLayer : public Layer {
 public:
  EmbeddingLayer(int64_t input_dim, int64_t output_dim, EmbeddingOptions options = {});
  std::string class_name() const override { return "Embedding"; }
  void build(const Shape& input_shape) override;
  /// Ids of any integer dtype (others are cast to int32, as Keras); every id must lie in
  /// [0, input_dim), else ValueError.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// ids != 0 with mask_zero, else none.
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t input_dim() const { return input_dim_; }
  int64_t output_dim() const { return output_dim_; }
  bool mask_zero() const { return options_.mask_zero; }
  const Variable& embeddings() const { return embeddings_; }

 private:
  int64_t input_dim_, output_dim_;
  EmbeddingOptions options_;
  Variable embeddings_;
};

/// A lookup table of `input_dim` vectors of size `output_dim`.
LayerPtr<EmbeddingLayer> Embedding(int64_t input_dim, int64_t output_dim,
                                   EmbeddingOptions options = {});

}  // namespace keras::layers

#pragma once
// keras.layers.CategoryEncoding: integer tokens in [0, num_tokens) as one-hot, multi-hot or
// count vectors.
//
//   auto enc = layers::CategoryEncoding(4, {.output_mode = "one_hot"});
//   enc(ids);                                 // (batch,) -> (batch, 4)
//   auto counts = layers::CategoryEncoding(4, {.output_mode = "count"});
//   counts(TensorList{ids, weights});         // weighted counts (count_weights)

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.CategoryEncoding other than `num_tokens`.
struct CategoryEncodingOptions {
  /// "one_hot" (a new last axis, replacing a last axis of extent 1), "multi_hot" (1 where a
  /// token occurs in the sample, the last axis being the sample) or "count" (how often).
  /// "binary" is read as "multi_hot", as Keras does.
  std::string output_mode = "multi_hot";
  /// Sparse outputs are not supported (keras-cpp has no sparse tensors): true is a
  /// NotImplementedError.
  bool sparse = false;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The CategoryEncoding layer (Keras's "CategoryEncoding"). Call it on the tokens (rank <= 2
/// for "multi_hot" and "count"), or on {tokens, count_weights} in "count" mode. Tokens
/// outside [0, num_tokens) encode as zeros.
class CategoryEncodingLayer : public Layer {
 public:
  /// A layer encoding tokens in [0, `num_tokens`); ValueError for an unknown output_mode.
  CategoryEncodingLayer(int64_t num_tokens, CategoryEncodingOptions options = {});
  std::string class_name() const override { return "CategoryEncoding"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `num_tokens`: the number of entries of an encoded vector.
  int64_t num_tokens() const { return num_tokens_; }
  /// Keras's `output_mode`: "one_hot", "multi_hot" or "count" ("binary" reads as "multi_hot").
  const std::string& output_mode() const { return options_.output_mode; }

 private:
  Tensor encode(const Tensor& inputs, const Tensor& count_weights) const;

  int64_t num_tokens_;
  CategoryEncodingOptions options_;
};

/// A layer encoding integer tokens as vectors of `num_tokens` entries.
LayerPtr<CategoryEncodingLayer> CategoryEncoding(int64_t num_tokens,
                                                 CategoryEncodingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

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

struct CategoryEncodingOptions {
  /// "one_hot" (a new last axis, replacing a last axis of extent 1), "multi_hot" (1 where a
  /// token occurs in the sample, the last axis being the sample) or "count" (how often).
  /// "binary" is read as "multi_hot", as Keras does.
  std::string output_mode = "multi_hot";
  /// Sparse outputs are not supported (keras-cpp has no sparse tensors): true is a
  /// NotImplementedError.
  bool sparse = false;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The CategoryEncoding layer (Keras's "CategoryEncoding"). Call it on the tokens (rank <= 2
/// for "multi_hot" and "count"), or on {tokens, count_weights} in "count" mode. Tokens
/// outside [0, num_tokens) encode as zeros.
class CategoryEncodingLayer : public Layer {
 public:
  CategoryEncodingLayer(int64_t num_tokens, CategoryEncodingOptions options = {});
  std::string class_name() const override { return "CategoryEncoding"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t num_tokens() const { return num_tokens_; }
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

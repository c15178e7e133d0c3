#pragma once
// keras.layers.AdditiveAttention: Attention with Bahdanau-style scores
// sum(scale * tanh(query + key), axis=-1), "scale" a learned (dim,) vector with use_scale.

#include "keras/layers/attention/attention.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.AdditiveAttention.
struct AdditiveAttentionOptions {
  /// Multiplies tanh(query + key) by a learned "scale" vector (dim,) before the sum.
  bool use_scale = true;
  /// Dropout on the attention distribution.
  double dropout = 0.0;
  /// Seeds the dropout.
  std::optional<int64_t> seed;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The AdditiveAttention layer (Keras's "AdditiveAttention").
class AdditiveAttentionLayer : public AttentionLayer {
 public:
  /// Makes the layer; ValueError when `dropout` is not in [0, 1).
  explicit AdditiveAttentionLayer(AdditiveAttentionOptions options = {});
  std::string class_name() const override { return "AdditiveAttention"; }
  void build_list(const std::vector<Shape>& input_shapes) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor calculate_scores(const Tensor& query, const Tensor& key) override;
};

/// Additive attention (Bahdanau-style).
LayerPtr<AdditiveAttentionLayer> AdditiveAttention(AdditiveAttentionOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

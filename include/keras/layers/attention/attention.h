#pragma once
// keras.layers.Attention: dot-product (Luong-style) attention over inputs [query, value] or
// [query, value, key] of shapes (batch, Tq, dim), (batch, Tv, dim), (batch, Tv, dim):
// softmax(scores(query, key)) @ value, with masks [query_mask, value_mask] (Keras's `mask`, or
// the masks attached to the inputs). The output carries the query's mask.
//
// Weights: "scale" () with use_scale, then "concat_score_weight" () with score_mode "concat".

#include <optional>
#include <string>

#include "keras/layers/attention/call_args.h"
#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.Attention.
struct AttentionOptions {
  /// Multiplies the scores by a learned scalar "scale" (initialized to 1).
  bool use_scale = false;
  /// "dot" (query . key) or "concat" (sum(tanh(query + key)), times a learned scalar).
  std::string score_mode = "dot";
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

/// The Attention layer (Keras's "Attention").
class AttentionLayer : public Layer {
 public:
  /// Makes the layer; ValueError when `score_mode` is not "dot" or "concat", or `dropout` is
  /// not in [0, 1).
  explicit AttentionLayer(AttentionOptions options = {});
  std::string class_name() const override { return "Attention"; }
  using Layer::operator();

  /// Keras's call: [output] or, with return_attention_scores, [output, scores].
  TensorList call_with(const TensorList& inputs, const AttentionCall& args = {});
  /// The symbolic call (Functional API); args.mask must be empty (masks attached to the
  /// model's tensors reach the layer when the model runs).
  std::vector<KerasTensor> call_with(const std::vector<KerasTensor>& inputs,
                                     const AttentionCall& args = {});
  /// The return_attention_scores / use_causal_mask of the symbolic call that made `node`
  /// (what a Functional config records for the node).
  detail::AttentionFlags node_flags(const Node& node) const { return flags_.recorded(&node); }

  void build(const Shape& input_shape) override;
  void build_list(const std::vector<Shape>& input_shapes) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `use_scale`: whether the scores are multiplied by the learned "scale" weight.
  bool use_scale() const { return options_.use_scale; }
  /// Keras's `score_mode`: "dot" or "concat".
  const std::string& score_mode() const { return options_.score_mode; }
  /// Keras's `dropout`: the dropout rate on the attention distribution.
  double dropout() const { return options_.dropout; }
  /// The "scale" weight (undefined without use_scale).
  const Variable& scale() const { return scale_; }
  /// The "concat_score_weight" weight (undefined unless score_mode is "concat").
  const Variable& concat_score_weight() const { return concat_score_weight_; }

 protected:
  /// For subclasses (AdditiveAttention): `default_name` is the stem of automatic layer names.
  AttentionLayer(AttentionOptions options, std::string default_name);
  /// Scores (batch, Tq, Tv) of the query against the key.
  virtual Tensor calculate_scores(const Tensor& query, const Tensor& key);
  /// Checks a list of 2 or 3 inputs (and of masks).
  void validate(size_t num_inputs, const TensorList* masks = nullptr) const;

  /// The constructor arguments.
  AttentionOptions options_;
  /// The "scale" weight (see scale()).
  Variable scale_, concat_score_weight_;
  /// \var concat_score_weight_
  /// The "concat_score_weight" weight (see concat_score_weight()).

 private:
  random::SeedGenerator seed_generator_;
  detail::AttentionCallFlags flags_;
};

/// Dot-product attention (Luong-style).
LayerPtr<AttentionLayer> Attention(AttentionOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

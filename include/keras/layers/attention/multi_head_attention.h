#pragma once
// keras.layers.MultiHeadAttention: query, key and value projected to `num_heads` heads, scaled
// dot-product attention over `attention_axes`, and the heads projected back.
//
// Weights as Keras's EinsumDense sublayers hold them (and the .keras format saves them, under
// query_dense/, key_dense/, value_dense/, output_dense/ and _gate_dense/):
//   query  kernel (query_dim, num_heads, key_dim),   bias (num_heads, key_dim)
//   key    kernel (key_dim_in, num_heads, key_dim),  bias (num_heads, key_dim)
//   gate   kernel (query_dim, num_heads, value_dim), bias (num_heads, value_dim)   (use_gate)
//   value  kernel (value_dim_in, num_heads, value_dim), bias (num_heads, value_dim)
//   attention_output kernel (num_heads, value_dim, *output_shape), bias output_shape
// weights() lists them in this order.

#include <optional>
#include <vector>

#include "keras/layers/attention/multi_head_attention_base.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.MultiHeadAttention's constructor.
struct MultiHeadAttentionOptions {
  /// Size of each head of the value; key_dim when unset.
  std::optional<int64_t> value_dim;
  /// Dropout on the attention probabilities.
  double dropout = 0.0;
  /// Keras's `use_bias`: whether the projections have biases.
  bool use_bias = true;
  /// The trailing shape of the output; the query's last dimension when empty.
  std::vector<int64_t> output_shape;
  /// The axes attention runs over (of the query, without the batch and feature axes; negative
  /// ones count from the query's end); all axes but batch, heads and features when unset.
  std::optional<std::vector<int>> attention_axes;
  /// Query position i attends only to key positions j with |i - j| < sliding_window.
  std::optional<int64_t> sliding_window;
  /// Accepted for Keras compatibility (the cpu backend has no flash kernel); true refuses
  /// dropout and returned scores as Keras does.
  std::optional<bool> flash_attention;
  /// Initializer of the projection kernels (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of the projection biases (Keras's `bias_initializer`).
  initializers::InitializerArg bias_initializer = "zeros";
  /// Regularizer of the projection kernels; none when empty.
  regularizers::RegularizerArg kernel_regularizer;
  /// Regularizer of the projection biases; none when empty.
  regularizers::RegularizerArg bias_regularizer;
  /// Applied to the output of every projection (as Keras passes it to the sublayers).
  regularizers::RegularizerArg activity_regularizer;
  /// Constraint on the projection kernels, applied after each optimizer update; none when empty.
  constraints::ConstraintArg kernel_constraint;
  /// Constraint on the projection biases, applied after each optimizer update; none when empty.
  constraints::ConstraintArg bias_constraint;
  /// Gated attention: the heads are multiplied by sigmoid(query projection) before the output
  /// projection.
  bool use_gate = false;
  /// Seeds the dropout.
  std::optional<int64_t> seed;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The MultiHeadAttention layer (Keras's "MultiHeadAttention").
class MultiHeadAttentionLayer : public MultiHeadAttentionBase {
 public:
  /// Keras's MultiHeadAttention(num_heads, key_dim, ...); ValueError for a non-positive
  /// num_heads, key_dim, value_dim, output_shape entry or sliding_window, a `dropout` outside
  /// [0, 1), or flash_attention with dropout.
  MultiHeadAttentionLayer(int64_t num_heads, int64_t key_dim,
                          MultiHeadAttentionOptions options = {});
  ~MultiHeadAttentionLayer() override;
  std::string class_name() const override { return "MultiHeadAttention"; }
  using MultiHeadAttentionBase::build;
  void build_list(const std::vector<Shape>& input_shapes) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `num_heads`: the number of attention heads.
  int64_t num_heads() const { return num_heads_; }
  /// Keras's `key_dim`: the size of each query and key head.
  int64_t key_dim() const { return key_dim_; }
  /// The size of each value head (Keras's `value_dim`; key_dim when it was not given).
  int64_t value_dim() const { return value_dim_; }
  /// Keras's `dropout`: the dropout rate on the attention probabilities.
  double dropout() const { return options_.dropout; }
  /// Keras's `use_bias`: whether the projections have biases.
  bool use_bias() const { return options_.use_bias; }
  /// The attention axes of the projected tensors (set by build; as given before).
  const std::optional<std::vector<int>>& attention_axes() const { return attention_axes_; }
  /// The projection sublayers (null before build; gate_dense without use_gate).
  std::shared_ptr<Layer> query_dense() const;
  /// The key projection (null before build).
  std::shared_ptr<Layer> key_dense() const;
  /// The value projection (null before build).
  std::shared_ptr<Layer> value_dense() const;
  /// The output projection (null before build).
  std::shared_ptr<Layer> output_dense() const;
  /// The gate projection (null before build and without use_gate).
  std::shared_ptr<Layer> gate_dense() const;

 private:
  std::pair<Tensor, Tensor> compute_attention(const Tensor& query, const Tensor& key,
                                              const Tensor& value, const Tensor& mask,
                                              bool causal, bool training, bool return_scores);

  int64_t num_heads_, key_dim_, value_dim_;
  MultiHeadAttentionOptions options_;
  std::optional<std::vector<int>> attention_axes_;
  std::shared_ptr<detail::AttentionProjection> query_dense_, key_dense_, value_dense_,
      output_dense_, gate_dense_;
  random::SeedGenerator seed_generator_;
};

/// Multi-head attention with `num_heads` heads of size `key_dim` (Vaswani et al., 2017).
AttentionLayerPtr<MultiHeadAttentionLayer> MultiHeadAttention(
    int64_t num_heads, int64_t key_dim, MultiHeadAttentionOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

#pragma once
// keras.layers.GroupedQueryAttention (exported as GroupQueryAttention too): multi-head
// attention whose `num_query_heads` query heads share `num_key_value_heads` key and value heads
// in groups (Ainslie et al., 2023); 1 key/value head is multi-query attention.
//
// Weights as Keras's EinsumDense sublayers hold them (saved under _query_dense/, _key_dense/,
// _gate_dense/, _value_dense/ and _output_dense/), in this order:
//   query  kernel (query_dim, num_query_heads, head_dim),      bias (num_query_heads, head_dim)
//   key    kernel (key_dim, num_key_value_heads, head_dim),    bias (num_key_value_heads, head_dim)
//   gate   kernel (query_dim, num_query_heads, head_dim),      bias (num_query_heads, head_dim)
//   value  kernel (value_dim, num_key_value_heads, head_dim),  bias (num_key_value_heads, head_dim)
//   attention_output kernel (num_query_heads, head_dim, query_dim), bias (query_dim,)
// Inputs are (batch, T, dim) queries and (batch, S, dim) values and keys.

#include <optional>

#include "keras/layers/attention/multi_head_attention_base.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.GroupedQueryAttention's constructor.
struct GroupedQueryAttentionOptions {
  /// Dropout on the attention probabilities.
  double dropout = 0.0;
  /// Keras's `use_bias`: whether the projections have biases.
  bool use_bias = true;
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
  /// Applied to the layer's outputs and to every projection's (as Keras does).
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

/// The GroupedQueryAttention layer (Keras's "GroupedQueryAttention").
class GroupedQueryAttentionLayer : public MultiHeadAttentionBase {
 public:
  /// Keras's GroupedQueryAttention(head_dim, num_query_heads, num_key_value_heads, ...);
  /// ValueError for a non-positive size or sliding_window, num_query_heads not a multiple of
  /// num_key_value_heads, a `dropout` outside [0, 1), or flash_attention with dropout.
  GroupedQueryAttentionLayer(int64_t head_dim, int64_t num_query_heads,
                             int64_t num_key_value_heads,
                             GroupedQueryAttentionOptions options = {});
  ~GroupedQueryAttentionLayer() override;
  std::string class_name() const override { return "GroupedQueryAttention"; }
  using MultiHeadAttentionBase::build;
  void build_list(const std::vector<Shape>& input_shapes) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `head_dim`: the size of each attention head.
  int64_t head_dim() const { return head_dim_; }
  /// Keras's `num_query_heads`: the number of query heads.
  int64_t num_query_heads() const { return num_query_heads_; }
  /// Keras's `num_key_value_heads`: the number of key and value heads, each shared by
  /// num_query_heads / num_key_value_heads query heads.
  int64_t num_key_value_heads() const { return num_key_value_heads_; }
  /// Keras's `dropout`: the dropout rate on the attention probabilities.
  double dropout() const { return options_.dropout; }
  /// Keras's `use_bias`: whether the projections have biases.
  bool use_bias() const { return options_.use_bias; }
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
  int64_t head_dim_, num_query_heads_, num_key_value_heads_;
  GroupedQueryAttentionOptions options_;
  std::shared_ptr<detail::AttentionProjection> query_dense_, key_dense_, value_dense_,
      output_dense_, gate_dense_;
  random::SeedGenerator seed_generator_;
};

/// Grouped-query attention: `num_query_heads` heads of size `head_dim` sharing
/// `num_key_value_heads` key/value heads.
AttentionLayerPtr<GroupedQueryAttentionLayer> GroupedQueryAttention(
    int64_t head_dim, int64_t num_query_heads, int64_t num_key_value_heads,
    GroupedQueryAttentionOptions options = {});
/// Keras's export name of GroupedQueryAttention.
AttentionLayerPtr<GroupedQueryAttentionLayer> GroupQueryAttention(
    int64_t head_dim, int64_t num_query_heads, int64_t num_key_value_heads,
    GroupedQueryAttentionOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

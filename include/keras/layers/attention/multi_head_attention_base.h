#pragma once
// What MultiHeadAttention and GroupedQueryAttention share: Keras's call form
// layer(query, value, key=..., masks..., attention_mask=..., return_attention_scores=...,
// training=..., use_causal_mask=...), the merging of the masks into one attention mask, and
// the output mask (the query's).

#include <memory>
#include <string>

#include "keras/layers/attention/call_args.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

namespace detail {
class AttentionProjection;
}  // namespace detail

/// The base of MultiHeadAttention and GroupedQueryAttention.
class MultiHeadAttentionBase : public Layer {
 public:
  using Layer::operator();

  /// Keras's call: [attention_output] or, with return_attention_scores,
  /// [attention_output, attention_scores].
  TensorList call_with(const Tensor& query, const Tensor& value,
                       const MultiHeadAttentionCall& args = {});
  /// The symbolic call (Functional API).
  std::vector<KerasTensor> call_with(const KerasTensor& query, const KerasTensor& value,
                                     const SymbolicMultiHeadAttentionCall& args = {});
  /// The attention output (ValueError with return_attention_scores: use call_with()).
  Tensor operator()(const Tensor& query, const Tensor& value,
                    const MultiHeadAttentionCall& args = {});
  /// The symbolic call (Functional API): the attention output's KerasTensor.
  KerasTensor operator()(const KerasTensor& query, const KerasTensor& value,
                         const SymbolicMultiHeadAttentionCall& args = {});

  /// The output carries the query's mask; the scores carry none.
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  /// The return_attention_scores / use_causal_mask of the symbolic call that made `node`
  /// (what a Functional config records as the node's keyword arguments).
  detail::AttentionFlags node_flags(const Node& node) const { return flags_.recorded(&node); }
  /// A single input is not enough: ValueError naming the call forms.
  void build(const Shape& input_shape) override;

 protected:
  /// For subclasses: `default_name` is the stem of automatic layer names.
  MultiHeadAttentionBase(LayerOptions options, std::string default_name);

  /// The inputs of a list call: query, value, key (the value when absent), the attention
  /// mask (undefined when absent), and the query, value and key masks from the context.
  struct Inputs {
    /// The query, cast to the compute dtype.
    Tensor query, value, key, attention_mask;
    /// The query's boolean mask (undefined when none).
    Tensor query_mask, value_mask, key_mask;
    /// \var value
    /// The value, cast to the compute dtype.
    /// \var key
    /// The key, cast to the compute dtype; the value when the call gave none.
    /// \var attention_mask
    /// The fourth input as a boolean mask (undefined when absent).
    /// \var value_mask
    /// The value's boolean mask (undefined when none).
    /// \var key_mask
    /// The key's boolean mask (undefined when none).
  };
  /// Splits a list call's 2 to 4 inputs (cast to the compute dtype) and the context's masks;
  /// ValueError for another count.
  Inputs unpack(const TensorList& inputs, const CallContext& ctx) const;
  /// The flags of this call.
  detail::AttentionFlags flags() const { return flags_.current(*this); }
  /// Keras's _compute_attention_mask: the query, value and key masks, the causal and sliding
  /// window masks, and the attention mask merged by logical and into one boolean mask
  /// broadcastable to (batch, T, S); undefined when there is none.
  Tensor merge_masks(const Inputs& in, bool use_causal_mask,
                     std::optional<int64_t> sliding_window) const;
  /// True when the causal mask is the only mask of a call (the attention kernel applies it
  /// without a materialized mask).
  static bool causal_only(const Inputs& in, bool use_causal_mask,
                          std::optional<int64_t> sliding_window);
  /// Checks the value and key shapes of a build (all axes but the last must agree).
  void check_value_key_shapes(const Shape& value_shape, const Shape& key_shape) const;

 private:
  detail::AttentionCallFlags flags_;
};

}  // namespace keras::layers

#pragma GCC visibility pop

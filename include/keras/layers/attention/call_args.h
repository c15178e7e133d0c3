#pragma once
// The keyword arguments of the attention layers' calls (Keras's call signatures besides the
// inputs), and the layer handle that gives MultiHeadAttention and GroupedQueryAttention their
// Keras call form `mha(query, value, {...})`.
//
//   auto mha = layers::MultiHeadAttention(4, 16);
//   Tensor y = mha(query, value);                                   // Keras: mha(query, value)
//   Tensor z = mha(x, x, {.use_causal_mask = true});                // keyword arguments
//   TensorList ys = mha->call_with(q, v, {.key = k, .return_attention_scores = true});
//   TensorList same = mha({q, v, k});                               // the generic list call
//
//   auto attention = layers::Attention();
//   TensorList outs = attention->call_with({q, v}, {.return_attention_scores = true});
//
// The generic list call (what Functional models replay) takes [query, value], [query, value,
// key] or [query, value, key, attention_mask]; masks attached to the inputs (Embedding
// (mask_zero), Masking) are the query, value and key masks.

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// MultiHeadAttention's and GroupedQueryAttention's call arguments besides query and value.
struct MultiHeadAttentionCall {
  /// The key (batch, S, key_dim); the value when undefined.
  Tensor key;
  /// Boolean (batch, T) mask of the query; undefined: the mask attached to the query.
  Tensor query_mask;
  /// Boolean (batch, S) mask of the value; undefined: the mask attached to the value.
  Tensor value_mask;
  /// Boolean (batch, S) mask of the key; undefined: the mask attached to the key.
  Tensor key_mask;
  /// Boolean (batch, T, S) (or broadcastable): which query positions may attend to which key
  /// positions, shared by the heads.
  Tensor attention_mask;
  /// Also return the attention probabilities (batch, heads, T, S).
  bool return_attention_scores = false;
  /// Dropout on the attention probabilities; unset: inherited from the enclosing call.
  std::optional<bool> training;
  /// Query position i attends to key positions j <= i only.
  bool use_causal_mask = false;
};

/// The same arguments for a symbolic call (Functional API). Masks attached to the model's
/// tensors reach the layer when the model runs; an attention_mask becomes a fourth input.
struct SymbolicMultiHeadAttentionCall {
  /// The key (batch, S, key_dim); the value when undefined.
  KerasTensor key;
  /// Boolean (batch, T, S) (or broadcastable): which query positions may attend to which key
  /// positions; passed to the layer as its fourth input.
  KerasTensor attention_mask;
  /// Also return the attention probabilities (batch, heads, T, S).
  bool return_attention_scores = false;
  /// Dropout on the attention probabilities; unset: inherited from the enclosing call.
  std::optional<bool> training;
  /// Query position i attends to key positions j <= i only.
  bool use_causal_mask = false;
};

/// Attention's and AdditiveAttention's call arguments besides the inputs [query, value(, key)].
struct AttentionCall {
  /// Keras's `mask`: [query_mask, value_mask] (boolean (batch, Tq) and (batch, Tv)); empty: the
  /// masks attached to the inputs.
  TensorList mask;
  /// Also return the attention distribution (batch, Tq, Tv).
  bool return_attention_scores = false;
  /// Dropout on the attention distribution; unset: inherited from the enclosing call.
  std::optional<bool> training;
  /// Query position i attends to key positions j <= i only.
  bool use_causal_mask = false;
};

namespace detail {

/// The call arguments of an attention layer that are flags, not tensors.
struct AttentionFlags {
  bool return_attention_scores = false;
  bool use_causal_mask = false;
  bool operator==(const AttentionFlags&) const = default;
};

/// Carries AttentionFlags to a layer's call_list, which the generic call (inputs and a
/// CallContext) cannot: call_with() opens a Scope around the layer call, and a symbolic call's
/// flags are recorded with its Node so that a Functional model replaying the node with a bare
/// list call gets them back.
class AttentionCallFlags {
 public:
  /// While alive, calls of `layer` on this thread use `flags`.
  class Scope {
   public:
    Scope(const Layer* layer, AttentionFlags flags);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };

  /// Records the flags of a symbolic call.
  void record(const std::shared_ptr<Node>& node, AttentionFlags flags);
  /// The flags of the current call of `layer`: an open Scope's; else, for a bare eager list
  /// call (what a Functional model's replay is), those recorded for the layer's symbolic calls
  /// (NotImplementedError when they differ: the model cannot tell its nodes apart yet); else
  /// the defaults.
  AttentionFlags current(const Layer& layer) const;
  /// The flags recorded for the symbolic call that made `node` (the defaults when none).
  AttentionFlags recorded(const Node* node) const;

 private:
  std::vector<std::pair<std::weak_ptr<Node>, AttentionFlags>> records_;
};

}  // namespace detail

/// A LayerPtr to a multi-head attention layer that can also be called as mha(query, value, {...})
/// (the attention output; call_with() also returns the scores).
template <typename T>
class AttentionLayerPtr : public LayerPtr<T> {
 public:
  using LayerPtr<T>::LayerPtr;
  AttentionLayerPtr() = default;
  /// Wraps the layer `p` (implicit, so factory results convert).
  AttentionLayerPtr(std::shared_ptr<T> p) : LayerPtr<T>(std::move(p)) {}  // NOLINT
  using LayerPtr<T>::operator();

  /// Keras's `mha(query, value, ...)`: the attention output (ValueError with
  /// return_attention_scores: use call_with()).
  Tensor operator()(const Tensor& query, const Tensor& value,
                    const MultiHeadAttentionCall& args = {}) const {
    return (**this)(query, value, args);
  }
  /// The symbolic call (Functional API): the attention output's KerasTensor.
  KerasTensor operator()(const KerasTensor& query, const KerasTensor& value,
                         const SymbolicMultiHeadAttentionCall& args = {}) const {
    return (**this)(query, value, args);
  }
};

}  // namespace keras::layers

#pragma GCC visibility pop

#pragma once
// keras.layers.Bidirectional: runs a recurrent layer forwards (forward_layer) and a copy of it
// backwards (backward_layer, go_backwards set), and merges the two outputs. Both are fresh
// layers made from the given layer's config ("forward_<name>", "backward_<name>"), as Keras
// does, so the layer passed in keeps its own weights.
//
// Calls: `layer(x)`, or `layer(TensorList{x, forward states..., backward states...})` for
// initial states. With merge_mode "none" or return_state, call with a list: the outputs are
// {merged output (or forward, backward outputs), forward states..., backward states...}.

#include <optional>

#include "keras/layers/rnn/rnn.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.Bidirectional's constructor.
struct BidirectionalOptions {
  /// "concat", "sum", "mul", "ave", or "none" (Keras's None: both outputs, unmerged).
  std::string merge_mode = "concat";
  /// The layer run backwards; by default a copy of the forward one with go_backwards set.
  std::shared_ptr<RNNLayer> backward_layer;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The Bidirectional wrapper (Keras's "Bidirectional").
class BidirectionalLayer : public Layer {
 public:
  /// Wraps a copy of `layer` (Keras's `layer`) and its backward twin; ValueError without a layer,
  /// for an unknown merge_mode, or when the two layers share go_backwards or differ in stateful,
  /// return_sequences or return_state.
  BidirectionalLayer(const std::shared_ptr<RNNLayer>& layer, BidirectionalOptions options = {});
  std::string class_name() const override { return "Bidirectional"; }
  void build(const Shape& input_shape) override;
  void build_list(const std::vector<Shape>& input_shapes) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The layer run forwards ("forward_" + the given layer's name).
  const std::shared_ptr<RNNLayer>& forward_layer() const { return forward_; }
  /// The layer run backwards (options.backward_layer, or "backward_" + the given layer's name).
  const std::shared_ptr<RNNLayer>& backward_layer() const { return backward_; }
  /// The merge mode ("none" for Keras's None).
  const std::string& merge_mode() const { return merge_mode_; }
  /// The wrapped layers' `return_sequences`: outputs for every timestep rather than the last.
  bool return_sequences() const { return forward_->return_sequences(); }
  /// The wrapped layers' `return_state`: the final states follow the outputs.
  bool return_state() const { return forward_->return_state(); }
  /// The wrapped layers' `stateful`: the final states are the next call's initial states.
  bool stateful() const { return forward_->stateful(); }
  /// Zeros both layers' states; ValueError unless the layers are stateful.
  void reset_state();
  /// Keras's older name of reset_state().
  void reset_states() { reset_state(); }

 protected:
  /// With return_state or merge_mode "none", one input gives a list of outputs, as in Keras.
  bool returns_list_for_one_input() const override {
    return return_state() || merge_mode_ == "none";
  }

 private:
  std::shared_ptr<RNNLayer> forward_, backward_;
  std::string merge_mode_;
};

/// `layer` run in both directions.
LayerPtr<BidirectionalLayer> Bidirectional(const std::shared_ptr<RNNLayer>& layer,
                                           BidirectionalOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

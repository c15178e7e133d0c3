#pragma once
// keras.layers.Softmax: softmax along `axis`; with a mask (the call's, or one a previous layer
// attached), masked positions get a large negative logit before and a zero output after.
//
//   auto softmax = layers::Softmax({.axis = {1, 2}});
//   Tensor p = softmax(scores, {.mask = keep});   // keep broadcasts against scores

#include "keras/layers/options.h"
#include "keras/ops/axes.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.Softmax.
struct SoftmaxOptions {
  /// One axis or several (normalized together); None for all.
  ops::Axes axis = -1;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The Softmax layer (Keras's "Softmax").
class SoftmaxLayer : public Layer {
 public:
  /// A Softmax layer with these options (Softmax() wraps one in a LayerPtr).
  explicit SoftmaxLayer(SoftmaxOptions options = {});
  std::string class_name() const override { return "Softmax"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The axes normalized together (Keras's `axis`); None for all.
  const ops::Axes& axis() const { return options_.axis; }

 private:
  SoftmaxOptions options_;
};

/// A softmax activation layer.
LayerPtr<SoftmaxLayer> Softmax(SoftmaxOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

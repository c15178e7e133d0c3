#pragma once
// keras.layers.Cropping1D: trims (batch, steps, features) along the steps axis.

#include <utility>
#include <vector>

#include "keras/layers/options.h"
#include "keras/layers/reshaping/side_pairs.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Cropping1D's keyword arguments.
struct Cropping1DOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Cropping1D layer (Keras's "Cropping1D").
class Cropping1DLayer : public Layer {
 public:
  /// `cropping`: units trimmed at the start and the end (`2` for both, or `{start, end}`).
  explicit Cropping1DLayer(SidePair cropping = {1, 1}, Cropping1DOptions options = {});
  std::string class_name() const override { return "Cropping1D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The (start, end) amounts of each spatial axis.
  const std::vector<std::pair<int64_t, int64_t>>& cropping() const { return cropping_; }

 private:
  std::vector<std::pair<int64_t, int64_t>> cropping_;
};

/// A Cropping1D layer.
LayerPtr<Cropping1DLayer> Cropping1D(SidePair cropping = {1, 1}, Cropping1DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

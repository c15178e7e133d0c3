#pragma once
// keras.layers.Permute: the non-batch axes reordered; `dims` counts from 1 (the batch axis
// stays first), as in Keras.

#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Permute's keyword arguments.
struct PermuteOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Permute layer (Keras's "Permute").
class PermuteLayer : public Layer {
 public:
  /// `dims`: a permutation of 1..n for inputs of rank n + 1 (`{2, 1}` swaps the two axes after
  /// the batch axis).
  explicit PermuteLayer(std::vector<int> dims, PermuteOptions options = {});
  std::string class_name() const override { return "Permute"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The 1-based permutation of the non-batch axes (Keras's `dims`).
  const std::vector<int>& dims() const { return dims_; }

 private:
  std::vector<int> dims_;
};

/// A Permute layer with the 1-based permutation `dims`.
LayerPtr<PermuteLayer> Permute(std::vector<int> dims, PermuteOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

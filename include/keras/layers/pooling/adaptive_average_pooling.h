#pragma once
// keras.layers.AdaptiveAveragePooling1D, AdaptiveAveragePooling2D, AdaptiveAveragePooling3D: the
// mean over adaptive windows that give every spatial dimension its output_size.
//
//   auto pool = keras::layers::AdaptiveAveragePooling2D({7, 7});    // (N, H, W, C) -> (N, 7, 7, C)

#include "keras/layers/pooling/base_adaptive_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.AdaptiveAveragePooling1D's keyword arguments (see BaseAdaptivePoolingOptions).
using AdaptiveAveragePooling1DOptions = BaseAdaptivePoolingOptions;
/// keras.layers.AdaptiveAveragePooling2D's keyword arguments (see BaseAdaptivePoolingOptions).
using AdaptiveAveragePooling2DOptions = BaseAdaptivePoolingOptions;
/// keras.layers.AdaptiveAveragePooling3D's keyword arguments (see BaseAdaptivePoolingOptions).
using AdaptiveAveragePooling3DOptions = BaseAdaptivePoolingOptions;

/// Keras's "AdaptiveAveragePooling1D".
class AdaptiveAveragePooling1DLayer : public BaseAdaptivePoolingLayer {
 public:
  /// keras.layers.AdaptiveAveragePooling1D: pools to `output_size` (an int or one per spatial
  /// dimension).
  explicit AdaptiveAveragePooling1DLayer(const ops::IntOrTuple& output_size,
                                         AdaptiveAveragePooling1DOptions options = {});
  std::string class_name() const override { return "AdaptiveAveragePooling1D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "AdaptiveAveragePooling2D".
class AdaptiveAveragePooling2DLayer : public BaseAdaptivePoolingLayer {
 public:
  /// keras.layers.AdaptiveAveragePooling2D: pools to `output_size` (an int or one per spatial
  /// dimension).
  explicit AdaptiveAveragePooling2DLayer(const ops::IntOrTuple& output_size,
                                         AdaptiveAveragePooling2DOptions options = {});
  std::string class_name() const override { return "AdaptiveAveragePooling2D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "AdaptiveAveragePooling3D".
class AdaptiveAveragePooling3DLayer : public BaseAdaptivePoolingLayer {
 public:
  /// keras.layers.AdaptiveAveragePooling3D: pools to `output_size` (an int or one per spatial
  /// dimension).
  explicit AdaptiveAveragePooling3DLayer(const ops::IntOrTuple& output_size,
                                         AdaptiveAveragePooling3DOptions options = {});
  std::string class_name() const override { return "AdaptiveAveragePooling3D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Adaptive average pooling over 1 spatial dimension.
LayerPtr<AdaptiveAveragePooling1DLayer> AdaptiveAveragePooling1D(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling1DOptions options = {});
/// Adaptive average pooling over 2 spatial dimensions.
LayerPtr<AdaptiveAveragePooling2DLayer> AdaptiveAveragePooling2D(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling2DOptions options = {});
/// Adaptive average pooling over 3 spatial dimensions.
LayerPtr<AdaptiveAveragePooling3DLayer> AdaptiveAveragePooling3D(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

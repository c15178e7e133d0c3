#pragma once
// keras.layers.AdaptiveMaxPooling1D, AdaptiveMaxPooling2D, AdaptiveMaxPooling3D: the
// maximum over adaptive windows that give every spatial dimension its output_size.
//
//   auto pool = keras::layers::AdaptiveMaxPooling2D({7, 7});    // (N, H, W, C) -> (N, 7, 7, C)

#include "keras/layers/pooling/base_adaptive_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.AdaptiveMaxPooling1D's keyword arguments (see BaseAdaptivePoolingOptions).
using AdaptiveMaxPooling1DOptions = BaseAdaptivePoolingOptions;
/// keras.layers.AdaptiveMaxPooling2D's keyword arguments (see BaseAdaptivePoolingOptions).
using AdaptiveMaxPooling2DOptions = BaseAdaptivePoolingOptions;
/// keras.layers.AdaptiveMaxPooling3D's keyword arguments (see BaseAdaptivePoolingOptions).
using AdaptiveMaxPooling3DOptions = BaseAdaptivePoolingOptions;

/// Keras's "AdaptiveMaxPooling1D".
class AdaptiveMaxPooling1DLayer : public BaseAdaptivePoolingLayer {
 public:
  /// keras.layers.AdaptiveMaxPooling1D: pools to `output_size` (an int or one per spatial
  /// dimension).
  explicit AdaptiveMaxPooling1DLayer(const ops::IntOrTuple& output_size,
                                     AdaptiveMaxPooling1DOptions options = {});
  std::string class_name() const override { return "AdaptiveMaxPooling1D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "AdaptiveMaxPooling2D".
class AdaptiveMaxPooling2DLayer : public BaseAdaptivePoolingLayer {
 public:
  /// keras.layers.AdaptiveMaxPooling2D: pools to `output_size` (an int or one per spatial
  /// dimension).
  explicit AdaptiveMaxPooling2DLayer(const ops::IntOrTuple& output_size,
                                     AdaptiveMaxPooling2DOptions options = {});
  std::string class_name() const override { return "AdaptiveMaxPooling2D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "AdaptiveMaxPooling3D".
class AdaptiveMaxPooling3DLayer : public BaseAdaptivePoolingLayer {
 public:
  /// keras.layers.AdaptiveMaxPooling3D: pools to `output_size` (an int or one per spatial
  /// dimension).
  explicit AdaptiveMaxPooling3DLayer(const ops::IntOrTuple& output_size,
                                     AdaptiveMaxPooling3DOptions options = {});
  std::string class_name() const override { return "AdaptiveMaxPooling3D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Adaptive max pooling over 1 spatial dimension.
LayerPtr<AdaptiveMaxPooling1DLayer> AdaptiveMaxPooling1D(const ops::IntOrTuple& output_size,
                                                         AdaptiveMaxPooling1DOptions options = {});
/// Adaptive max pooling over 2 spatial dimensions.
LayerPtr<AdaptiveMaxPooling2DLayer> AdaptiveMaxPooling2D(const ops::IntOrTuple& output_size,
                                                         AdaptiveMaxPooling2DOptions options = {});
/// Adaptive max pooling over 3 spatial dimensions.
LayerPtr<AdaptiveMaxPooling3DLayer> AdaptiveMaxPooling3D(const ops::IntOrTuple& output_size,
                                                         AdaptiveMaxPooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

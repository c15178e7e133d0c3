#pragma once
// keras.layers.AveragePooling1D, AveragePooling2D, AveragePooling3D (aliases AvgPool1D/2D/3D):
// the mean over windows of pool_size moved by strides (default pool_size); with "same"
// padding the padded positions are not counted.
//
//   auto pool = keras::layers::AveragePooling2D(2);

#include "keras/layers/pooling/base_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.AveragePooling1D's keyword arguments (see BasePoolingOptions).
using AveragePooling1DOptions = BasePoolingOptions;
/// keras.layers.AveragePooling2D's keyword arguments (see BasePoolingOptions).
using AveragePooling2DOptions = BasePoolingOptions;
/// keras.layers.AveragePooling3D's keyword arguments (see BasePoolingOptions).
using AveragePooling3DOptions = BasePoolingOptions;

/// Keras's "AveragePooling1D".
class AveragePooling1DLayer : public BasePoolingLayer {
 public:
  /// keras.layers.AveragePooling1D with windows of `pool_size` (an int or one per spatial
  /// dimension).
  explicit AveragePooling1DLayer(const ops::IntOrTuple& pool_size,
                                 AveragePooling1DOptions options = {});
  std::string class_name() const override { return "AveragePooling1D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "AveragePooling2D".
class AveragePooling2DLayer : public BasePoolingLayer {
 public:
  /// keras.layers.AveragePooling2D with windows of `pool_size` (an int or one per spatial
  /// dimension).
  explicit AveragePooling2DLayer(const ops::IntOrTuple& pool_size,
                                 AveragePooling2DOptions options = {});
  std::string class_name() const override { return "AveragePooling2D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "AveragePooling3D".
class AveragePooling3DLayer : public BasePoolingLayer {
 public:
  /// keras.layers.AveragePooling3D with windows of `pool_size` (an int or one per spatial
  /// dimension).
  explicit AveragePooling3DLayer(const ops::IntOrTuple& pool_size,
                                 AveragePooling3DOptions options = {});
  std::string class_name() const override { return "AveragePooling3D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Average pooling over 1 spatial dimension.
LayerPtr<AveragePooling1DLayer> AveragePooling1D(const ops::IntOrTuple& pool_size,
                                                 AveragePooling1DOptions options = {});
/// Average pooling over 2 spatial dimensions.
LayerPtr<AveragePooling2DLayer> AveragePooling2D(const ops::IntOrTuple& pool_size,
                                                 AveragePooling2DOptions options = {});
/// Average pooling over 3 spatial dimensions.
LayerPtr<AveragePooling3DLayer> AveragePooling3D(const ops::IntOrTuple& pool_size,
                                                 AveragePooling3DOptions options = {});
/// Keras's aliases.
LayerPtr<AveragePooling1DLayer> AvgPool1D(const ops::IntOrTuple& pool_size,
                                          AveragePooling1DOptions options = {});
/// Keras's alias of AveragePooling2D.
LayerPtr<AveragePooling2DLayer> AvgPool2D(const ops::IntOrTuple& pool_size,
                                          AveragePooling2DOptions options = {});
/// Keras's alias of AveragePooling3D.
LayerPtr<AveragePooling3DLayer> AvgPool3D(const ops::IntOrTuple& pool_size,
                                          AveragePooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

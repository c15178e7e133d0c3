#pragma once
// keras.layers.MaxPooling1D, MaxPooling2D, MaxPooling3D (aliases MaxPool1D/2D/3D): the maximum
// over windows of pool_size moved by strides (default pool_size).
//
//   auto pool = keras::layers::MaxPooling2D(2);                  // halves height and width
//   auto same = keras::layers::MaxPooling1D(3, {.strides = 1, .padding = "same"});

#include "keras/layers/pooling/base_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.MaxPooling1D's keyword arguments (see BasePoolingOptions).
using MaxPooling1DOptions = BasePoolingOptions;
/// keras.layers.MaxPooling2D's keyword arguments (see BasePoolingOptions).
using MaxPooling2DOptions = BasePoolingOptions;
/// keras.layers.MaxPooling3D's keyword arguments (see BasePoolingOptions).
using MaxPooling3DOptions = BasePoolingOptions;

/// Keras's "MaxPooling1D".
class MaxPooling1DLayer : public BasePoolingLayer {
 public:
  /// keras.layers.MaxPooling1D with windows of `pool_size` (an int or one per spatial dimension).
  explicit MaxPooling1DLayer(const ops::IntOrTuple& pool_size = 2,
                             MaxPooling1DOptions options = {});
  std::string class_name() const override { return "MaxPooling1D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "MaxPooling2D".
class MaxPooling2DLayer : public BasePoolingLayer {
 public:
  /// keras.layers.MaxPooling2D with windows of `pool_size` (an int or one per spatial dimension).
  explicit MaxPooling2DLayer(const ops::IntOrTuple& pool_size = 2,
                             MaxPooling2DOptions options = {});
  std::string class_name() const override { return "MaxPooling2D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "MaxPooling3D".
class MaxPooling3DLayer : public BasePoolingLayer {
 public:
  /// keras.layers.MaxPooling3D with windows of `pool_size` (an int or one per spatial dimension).
  explicit MaxPooling3DLayer(const ops::IntOrTuple& pool_size = 2,
                             MaxPooling3DOptions options = {});
  std::string class_name() const override { return "MaxPooling3D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Max pooling over 1 spatial dimension.
LayerPtr<MaxPooling1DLayer> MaxPooling1D(const ops::IntOrTuple& pool_size = 2,
                                         MaxPooling1DOptions options = {});
/// Max pooling over 2 spatial dimensions.
LayerPtr<MaxPooling2DLayer> MaxPooling2D(const ops::IntOrTuple& pool_size = 2,
                                         MaxPooling2DOptions options = {});
/// Max pooling over 3 spatial dimensions.
LayerPtr<MaxPooling3DLayer> MaxPooling3D(const ops::IntOrTuple& pool_size = 2,
                                         MaxPooling3DOptions options = {});
/// Keras's aliases.
LayerPtr<MaxPooling1DLayer> MaxPool1D(const ops::IntOrTuple& pool_size = 2,
                                      MaxPooling1DOptions options = {});
/// Keras's alias of MaxPooling2D.
LayerPtr<MaxPooling2DLayer> MaxPool2D(const ops::IntOrTuple& pool_size = 2,
                                      MaxPooling2DOptions options = {});
/// Keras's alias of MaxPooling3D.
LayerPtr<MaxPooling3DLayer> MaxPool3D(const ops::IntOrTuple& pool_size = 2,
                                      MaxPooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

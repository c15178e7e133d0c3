#pragma once
// keras.layers.MaxPooling1D, MaxPooling2D, MaxPooling3D (aliases MaxPool1D/2D/3D): the maximum
// over windows of pool_size moved by strides (default pool_size).
//
//   auto pool = keras::layers::MaxPooling2D(2);                  // halves height and width
//   auto same = keras::layers::MaxPooling1D(3, {.strides = 1, .padding = "same"});

#include "keras/layers/pooling/base_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

using MaxPooling1DOptions = BasePoolingOptions;
using MaxPooling2DOptions = BasePoolingOptions;
using MaxPooling3DOptions = BasePoolingOptions;

/// Keras's "MaxPooling1D".
class MaxPooling1DLayer : public BasePoolingLayer {
 public:
  explicit MaxPooling1DLayer(const ops::IntOrTuple& pool_size = 2,
                             MaxPooling1DOptions options = {});
  std::string class_name() const override { return "MaxPooling1D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "MaxPooling2D".
class MaxPooling2DLayer : public BasePoolingLayer {
 public:
  explicit MaxPooling2DLayer(const ops::IntOrTuple& pool_size = 2,
                             MaxPooling2DOptions options = {});
  std::string class_name() const override { return "MaxPooling2D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "MaxPooling3D".
class MaxPooling3DLayer : public BasePoolingLayer {
 public:
  explicit MaxPooling3DLayer(const ops::IntOrTuple& pool_size = 2,
                             MaxPooling3DOptions options = {});
  std::string class_name() const override { return "MaxPooling3D"; }
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
LayerPtr<MaxPooling2DLayer> MaxPool2D(const ops::IntOrTuple& pool_size = 2,
                                      MaxPooling2DOptions options = {});
LayerPtr<MaxPooling3DLayer> MaxPool3D(const ops::IntOrTuple& pool_size = 2,
                                      MaxPooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

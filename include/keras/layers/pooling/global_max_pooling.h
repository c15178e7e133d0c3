#pragma once
// keras.layers.GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D (aliases
// GlobalMaxPool1D/2D/3D): the maximum over every spatial dimension.
//
//   auto pool = keras::layers::GlobalMaxPooling2D();             // (N, H, W, C) -> (N, C)

#include "keras/layers/pooling/base_global_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.GlobalMaxPooling1D's keyword arguments (see BaseGlobalPoolingOptions).
using GlobalMaxPooling1DOptions = BaseGlobalPoolingOptions;
/// keras.layers.GlobalMaxPooling2D's keyword arguments (see BaseGlobalPoolingOptions).
using GlobalMaxPooling2DOptions = BaseGlobalPoolingOptions;
/// keras.layers.GlobalMaxPooling3D's keyword arguments (see BaseGlobalPoolingOptions).
using GlobalMaxPooling3DOptions = BaseGlobalPoolingOptions;

/// Keras's "GlobalMaxPooling1D".
class GlobalMaxPooling1DLayer : public BaseGlobalPoolingLayer {
 public:
  /// keras.layers.GlobalMaxPooling1D: pools over every spatial position.
  explicit GlobalMaxPooling1DLayer(GlobalMaxPooling1DOptions options = {});
  std::string class_name() const override { return "GlobalMaxPooling1D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "GlobalMaxPooling2D".
class GlobalMaxPooling2DLayer : public BaseGlobalPoolingLayer {
 public:
  /// keras.layers.GlobalMaxPooling2D: pools over every spatial position.
  explicit GlobalMaxPooling2DLayer(GlobalMaxPooling2DOptions options = {});
  std::string class_name() const override { return "GlobalMaxPooling2D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "GlobalMaxPooling3D".
class GlobalMaxPooling3DLayer : public BaseGlobalPoolingLayer {
 public:
  /// keras.layers.GlobalMaxPooling3D: pools over every spatial position.
  explicit GlobalMaxPooling3DLayer(GlobalMaxPooling3DOptions options = {});
  std::string class_name() const override { return "GlobalMaxPooling3D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Global max pooling over 1 spatial dimension.
LayerPtr<GlobalMaxPooling1DLayer> GlobalMaxPooling1D(GlobalMaxPooling1DOptions options = {});
/// Global max pooling over 2 spatial dimensions.
LayerPtr<GlobalMaxPooling2DLayer> GlobalMaxPooling2D(GlobalMaxPooling2DOptions options = {});
/// Global max pooling over 3 spatial dimensions.
LayerPtr<GlobalMaxPooling3DLayer> GlobalMaxPooling3D(GlobalMaxPooling3DOptions options = {});
/// Keras's aliases.
LayerPtr<GlobalMaxPooling1DLayer> GlobalMaxPool1D(GlobalMaxPooling1DOptions options = {});
/// Keras's alias of GlobalMaxPooling2D.
LayerPtr<GlobalMaxPooling2DLayer> GlobalMaxPool2D(GlobalMaxPooling2DOptions options = {});
/// Keras's alias of GlobalMaxPooling3D.
LayerPtr<GlobalMaxPooling3DLayer> GlobalMaxPool3D(GlobalMaxPooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

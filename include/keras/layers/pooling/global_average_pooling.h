#pragma once
// keras.layers.GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D (aliases
// GlobalAvgPool1D/2D/3D): the mean over every spatial dimension. GlobalAveragePooling1D
// takes a (batch, steps) mask and averages the unmasked steps only.
//
//   auto pool = keras::layers::GlobalAveragePooling2D({.keepdims = true});  // -> (N, 1, 1, C)

#include "keras/layers/pooling/base_global_pooling.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.GlobalAveragePooling1D's keyword arguments (see BaseGlobalPoolingOptions).
using GlobalAveragePooling1DOptions = BaseGlobalPoolingOptions;
/// keras.layers.GlobalAveragePooling2D's keyword arguments (see BaseGlobalPoolingOptions).
using GlobalAveragePooling2DOptions = BaseGlobalPoolingOptions;
/// keras.layers.GlobalAveragePooling3D's keyword arguments (see BaseGlobalPoolingOptions).
using GlobalAveragePooling3DOptions = BaseGlobalPoolingOptions;

/// Keras's "GlobalAveragePooling1D".
class GlobalAveragePooling1DLayer : public BaseGlobalPoolingLayer {
 public:
  /// keras.layers.GlobalAveragePooling1D: pools over every spatial position.
  explicit GlobalAveragePooling1DLayer(GlobalAveragePooling1DOptions options = {});
  std::string class_name() const override { return "GlobalAveragePooling1D"; }
  /// With ctx.mask (batch, steps): the mean over the unmasked steps.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// The output has no steps left to mask.
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "GlobalAveragePooling2D".
class GlobalAveragePooling2DLayer : public BaseGlobalPoolingLayer {
 public:
  /// keras.layers.GlobalAveragePooling2D: pools over every spatial position.
  explicit GlobalAveragePooling2DLayer(GlobalAveragePooling2DOptions options = {});
  std::string class_name() const override { return "GlobalAveragePooling2D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "GlobalAveragePooling3D".
class GlobalAveragePooling3DLayer : public BaseGlobalPoolingLayer {
 public:
  /// keras.layers.GlobalAveragePooling3D: pools over every spatial position.
  explicit GlobalAveragePooling3DLayer(GlobalAveragePooling3DOptions options = {});
  std::string class_name() const override { return "GlobalAveragePooling3D"; }
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Global average pooling over 1 spatial dimension.
LayerPtr<GlobalAveragePooling1DLayer> GlobalAveragePooling1D(
    GlobalAveragePooling1DOptions options = {});
/// Global average pooling over 2 spatial dimensions.
LayerPtr<GlobalAveragePooling2DLayer> GlobalAveragePooling2D(
    GlobalAveragePooling2DOptions options = {});
/// Global average pooling over 3 spatial dimensions.
LayerPtr<GlobalAveragePooling3DLayer> GlobalAveragePooling3D(
    GlobalAveragePooling3DOptions options = {});
/// Keras's aliases.
LayerPtr<GlobalAveragePooling1DLayer> GlobalAvgPool1D(GlobalAveragePooling1DOptions options = {});
/// Keras's alias of GlobalAveragePooling2D.
LayerPtr<GlobalAveragePooling2DLayer> GlobalAvgPool2D(GlobalAveragePooling2DOptions options = {});
/// Keras's alias of GlobalAveragePooling3D.
LayerPtr<GlobalAveragePooling3DLayer> GlobalAvgPool3D(GlobalAveragePooling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

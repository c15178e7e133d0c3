#pragma once
// The keyword arguments every keras.applications model takes, with Keras 3.15's names and
// defaults:
//
//   auto model = keras::applications::ResNet50({.include_top = false, .weights = "",
//                                               .input_shape = Shape{160, 160, 3}, .pooling = "avg"});
//
// Family-specific arguments (MobileNet's alpha, ...) come in a second options struct.

#include <optional>
#include <string>

#include "keras/activations/activation.h"
#include "keras/core/shape.h"
#include "keras/layers/keras_tensor.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// The keyword arguments shared by the keras.applications model functions, with Keras's defaults.
struct ApplicationOptions {
  /// With the classifier on top (the input shape is then fixed to the architecture's default
  /// unless `weights` is empty or a file).
  bool include_top = true;
  /// "imagenet" (Keras's default): the weights file Keras downloads, read from the folder
  /// Keras caches it in ($KERAS_HOME/models, default ~/.keras/models; keras-cpp never
  /// downloads, so copy the file there or pass its path); "" for random initialization
  /// (Keras's None); or the path of a weights file (.weights.h5, legacy .h5, .keras).
  std::string weights = "imagenet";
  /// A symbolic tensor to build the model on (Keras's input_tensor); unset: a new Input.
  std::optional<KerasTensor> input_tensor;
  /// The image shape without the batch axis, -1 for an unknown size; unset: the
  /// architecture's default size with top, (-1, -1, 3) without.
  std::optional<Shape> input_shape;
  /// Without top: "" (the last feature map), "avg" or "max" (global pooling).
  std::string pooling;
  /// The number of classes of the classifier (Keras's `classes`); 1000 with "imagenet" weights.
  int64_t classes = 1000;
  /// The activation of the classifier; "" for logits (Keras's None).
  activations::Activation classifier_activation = "softmax";
  /// The model's name; empty for the architecture's (Keras's default name).
  std::string name;
  /// ConvNeXt, EfficientNetV2 and MobileNetV3 only: the model starts with its own input
  /// scaling (Rescaling/Normalization), so it takes pixels in [0, 255].
  bool include_preprocessing = true;
};

}  // namespace keras::applications

#pragma GCC visibility pop

#pragma once
// keras.applications.MobileNetV3Small and MobileNetV3Large (Howard et al., 2019): the same
// layers, names and weights as Keras 3.15, its hard sigmoid included (keras.ops nodes
// `x + 3.0` and `* (1/6)` in the graph, as Keras records them).
//
//   auto model = keras::applications::MobileNetV3Small({.include_top = false, .weights = "",
//                                                       .input_shape = Shape{96, 96, 3}},
//                                                      {.alpha = 0.75});
//
// The model scales its own input (a Rescaling layer) unless include_preprocessing is false:
// it takes pixels in [0, 255], and mobilenet_v3::preprocess_input is the identity, as in Keras.

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// MobileNetV3's own keyword arguments.
struct MobileNetV3Options {
  /// Width multiplier (ImageNet weights: 0.75 or 1.0; minimalistic 1.0 only).
  double alpha = 1.0;
  /// Without squeeze-and-excite, hard swish and 5x5 kernels (ReLU and 3x3 throughout).
  bool minimalistic = false;
  /// The dropout rate before the classifier (0: no Dropout layer).
  double dropout_rate = 0.2;
};

/// Named "MobileNetV3Small" unless options.name says otherwise, as in Keras. Unlike the other
/// architectures, the input size stays free with top (the head is pooled to 1x1 first).
ModelPtr<FunctionalModel> MobileNetV3Small(const ApplicationOptions& options = {},
                                           const MobileNetV3Options& mobilenet = {});
/// Named "MobileNetV3Large" unless options.name says otherwise.
ModelPtr<FunctionalModel> MobileNetV3Large(const ApplicationOptions& options = {},
                                           const MobileNetV3Options& mobilenet = {});

namespace mobilenet_v3 {
/// The identity, as in Keras: the model does its own input scaling.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace mobilenet_v3

}  // namespace keras::applications

#pragma GCC visibility pop

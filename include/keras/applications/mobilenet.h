#pragma once
// keras.applications.MobileNet (Howard et al., 2017) and MobileNetV2 (Sandler et al., 2018):
// the same layers, names and weights as Keras 3.15.
//
//   auto model = keras::applications::MobileNetV2({.include_top = false, .weights = "",
//                                                  .input_shape = Shape{96, 96, 3}}, {.alpha = 0.35});

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// MobileNet's own keyword arguments.
struct MobileNetOptions {
  /// Width multiplier: every layer's filters times alpha (ImageNet weights: 0.25, 0.5, 0.75, 1).
  double alpha = 1.0;
  /// Depthwise channels per input channel (ImageNet weights: 1).
  int64_t depth_multiplier = 1;
  /// The dropout rate before the classifier.
  double dropout = 0.001;
};

/// MobileNetV2's own keyword arguments.
struct MobileNetV2Options {
  /// Width multiplier (ImageNet weights: 0.35, 0.5, 0.75, 1.0, 1.3, 1.4).
  double alpha = 1.0;
};

/// Named "mobilenet_<alpha>_<rows>" unless options.name says otherwise, as in Keras.
ModelPtr<FunctionalModel> MobileNet(const ApplicationOptions& options = {},
                                    const MobileNetOptions& mobilenet = {});
/// Named "mobilenetv2_<alpha>_<rows>" unless options.name says otherwise, as in Keras.
ModelPtr<FunctionalModel> MobileNetV2(const ApplicationOptions& options = {},
                                      const MobileNetV2Options& mobilenet = {});

namespace mobilenet {
/// "tf" scaling: pixels to [-1, 1].
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace mobilenet
namespace mobilenet_v2 = mobilenet;

}  // namespace keras::applications

#pragma GCC visibility pop

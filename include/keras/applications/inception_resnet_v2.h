#pragma once
// keras.applications.InceptionResNetV2 (Szegedy et al., 2016): the same layers, layer names
// and weights as Keras 3.15, its residual scaling included (Keras's CustomScaleLayer, which
// keras-cpp reads and writes under Keras's name).
//
//   auto model = keras::applications::InceptionResNetV2({.include_top = false, .weights = "",
//                                                         .input_shape = keras::Shape{150, 150, 3}});

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// Default input 299x299, at least 75x75.
ModelPtr<FunctionalModel> InceptionResNetV2(const ApplicationOptions& options = {});

namespace inception_resnet_v2 {
/// "tf" scaling: pixels to [-1, 1].
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace inception_resnet_v2

}  // namespace keras::applications

#pragma GCC visibility pop

#pragma once
// keras.applications.Xception (Chollet, 2017): the same layers, names and weights as Keras 3.15.
//
//   auto model = keras::applications::Xception({.include_top = false, .weights = "",
//                                               .input_shape = Shape{96, 96, 3}, .pooling = "avg"});

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// Default input 299x299, at least 71x71, as in Keras.
ModelPtr<FunctionalModel> Xception(const ApplicationOptions& options = {});

namespace xception {
/// "tf" scaling: pixels to [-1, 1].
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace xception

}  // namespace keras::applications

#pragma GCC visibility pop

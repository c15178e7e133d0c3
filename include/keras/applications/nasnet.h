#pragma once
// keras.applications.NASNetMobile and NASNetLarge (Zoph et al., 2018): the same layers, layer
// names, weight paths (with Keras's name scopes) and weights as Keras 3.15. channels_last only,
// as in Keras.
//
//   auto model = keras::applications::NASNetMobile({.weights = "nasnet_mobile.h5"});
//   auto probs = model->predict(keras::applications::nasnet::preprocess_input(images));

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// Default input 224x224 (also without top when no input_shape is given), at least 32x32.
ModelPtr<FunctionalModel> NASNetMobile(const ApplicationOptions& options = {});
/// Default input 331x331, at least 32x32.
ModelPtr<FunctionalModel> NASNetLarge(const ApplicationOptions& options = {});

namespace nasnet {
/// "tf" scaling: pixels to [-1, 1].
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace nasnet

}  // namespace keras::applications

#pragma GCC visibility pop

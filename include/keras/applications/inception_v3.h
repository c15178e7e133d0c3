#pragma once
// keras.applications.InceptionV3 (Szegedy et al., 2015): the same layers, automatic layer
// names and weights as Keras 3.15.
//
//   auto model = keras::applications::InceptionV3({.weights = "inception_v3_weights_tf_dim_ordering_tf_kernels.h5"});
//   auto probs = model->predict(keras::applications::inception_v3::preprocess_input(images));

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// Default input 299x299, at least 75x75.
ModelPtr<FunctionalModel> InceptionV3(const ApplicationOptions& options = {});

namespace inception_v3 {
/// "tf" scaling: pixels to [-1, 1].
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace inception_v3

}  // namespace keras::applications

#pragma GCC visibility pop

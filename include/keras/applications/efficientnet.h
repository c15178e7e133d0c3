#pragma once
// keras.applications.EfficientNetB0 .. B7 (Tan and Le, 2019): the same layers, names and
// weights as Keras 3.15. The model scales its own input (Rescaling and Normalization layers),
// so it takes pixels in [0, 255] and preprocess_input is the identity, as in Keras.
//
//   auto model = keras::applications::EfficientNetB0({.weights = "efficientnetb0.h5"});
//   auto probs = model->predict(images);   // pixels in [0, 255]

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

// With weights="imagenet" Keras adds a third input layer (a Rescaling by 1/sqrt(ImageNet
// deviation), which its ImageNet weights expect); keras-cpp does the same. options.
// include_preprocessing does not apply: EfficientNet always scales its input.
ModelPtr<FunctionalModel> EfficientNetB0(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB1(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB2(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB3(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB4(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB5(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB6(const ApplicationOptions& options = {});
ModelPtr<FunctionalModel> EfficientNetB7(const ApplicationOptions& options = {});

namespace efficientnet {
/// The identity (Keras keeps it for old code): the model scales its input itself.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace efficientnet

}  // namespace keras::applications

#pragma GCC visibility pop

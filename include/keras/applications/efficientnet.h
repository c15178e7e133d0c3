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
/// keras.applications.EfficientNetB0 (default input 224x224).
ModelPtr<FunctionalModel> EfficientNetB0(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB1 (default input 240x240).
ModelPtr<FunctionalModel> EfficientNetB1(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB2 (default input 260x260).
ModelPtr<FunctionalModel> EfficientNetB2(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB3 (default input 300x300).
ModelPtr<FunctionalModel> EfficientNetB3(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB4 (default input 380x380).
ModelPtr<FunctionalModel> EfficientNetB4(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB5 (default input 456x456).
ModelPtr<FunctionalModel> EfficientNetB5(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB6 (default input 528x528).
ModelPtr<FunctionalModel> EfficientNetB6(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetB7 (default input 600x600).
ModelPtr<FunctionalModel> EfficientNetB7(const ApplicationOptions& options = {});

namespace efficientnet {
/// The identity (Keras keeps it for old code): the model scales its input itself.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace efficientnet

}  // namespace keras::applications

#pragma GCC visibility pop

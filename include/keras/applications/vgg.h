#pragma once
// keras.applications.VGG16 and VGG19 (Simonyan & Zisserman, 2014): the same layers, names and
// weights as Keras 3.15.
//
//   auto model = keras::applications::VGG16({.include_top = false, .weights = ""});

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// keras.applications.VGG16 (default input 224x224; "caffe" preprocessing).
ModelPtr<FunctionalModel> VGG16(const ApplicationOptions& options = {});
/// keras.applications.VGG19 (default input 224x224; "caffe" preprocessing).
ModelPtr<FunctionalModel> VGG19(const ApplicationOptions& options = {});

namespace vgg16 {
/// "caffe" scaling: BGR, minus the ImageNet channel means.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace vgg16
namespace vgg19 = vgg16;

}  // namespace keras::applications

#pragma GCC visibility pop

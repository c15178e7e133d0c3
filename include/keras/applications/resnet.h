#pragma once
// keras.applications.ResNet50/101/152 (He et al., 2015) and ResNet50V2/101V2/152V2 (He et al.,
// 2016, pre-activation): the same layers, names and weights as Keras 3.15.
//
//   auto model = keras::applications::ResNet50({.weights = "resnet50_weights.h5"});
//   auto probs = model->predict(keras::applications::resnet::preprocess_input(images));

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// keras.applications.ResNet50 (default input 224x224; "caffe" preprocessing).
ModelPtr<FunctionalModel> ResNet50(const ApplicationOptions& options = {});
/// keras.applications.ResNet101 (default input 224x224; "caffe" preprocessing).
ModelPtr<FunctionalModel> ResNet101(const ApplicationOptions& options = {});
/// keras.applications.ResNet152 (default input 224x224; "caffe" preprocessing).
ModelPtr<FunctionalModel> ResNet152(const ApplicationOptions& options = {});
/// keras.applications.ResNet50V2, pre-activation (default input 224x224; "tf" preprocessing).
ModelPtr<FunctionalModel> ResNet50V2(const ApplicationOptions& options = {});
/// keras.applications.ResNet101V2, pre-activation (default input 224x224; "tf" preprocessing).
ModelPtr<FunctionalModel> ResNet101V2(const ApplicationOptions& options = {});
/// keras.applications.ResNet152V2, pre-activation (default input 224x224; "tf" preprocessing).
ModelPtr<FunctionalModel> ResNet152V2(const ApplicationOptions& options = {});

namespace resnet {
/// "caffe" scaling: BGR, minus the ImageNet channel means.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace resnet
namespace resnet50 = resnet;

namespace resnet_v2 {
/// "tf" scaling: pixels to [-1, 1].
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace resnet_v2

}  // namespace keras::applications

#pragma GCC visibility pop

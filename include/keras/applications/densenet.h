#pragma once
// keras.applications.DenseNet121/169/201 (Huang et al., 2017): the same layers, names and
// weights as Keras 3.15. Like Keras, channels_last only.
//
//   auto model = keras::applications::DenseNet121({.include_top = false, .weights = "",
//                                                  .input_shape = Shape{96, 96, 3}, .pooling = "avg"});

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

/// keras.applications.DenseNet121 (default input 224x224).
ModelPtr<FunctionalModel> DenseNet121(const ApplicationOptions& options = {});
/// keras.applications.DenseNet169 (default input 224x224).
ModelPtr<FunctionalModel> DenseNet169(const ApplicationOptions& options = {});
/// keras.applications.DenseNet201 (default input 224x224).
ModelPtr<FunctionalModel> DenseNet201(const ApplicationOptions& options = {});

namespace densenet {
/// "torch" scaling: pixels to [0, 1], then the ImageNet mean and deviation of each channel.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace densenet

}  // namespace keras::applications

#pragma GCC visibility pop

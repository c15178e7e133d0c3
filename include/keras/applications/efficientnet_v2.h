#pragma once
// keras.applications.EfficientNetV2B0 .. B3, S, M, L (Tan and Le, 2021): the same layers,
// names and weights as Keras 3.15. With include_preprocessing (the default) the model scales
// its own input, so it takes pixels in [0, 255] and preprocess_input is the identity, as in
// Keras.
//
//   auto model = keras::applications::EfficientNetV2S({.weights = "efficientnetv2-s.h5"});
//   auto probs = model->predict(images);   // pixels in [0, 255]

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

// Keras 3.15 picks the block table and the input scaling by the model's name, so
// options.name must be one of the seven variants' names ("efficientnetv2-b0" .. "-b3", "-s",
// "-m", "-l"; another raises ValueError where Keras raises KeyError); the name of another
// variant builds that variant's blocks with this function's width, depth and default size, as
// in Keras. With include_preprocessing, B0 .. B3 (3 channels) get EfficientNet's [0, 1]
// scaling and ImageNet normalization, S, M and L a Rescaling to [-1, 1].
/// keras.applications.EfficientNetV2B0 (default input 224x224). As in Keras, a given
/// options.name must be a variant's name ("efficientnetv2-b0" .. "-l"), which picks the blocks.
ModelPtr<FunctionalModel> EfficientNetV2B0(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetV2B1 (default input 240x240).
ModelPtr<FunctionalModel> EfficientNetV2B1(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetV2B2 (default input 260x260).
ModelPtr<FunctionalModel> EfficientNetV2B2(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetV2B3 (default input 300x300).
ModelPtr<FunctionalModel> EfficientNetV2B3(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetV2S (default input 384x384).
ModelPtr<FunctionalModel> EfficientNetV2S(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetV2M (default input 480x480).
ModelPtr<FunctionalModel> EfficientNetV2M(const ApplicationOptions& options = {});
/// keras.applications.EfficientNetV2L (default input 480x480).
ModelPtr<FunctionalModel> EfficientNetV2L(const ApplicationOptions& options = {});

namespace efficientnet_v2 {
/// The identity (Keras keeps it for old code): the model scales its input itself.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace efficientnet_v2

}  // namespace keras::applications

#pragma GCC visibility pop

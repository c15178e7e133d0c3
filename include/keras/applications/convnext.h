#pragma once
// keras.applications.ConvNeXtTiny/Small/Base/Large/XLarge (Liu et al., 2022): the same layers,
// names and weights as Keras 3.15 (the stem and downsampling blocks are nested Sequential
// models, the blocks end in a LayerScale layer and an add, as in Keras). With
// include_preprocessing (the default) the model normalizes its own input, so it takes pixels
// in [0, 255] and preprocess_input is the identity, as in Keras.
//
//   auto model = keras::applications::ConvNeXtTiny({.weights = "convnext_tiny.h5"});
//   auto probs = model->predict(images);   // pixels in [0, 255]

#include "keras/applications/application_options.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/models/functional.h"

#pragma GCC visibility push(default)
namespace keras::applications {

// Layer names start with the model's name (options.name, else "convnext_tiny" ...), as in
// Keras. channels_first raises ValueError, as in Keras.
/// keras.applications.ConvNeXtTiny (default input 224x224).
ModelPtr<FunctionalModel> ConvNeXtTiny(const ApplicationOptions& options = {});
/// keras.applications.ConvNeXtSmall (default input 224x224).
ModelPtr<FunctionalModel> ConvNeXtSmall(const ApplicationOptions& options = {});
/// keras.applications.ConvNeXtBase (default input 224x224).
ModelPtr<FunctionalModel> ConvNeXtBase(const ApplicationOptions& options = {});
/// keras.applications.ConvNeXtLarge (default input 224x224).
ModelPtr<FunctionalModel> ConvNeXtLarge(const ApplicationOptions& options = {});
/// keras.applications.ConvNeXtXLarge (default input 224x224).
ModelPtr<FunctionalModel> ConvNeXtXLarge(const ApplicationOptions& options = {});

namespace convnext {
/// The identity (Keras keeps it for old code): the model normalizes its input itself.
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "");
using imagenet_utils::decode_predictions;
}  // namespace convnext

}  // namespace keras::applications

#pragma GCC visibility pop

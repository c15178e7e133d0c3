#pragma once
// keras-cpp's keras.applications functions by their Keras name, called with the keyword
// arguments tools/keras_oracle/applications.py passed to Keras (weights always random).

#include <nlohmann/json.hpp>
#include <string>

#include <keras/keras.h>

namespace keras::tools {

/// The model `function` ("ResNet50", ...) builds with Keras's `kwargs`; ValueError for a name
/// keras-cpp does not have.
ModelPtr<FunctionalModel> build_application(const std::string& function,
                                            const nlohmann::json& kwargs);

/// The preprocess_input of the keras.applications module `module` ("resnet", ...).
Tensor preprocess(const std::string& module, const Tensor& images);

}  // namespace keras::tools

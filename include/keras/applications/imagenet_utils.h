#pragma once
// keras.applications.imagenet_utils: the input scaling each architecture expects and the
// ImageNet class names of a prediction.
//
//   auto x = keras::applications::resnet::preprocess_input(images);    // pixels in [0, 255]
//   auto top5 = keras::applications::imagenet_utils::decode_predictions(model->predict(x));

#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::applications::imagenet_utils {

/// Scales a batch (or one image) of pixels in [0, 255] as Keras does, by `mode`:
/// "caffe" (RGB to BGR, minus the ImageNet mean of each channel, no scaling), "tf" (to
/// [-1, 1]) or "torch" (to [0, 1], then the ImageNet mean and standard deviation of each
/// channel). Integer images become floatx(). `data_format`: "" for image_data_format().
Tensor preprocess_input(const Tensor& x, const std::string& data_format = "",
                        const std::string& mode = "caffe");

/// One class of a decoded prediction.
struct DecodedPrediction {
  /// The WordNet id ("n01440764").
  std::string class_id;    // the WordNet id, "n01440764"
  /// The readable class name ("tench").
  std::string class_name;  // "tench"
  /// The prediction's value for the class (a probability after softmax).
  float score = 0;
};

/// The `top` classes of each row of a (samples, 1000) prediction, best first. The class names
/// come from `class_index_path` (Keras's imagenet_class_index.json), by default the copy Keras
/// caches in $KERAS_HOME/models (keras-cpp never downloads it).
std::vector<std::vector<DecodedPrediction>> decode_predictions(
    const Tensor& preds, int top = 5, const std::string& class_index_path = "");

}  // namespace keras::applications::imagenet_utils

#pragma GCC visibility pop

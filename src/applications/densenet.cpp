// Facts from keras/src/applications/densenet.py: the dense and transition blocks, layer names,
// epsilon 1.001e-5, the two unnamed ZeroPadding2D of the stem, the weight file names.

#include "keras/applications/densenet.h"

#include <array>

#include "application_builder.h"
#include "keras/core/config.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::bn_axis;

constexpr double kDenseNetBnEpsilon = 1.001e-5;
constexpr int64_t kGrowthRate = 32;

KerasTensor bn_relu(const KerasTensor& x, const std::string& name) {
  auto y = layers::BatchNormalization(
      {.axis = bn_axis(), .epsilon = kDenseNetBnEpsilon, .name = name + "_bn"})(x);
  return layers::Activation("relu", {.name = name + "_relu"})(y);
}

// densenet.conv_block: a 1x1 bottleneck and a 3x3 convolution whose `growth` new channels
// are concatenated to the input.
KerasTensor conv_block(const KerasTensor& x, const std::string& name) {
  auto y = bn_relu(x, name + "_0");
  y = layers::Conv2D(4 * kGrowthRate, 1, {.use_bias = false, .name = name + "_1_conv"})(y);
  y = bn_relu(y, name + "_1");
  y = layers::Conv2D(kGrowthRate, 3, {.padding = "same", .use_bias = false,
                                      .name = name + "_2_conv"})(y);
  return detail::merge(layers::Concatenate(bn_axis(), {.name = name + "_concat"}), {x, y});
}

KerasTensor dense_block(KerasTensor x, int blocks, const std::string& name) {
  for (int i = 1; i <= blocks; ++i) x = conv_block(x, name + "_block" + std::to_string(i));
  return x;
}

// densenet.transition_block: halves the channels (reduction 0.5) and the spatial size.
KerasTensor transition_block(const KerasTensor& x, const std::string& name) {
  auto y = bn_relu(x, name);
  const auto channels = static_cast<int64_t>(static_cast<double>(y.shape()[bn_axis()]) * 0.5);
  y = layers::Conv2D(channels, 1, {.use_bias = false, .name = name + "_conv"})(y);
  return layers::AveragePooling2D(2, {.strides = 2, .name = name + "_pool"})(y);
}

// densenet.DenseNet: stem, four dense blocks with transitions between them, top.
ModelPtr<FunctionalModel> build_densenet(const ApplicationOptions& options,
                                         const std::array<int, 4>& blocks,
                                         const std::string& name) {
  check<ValueError>(config::image_data_format() == "channels_last",
                    "DenseNet does not support the `channels_first` image data format. Switch "
                    "to `channels_last` (keras::config::set_image_data_format or keras.json).");
  const detail::Architecture arch{
      .default_name = name,
      .weights_file_top = name + "_weights_tf_dim_ordering_tf_kernels.h5",
      .weights_file_notop = name + "_weights_tf_dim_ordering_tf_kernels_notop.h5"};
  auto image = detail::image_input(options, arch);
  auto x = layers::ZeroPadding2D(layers::SidePairs{{3, 3}, {3, 3}})(image);
  x = layers::Conv2D(64, 7, {.strides = 2, .use_bias = false, .name = "conv1_conv"})(x);
  x = bn_relu(x, "conv1");
  x = layers::ZeroPadding2D(layers::SidePairs{{1, 1}, {1, 1}})(x);
  x = layers::MaxPooling2D(3, {.strides = 2, .name = "pool1"})(x);
  for (int s = 0; s < 4; ++s) {
    x = dense_block(x, blocks[s], "conv" + std::to_string(s + 2));
    if (s < 3) x = transition_block(x, "pool" + std::to_string(s + 2));
  }
  x = layers::BatchNormalization({.axis = bn_axis(), .epsilon = kDenseNetBnEpsilon, .name = "bn"})(
      x);
  x = layers::Activation("relu", {.name = "relu"})(x);
  x = detail::classifier_head(x, options);
  return detail::finish(image, x, options, arch);
}

}  // namespace

ModelPtr<FunctionalModel> DenseNet121(const ApplicationOptions& o) {
  return build_densenet(o, {6, 12, 24, 16}, "densenet121");
}
ModelPtr<FunctionalModel> DenseNet169(const ApplicationOptions& o) {
  return build_densenet(o, {6, 12, 32, 32}, "densenet169");
}
ModelPtr<FunctionalModel> DenseNet201(const ApplicationOptions& o) {
  return build_densenet(o, {6, 12, 48, 32}, "densenet201");
}

namespace densenet {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "torch");
}
}  // namespace densenet

}  // namespace keras::applications

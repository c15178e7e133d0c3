// Facts from keras/src/applications/resnet.py and resnet_v2.py: block structure, layer names,
// epsilon 1.001e-5, and the weight file names Keras downloads.

#include "keras/applications/resnet.h"

#include "application_builder.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::bn_axis;
using detail::merge;

constexpr double kResNetBnEpsilon = 1.001e-5;

KerasTensor resnet_conv_bn(const KerasTensor& x, int64_t filters, int64_t kernel, int64_t stride,
                           const std::string& padding, const std::string& name) {
  auto y = layers::Conv2D(filters, kernel,
                          {.strides = stride, .padding = padding, .name = name + "_conv"})(x);
  return layers::BatchNormalization(
      {.axis = bn_axis(), .epsilon = kResNetBnEpsilon, .name = name + "_bn"})(y);
}

// resnet.residual_block_v1: a bottleneck with a projection or identity shortcut.
KerasTensor block_v1(const KerasTensor& x, int64_t filters, int64_t stride, bool conv_shortcut,
                     const std::string& name) {
  KerasTensor shortcut =
      conv_shortcut ? resnet_conv_bn(x, 4 * filters, 1, stride, "valid", name + "_0") : x;
  auto y = resnet_conv_bn(x, filters, 1, stride, "valid", name + "_1");
  y = layers::Activation("relu", {.name = name + "_1_relu"})(y);
  y = resnet_conv_bn(y, filters, 3, 1, "same", name + "_2");
  y = layers::Activation("relu", {.name = name + "_2_relu"})(y);
  y = resnet_conv_bn(y, 4 * filters, 1, 1, "valid", name + "_3");
  y = merge(layers::Add({.name = name + "_add"}), {shortcut, y});
  return layers::Activation("relu", {.name = name + "_out"})(y);
}

KerasTensor stack_v1(KerasTensor x, int64_t filters, int blocks, int64_t stride1,
                     const std::string& name) {
  x = block_v1(x, filters, stride1, true, name + "_block1");
  for (int i = 2; i <= blocks; ++i) {
    x = block_v1(x, filters, 1, false, name + "_block" + std::to_string(i));
  }
  return x;
}

// resnet.residual_block_v2: pre-activation bottleneck; the stride sits on the 3x3
// convolution, and an identity shortcut of a strided block is a 1x1 max pooling.
KerasTensor block_v2(const KerasTensor& x, int64_t filters, int64_t stride, bool conv_shortcut,
                     const std::string& name) {
  auto preact = layers::BatchNormalization(
      {.axis = bn_axis(), .epsilon = kResNetBnEpsilon, .name = name + "_preact_bn"})(x);
  preact = layers::Activation("relu", {.name = name + "_preact_relu"})(preact);
  KerasTensor shortcut;
  if (conv_shortcut) {
    shortcut = layers::Conv2D(4 * filters, 1, {.strides = stride, .name = name + "_0_conv"})(
        preact);
  } else {
    shortcut = stride > 1 ? layers::MaxPooling2D(1, {.strides = stride})(x) : x;
  }
  auto y = layers::Conv2D(filters, 1, {.strides = 1, .use_bias = false,
                                       .name = name + "_1_conv"})(preact);
  y = layers::BatchNormalization(
      {.axis = bn_axis(), .epsilon = kResNetBnEpsilon, .name = name + "_1_bn"})(y);
  y = layers::Activation("relu", {.name = name + "_1_relu"})(y);
  y = layers::ZeroPadding2D(layers::SidePairs{{1, 1}, {1, 1}}, {.name = name + "_2_pad"})(y);
  y = layers::Conv2D(filters, 3, {.strides = stride, .use_bias = false,
                                  .name = name + "_2_conv"})(y);
  y = layers::BatchNormalization(
      {.axis = bn_axis(), .epsilon = kResNetBnEpsilon, .name = name + "_2_bn"})(y);
  y = layers::Activation("relu", {.name = name + "_2_relu"})(y);
  y = layers::Conv2D(4 * filters, 1, {.name = name + "_3_conv"})(y);
  return merge(layers::Add({.name = name + "_out"}), {shortcut, y});
}

KerasTensor stack_v2(KerasTensor x, int64_t filters, int blocks, int64_t stride1,
                     const std::string& name) {
  x = block_v2(x, filters, 1, true, name + "_block1");
  for (int i = 2; i < blocks; ++i) {
    x = block_v2(x, filters, 1, false, name + "_block" + std::to_string(i));
  }
  return block_v2(x, filters, stride1, false, name + "_block" + std::to_string(blocks));
}

// The blocks per stage (conv2 .. conv5).
using ResNetDepths = std::array<int, 4>;

// resnet.ResNet: stem, four stages, top.
ModelPtr<FunctionalModel> build_resnet(const ApplicationOptions& options, bool preact,
                                       const Depths& depths, const std::string& weights_name) {
  const detail::Architecture arch{
      .default_name = weights_name,
      .weights_file_top = weights_name + "_weights_tf_dim_ordering_tf_kernels.h5",
      .weights_file_notop = weights_name + "_weights_tf_dim_ordering_tf_kernels_notop.h5"};
  auto image = detail::image_input(options, arch);
  auto x = layers::ZeroPadding2D(layers::SidePairs{{3, 3}, {3, 3}}, {.name = "conv1_pad"})(image);
  x = layers::Conv2D(64, 7, {.strides = 2, .use_bias = true, .name = "conv1_conv"})(x);
  if (!preact) {
    x = layers::BatchNormalization(
        {.axis = bn_axis(), .epsilon = kResNetBnEpsilon, .name = "conv1_bn"})(x);
    x = layers::Activation("relu", {.name = "conv1_relu"})(x);
  }
  x = layers::ZeroPadding2D(layers::SidePairs{{1, 1}, {1, 1}}, {.name = "pool1_pad"})(x);
  x = layers::MaxPooling2D(3, {.strides = 2, .name = "pool1_pool"})(x);
  const std::array<int64_t, 4> filters{64, 128, 256, 512};
  for (int s = 0; s < 4; ++s) {
    const std::string name = "conv" + std::to_string(s + 2);
    if (preact) {
      x = stack_v2(x, filters[s], depths[s], s == 3 ? 1 : 2, name);
    } else {
      x = stack_v1(x, filters[s], depths[s], s == 0 ? 1 : 2, name);
    }
  }
  if (preact) {
    x = layers::BatchNormalization(
        {.axis = bn_axis(), .epsilon = kResNetBnEpsilon, .name = "post_bn"})(x);
    x = layers::Activation("relu", {.name = "post_relu"})(x);
  }
  x = detail::classifier_head(x, options);
  return detail::finish(image, x, options, arch);
}

}  // namespace

ModelPtr<FunctionalModel> ResNet50(const ApplicationOptions& o) {
  return build_resnet(o, false, {3, 4, 6, 3}, "resnet50");
}
ModelPtr<FunctionalModel> ResNet101(const ApplicationOptions& o) {
  return build_resnet(o, false, {3, 4, 23, 3}, "resnet101");
}
ModelPtr<FunctionalModel> ResNet152(const ApplicationOptions& o) {
  return build_resnet(o, false, {3, 8, 36, 3}, "resnet152");
}
ModelPtr<FunctionalModel> ResNet50V2(const ApplicationOptions& o) {
  return build_resnet(o, true, {3, 4, 6, 3}, "resnet50v2");
}
ModelPtr<FunctionalModel> ResNet101V2(const ApplicationOptions& o) {
  return build_resnet(o, true, {3, 4, 23, 3}, "resnet101v2");
}
ModelPtr<FunctionalModel> ResNet152V2(const ApplicationOptions& o) {
  return build_resnet(o, true, {3, 8, 36, 3}, "resnet152v2");
}

namespace resnet {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "caffe");
}
}  // namespace resnet

namespace resnet_v2 {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "tf");
}
}  // namespace resnet_v2

}  // namespace keras::applications

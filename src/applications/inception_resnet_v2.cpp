// Facts from keras/src/applications/inception_resnet_v2.py: the stem, the 10 block35, 20
// block17 and 10 block8 residual blocks with their scales, which layers carry names, the
// residual scaling layer (CustomScaleLayer) and the weight file names.

#include "keras/applications/inception_resnet_v2.h"

#include "application_builder.h"
#include "custom_scale_layer.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::bn_axis;

struct ConvBn {
  int64_t stride = 1;
  std::string padding = "same";
  /// "" for none.
  std::string activation = "relu";
  /// With a bias and no BatchNormalization.
  bool use_bias = false;
  /// "" for automatic names.
  std::string name;
};

// inception_resnet_v2.conv2d_bn: the convolution named `name`, its BatchNormalization (no
// scale) `name`_bn and activation `name`_ac.
KerasTensor conv_bn(const KerasTensor& x, int64_t filters, const ops::IntOrTuple& kernel,
                    const ConvBn& o = {}) {
  auto y = layers::Conv2D(filters, kernel, {.strides = o.stride, .padding = o.padding,
                                            .use_bias = o.use_bias, .name = o.name})(x);
  if (!o.use_bias) {
    y = layers::BatchNormalization({.axis = bn_axis(), .scale = false,
                                    .name = o.name.empty() ? "" : o.name + "_bn"})(y);
  }
  if (!o.activation.empty()) {
    y = layers::Activation(o.activation, {.name = o.name.empty() ? "" : o.name + "_ac"})(y);
  }
  return y;
}

const ConvBn kValidStride2{.stride = 2, .padding = "valid"};

KerasTensor max_pool(const KerasTensor& x) {
  return layers::MaxPooling2D(3, {.strides = 2, .padding = "valid"})(x);
}

KerasTensor concat(const std::vector<KerasTensor>& branches, const std::string& name) {
  return detail::merge(layers::Concatenate(bn_axis(), {.name = name}), branches);
}

// inception_resnet_v2.inception_resnet_block: x + scale * (1x1 projection of the branches),
// through ReLU unless `activation` is false. Each branch is built in Keras's order (the
// automatic layer names count in that order).
KerasTensor residual_block(const KerasTensor& x, double scale, const std::string& type,
                           int index, bool activation = true) {
  std::vector<KerasTensor> branches;
  if (type == "block35") {
    branches.push_back(conv_bn(x, 32, 1));
    auto b1 = conv_bn(x, 32, 1);
    branches.push_back(conv_bn(b1, 32, 3));
    auto b2 = conv_bn(x, 32, 1);
    b2 = conv_bn(b2, 48, 3);
    branches.push_back(conv_bn(b2, 64, 3));
  } else if (type == "block17") {
    branches.push_back(conv_bn(x, 192, 1));
    auto b1 = conv_bn(x, 128, 1);
    b1 = conv_bn(b1, 160, {1, 7});
    branches.push_back(conv_bn(b1, 192, {7, 1}));
  } else {  // block8
    branches.push_back(conv_bn(x, 192, 1));
    auto b1 = conv_bn(x, 192, 1);
    b1 = conv_bn(b1, 224, {1, 3});
    branches.push_back(conv_bn(b1, 256, {3, 1}));
  }
  const std::string block = type + "_" + std::to_string(index);
  auto mixed = concat(branches, block + "_mixed");
  auto up = conv_bn(mixed, x.shape()[bn_axis()], 1,
                    {.activation = "", .use_bias = true, .name = block + "_conv"});
  auto y = detail::merge(make_layer<CustomScaleLayer>(scale), {x, up});
  if (activation) y = layers::Activation("relu", {.name = block + "_ac"})(y);
  return y;
}

}  // namespace

ModelPtr<FunctionalModel> InceptionResNetV2(const ApplicationOptions& o) {
  const detail::Architecture arch{
      .default_name = "inception_resnet_v2",
      .default_size = 299,
      .min_size = 75,
      .weights_file_top = "inception_resnet_v2_weights_tf_dim_ordering_tf_kernels.h5",
      .weights_file_notop = "inception_resnet_v2_weights_tf_dim_ordering_tf_kernels_notop.h5"};
  auto image = detail::image_input(o, arch);

  auto x = conv_bn(image, 32, 3, kValidStride2);
  x = conv_bn(x, 32, 3, {.padding = "valid"});
  x = conv_bn(x, 64, 3);
  x = max_pool(x);
  x = conv_bn(x, 80, 1, {.padding = "valid"});
  x = conv_bn(x, 192, 3, {.padding = "valid"});
  x = max_pool(x);

  // Mixed 5b (Inception-A).
  auto b0 = conv_bn(x, 96, 1);
  auto b1 = conv_bn(x, 48, 1);
  b1 = conv_bn(b1, 64, 5);
  auto b2 = conv_bn(x, 64, 1);
  b2 = conv_bn(b2, 96, 3);
  b2 = conv_bn(b2, 96, 3);
  auto pool = layers::AveragePooling2D(3, {.strides = 1, .padding = "same"})(x);
  pool = conv_bn(pool, 64, 1);
  x = concat({b0, b1, b2, pool}, "mixed_5b");
  for (int i = 1; i <= 10; ++i) x = residual_block(x, 0.17, "block35", i);

  // Mixed 6a (Reduction-A).
  b0 = conv_bn(x, 384, 3, kValidStride2);
  b1 = conv_bn(x, 256, 1);
  b1 = conv_bn(b1, 256, 3);
  b1 = conv_bn(b1, 384, 3, kValidStride2);
  x = concat({b0, b1, max_pool(x)}, "mixed_6a");
  for (int i = 1; i <= 20; ++i) x = residual_block(x, 0.1, "block17", i);

  // Mixed 7a (Reduction-B).
  b0 = conv_bn(x, 256, 1);
  b0 = conv_bn(b0, 384, 3, kValidStride2);
  b1 = conv_bn(x, 256, 1);
  b1 = conv_bn(b1, 288, 3, kValidStride2);
  b2 = conv_bn(x, 256, 1);
  b2 = conv_bn(b2, 288, 3);
  b2 = conv_bn(b2, 320, 3, kValidStride2);
  x = concat({b0, b1, b2, max_pool(x)}, "mixed_7a");
  for (int i = 1; i <= 9; ++i) x = residual_block(x, 0.2, "block8", i);
  x = residual_block(x, 1.0, "block8", 10, false);

  x = conv_bn(x, 1536, 1, {.name = "conv_7b"});
  x = detail::classifier_head(x, o, "avg_pool", "", "");
  return detail::finish(image, x, o, arch);
}

namespace inception_resnet_v2 {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "tf");
}
}  // namespace inception_resnet_v2

}  // namespace keras::applications

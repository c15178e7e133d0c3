// Facts from keras/src/applications/xception.py: entry, middle and exit flows, layer names,
// the unnamed residual Conv2D/BatchNormalization/add layers (created before the main path, so
// their automatic names count in that order), input 299 (at least 71) and the weight files.

#include "keras/applications/xception.h"

#include "application_builder.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::channel_axis;

KerasTensor xception_relu(const KerasTensor& x, const std::string& name) {
  return layers::Activation("relu", {.name = name})(x);
}

KerasTensor xception_batch_norm(const KerasTensor& x, const std::string& name = "") {
  return layers::BatchNormalization({.axis = channel_axis(), .name = name})(x);
}

// SeparableConv2D 3x3 "same" without bias, then its BatchNormalization ("<name>_bn").
KerasTensor sepconv_bn(const KerasTensor& x, int64_t filters, const std::string& name) {
  auto y = layers::SeparableConv2D(filters, 3, {.padding = "same", .use_bias = false,
                                                .name = name})(x);
  return xception_batch_norm(y, name + "_bn");
}

// The strided 1x1 projection of a downsampling block's shortcut (unnamed in Keras).
KerasTensor projection(const KerasTensor& x, int64_t filters) {
  return xception_batch_norm(
      layers::Conv2D(filters, 1, {.strides = 2, .padding = "same", .use_bias = false})(x));
}

KerasTensor xception_max_pool(const KerasTensor& x, const std::string& name) {
  return layers::MaxPooling2D(3, {.strides = 2, .padding = "same", .name = name})(x);
}

// Blocks 3, 4 (entry flow) and 13 (exit flow): two ReLU-SeparableConv-BN, max pooling, plus
// the projected shortcut.
KerasTensor downsampling_block(const KerasTensor& x, int64_t filters1, int64_t filters2,
                               const std::string& prefix) {
  auto residual = projection(x, filters2);
  auto y = sepconv_bn(xception_relu(x, prefix + "_sepconv1_act"), filters1, prefix + "_sepconv1");
  y = sepconv_bn(xception_relu(y, prefix + "_sepconv2_act"), filters2, prefix + "_sepconv2");
  y = xception_max_pool(y, prefix + "_pool");
  return layers::add({y, residual});
}

// Blocks 5-12 (middle flow): three ReLU-SeparableConv-BN around an identity shortcut.
KerasTensor middle_block(const KerasTensor& x, const std::string& prefix) {
  KerasTensor y = x;
  for (int i = 1; i <= 3; ++i) {
    const std::string name = prefix + "_sepconv" + std::to_string(i);
    y = sepconv_bn(xception_relu(y, name + "_act"), 728, name);
  }
  return layers::add({y, x});
}

}  // namespace

ModelPtr<FunctionalModel> Xception(const ApplicationOptions& o) {
  const detail::Architecture arch{
      .default_name = "xception",
      .default_size = 299,
      .min_size = 71,
      .weights_file_top = "xception_weights_tf_dim_ordering_tf_kernels.h5",
      .weights_file_notop = "xception_weights_tf_dim_ordering_tf_kernels_notop.h5"};
  auto image = detail::image_input(o, arch);

  auto x = layers::Conv2D(32, 3, {.strides = 2, .use_bias = false, .name = "block1_conv1"})(image);
  x = xception_relu(xception_batch_norm(x, "block1_conv1_bn"), "block1_conv1_act");
  x = layers::Conv2D(64, 3, {.use_bias = false, .name = "block1_conv2"})(x);
  x = xception_relu(xception_batch_norm(x, "block1_conv2_bn"), "block1_conv2_act");

  // Block 2 has no ReLU before its first separable convolution.
  auto residual = projection(x, 128);
  x = sepconv_bn(x, 128, "block2_sepconv1");
  x = sepconv_bn(xception_relu(x, "block2_sepconv2_act"), 128, "block2_sepconv2");
  x = layers::add({xception_max_pool(x, "block2_pool"), residual});

  x = downsampling_block(x, 256, 256, "block3");
  x = downsampling_block(x, 728, 728, "block4");
  for (int i = 5; i <= 12; ++i) x = middle_block(x, "block" + std::to_string(i));
  x = downsampling_block(x, 728, 1024, "block13");

  x = xception_relu(sepconv_bn(x, 1536, "block14_sepconv1"), "block14_sepconv1_act");
  x = xception_relu(sepconv_bn(x, 2048, "block14_sepconv2"), "block14_sepconv2_act");
  x = detail::classifier_head(x, o, "avg_pool", "", "");
  return detail::finish(image, x, o, arch);
}

namespace xception {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "tf");
}
}  // namespace xception

}  // namespace keras::applications

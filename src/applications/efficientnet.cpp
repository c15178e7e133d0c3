// Facts from keras/src/applications/efficientnet.py: the block table, the width and depth
// scaling, layer names, the input scaling and the weight file names Keras downloads.

#include "keras/applications/efficientnet.h"

#include <array>
#include <cmath>

#include "application_builder.h"
#include "keras/layers/layers.h"
#include "efficientnet_shared.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::bn_axis;
using detail::efficientnet_conv_initializer;

// One row of DEFAULT_BLOCKS_ARGS (id_skip is true and se_ratio 0.25 in every row).
struct BlockArgs {
  int64_t kernel_size, repeats, filters_in, filters_out, expand_ratio, strides;
};

constexpr std::array<BlockArgs, 7> kBlocks{{
    {3, 1, 32, 16, 1, 1},
    {3, 2, 16, 24, 6, 2},
    {5, 2, 24, 40, 6, 2},
    {3, 3, 40, 80, 6, 2},
    {5, 3, 80, 112, 6, 1},
    {5, 4, 112, 192, 6, 2},
    {3, 1, 192, 320, 6, 1},
}};
constexpr double kSeRatio = 0.25;
constexpr double kDropConnectRate = 0.2;
const std::string kActivation = "swish";

// efficientnet.block: expansion, depthwise convolution, squeeze-and-excitation, projection,
// and (same shape) dropout of whole samples plus the residual.
KerasTensor block(const KerasTensor& inputs, double drop_rate, const std::string& name,
                  int64_t filters_in, int64_t filters_out, int64_t kernel_size, int64_t strides,
                  int64_t expand_ratio) {
  const int64_t filters = filters_in * expand_ratio;
  KerasTensor x = inputs;
  if (expand_ratio != 1) {
    x = layers::Conv2D(filters, 1, {.padding = "same", .use_bias = false,
                                    .kernel_initializer = efficientnet_conv_initializer(),
                                    .name = name + "expand_conv"})(inputs);
    x = layers::BatchNormalization({.axis = bn_axis(), .name = name + "expand_bn"})(x);
    x = layers::Activation(kActivation, {.name = name + "expand_activation"})(x);
  }
  std::string conv_pad = "same";
  if (strides == 2) {
    auto [rows, cols] = detail::correct_pad(x, kernel_size);
    x = layers::ZeroPadding2D(layers::SidePairs{rows, cols}, {.name = name + "dwconv_pad"})(x);
    conv_pad = "valid";
  }
  x = layers::DepthwiseConv2D(kernel_size,
                              {.strides = strides, .padding = conv_pad, .use_bias = false,
                               .depthwise_initializer = efficientnet_conv_initializer(),
                               .name = name + "dwconv"})(x);
  x = layers::BatchNormalization({.axis = bn_axis(), .name = name + "bn"})(x);
  x = layers::Activation(kActivation, {.name = name + "activation"})(x);
  x = detail::squeeze_excite(x, filters_in, filters, kSeRatio, kActivation, name);
  x = layers::Conv2D(filters_out, 1, {.padding = "same", .use_bias = false,
                                      .kernel_initializer = efficientnet_conv_initializer(),
                                      .name = name + "project_conv"})(x);
  x = layers::BatchNormalization({.axis = bn_axis(), .name = name + "project_bn"})(x);
  if (strides == 1 && filters_in == filters_out) {
    if (drop_rate > 0) {
      x = layers::Dropout(drop_rate, {.noise_shape = Shape{-1, 1, 1, 1},
                                      .name = name + "drop"})(x);
    }
    x = detail::merge(layers::Add({.name = name + "add"}), {x, inputs});
  }
  return x;
}

// Keras's IMAGENET_STDDEV_RGB.
constexpr std::array<double, 3> kImagenetStddev{0.229, 0.224, 0.225};

// efficientnet.EfficientNet.
ModelPtr<FunctionalModel> build_efficientnet(const ApplicationOptions& options,
                                             double width_coefficient,
                                             double depth_coefficient, int64_t default_size,
                                             double dropout_rate, const std::string& name) {
  const detail::Architecture arch{.default_name = name, .default_size = default_size,
                                  .weights_file_top = name + ".h5",
                                  .weights_file_notop = name + "_notop.h5"};
  auto image = detail::image_input(options, arch);
  auto round_filters = [&](int64_t filters) {
    return detail::make_divisible(static_cast<double>(filters) * width_coefficient, 8);
  };
  auto round_repeats = [&](int64_t repeats) {
    return static_cast<int64_t>(std::ceil(depth_coefficient * static_cast<double>(repeats)));
  };

  auto x = layers::Rescaling(1.0 / 255.0)(image);
  x = layers::Normalization({.axis = {bn_axis()}})(x);
  if (options.weights == "imagenet") {
    // Keras's ImageNet weights expect (x - mean) / variance (tensorflow/tensorflow#49930):
    // the Normalization divides by the deviation, this by its square root once more.
    std::vector<double> scale;
    for (double stddev : kImagenetStddev) scale.push_back(1.0 / std::sqrt(stddev));
    x = layers::Rescaling(layers::ScaleValue(scale, Shape{3}))(x);
  }
  auto [rows, cols] = detail::correct_pad(x, 3);
  x = layers::ZeroPadding2D(layers::SidePairs{rows, cols}, {.name = "stem_conv_pad"})(x);
  x = layers::Conv2D(round_filters(32), 3,
                     {.strides = 2, .padding = "valid", .use_bias = false,
                      .kernel_initializer = efficientnet_conv_initializer(),
                      .name = "stem_conv"})(x);
  x = layers::BatchNormalization({.axis = bn_axis(), .name = "stem_bn"})(x);
  x = layers::Activation(kActivation, {.name = "stem_activation"})(x);

  double total = 0;
  for (const BlockArgs& args : kBlocks) total += static_cast<double>(round_repeats(args.repeats));
  int64_t b = 0;
  for (size_t i = 0; i < kBlocks.size(); ++i) {
    const BlockArgs& args = kBlocks[i];
    int64_t filters_in = round_filters(args.filters_in);
    const int64_t filters_out = round_filters(args.filters_out);
    int64_t strides = args.strides;
    for (int64_t j = 0; j < round_repeats(args.repeats); ++j) {
      if (j > 0) {
        strides = 1;
        filters_in = filters_out;
      }
      const std::string block_name = "block" + std::to_string(i + 1) +
                                     static_cast<char>('a' + j) + "_";
      x = block(x, kDropConnectRate * static_cast<double>(b) / total, block_name, filters_in,
                filters_out, args.kernel_size, strides, args.expand_ratio);
      ++b;
    }
  }

  x = layers::Conv2D(round_filters(1280), 1,
                     {.padding = "same", .use_bias = false,
                      .kernel_initializer = efficientnet_conv_initializer(),
                      .name = "top_conv"})(x);
  x = layers::BatchNormalization({.axis = bn_axis(), .name = "top_bn"})(x);
  x = layers::Activation(kActivation, {.name = "top_activation"})(x);
  x = detail::efficientnet_head(x, options, dropout_rate);
  return detail::finish(image, x, options, arch);
}

}  // namespace

ModelPtr<FunctionalModel> EfficientNetB0(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.0, 1.0, 224, 0.2, "efficientnetb0");
}
ModelPtr<FunctionalModel> EfficientNetB1(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.0, 1.1, 240, 0.2, "efficientnetb1");
}
ModelPtr<FunctionalModel> EfficientNetB2(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.1, 1.2, 260, 0.3, "efficientnetb2");
}
ModelPtr<FunctionalModel> EfficientNetB3(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.2, 1.4, 300, 0.3, "efficientnetb3");
}
ModelPtr<FunctionalModel> EfficientNetB4(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.4, 1.8, 380, 0.4, "efficientnetb4");
}
ModelPtr<FunctionalModel> EfficientNetB5(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.6, 2.2, 456, 0.4, "efficientnetb5");
}
ModelPtr<FunctionalModel> EfficientNetB6(const ApplicationOptions& o) {
  return build_efficientnet(o, 1.8, 2.6, 528, 0.5, "efficientnetb6");
}
ModelPtr<FunctionalModel> EfficientNetB7(const ApplicationOptions& o) {
  return build_efficientnet(o, 2.0, 3.1, 600, 0.5, "efficientnetb7");
}

namespace efficientnet {
Tensor preprocess_input(const Tensor& x, const std::string&) { return x; }
}  // namespace efficientnet

}  // namespace keras::applications

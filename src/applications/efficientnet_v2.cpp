// Facts from keras/src/applications/efficientnet_v2.py: the block tables of each variant, the
// width and depth scaling, layer names, the input scaling and the weight file names.

#include "keras/applications/efficientnet_v2.h"

#include <cmath>
#include <map>
#include <vector>

#include "application_builder.h"
#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/initializers/initializers.h"
#include "keras/layers/layers.h"
#include "efficientnet_shared.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::bn_axis;
using detail::efficientnet_conv_initializer;

// One row of DEFAULT_BLOCKS_ARGS.
struct BlockArgsV2 {
  int64_t kernel_size, num_repeat, input_filters, output_filters, expand_ratio;
  double se_ratio;
  int64_t strides;
  bool fused;  // conv_type 1: FusedMBConvBlock; 0: MBConvBlock
};
using Blocks = std::vector<BlockArgsV2>;

// B0 .. B3 share one table (scaled by their coefficients).
const Blocks kBlocksB{
    {3, 1, 32, 16, 1, 0, 1, true},      {3, 2, 16, 32, 4, 0, 2, true},
    {3, 2, 32, 48, 4, 0, 2, true},      {3, 3, 48, 96, 4, 0.25, 2, false},
    {3, 5, 96, 112, 6, 0.25, 1, false}, {3, 8, 112, 192, 6, 0.25, 2, false},
};
const Blocks kBlocksS{
    {3, 2, 24, 24, 1, 0, 1, true},        {3, 4, 24, 48, 4, 0, 2, true},
    {3, 4, 48, 64, 4, 0, 2, true},        {3, 6, 64, 128, 4, 0.25, 2, false},
    {3, 9, 128, 160, 6, 0.25, 1, false},  {3, 15, 160, 256, 6, 0.25, 2, false},
};
const Blocks kBlocksM{
    {3, 3, 24, 24, 1, 0, 1, true},         {3, 5, 24, 48, 4, 0, 2, true},
    {3, 5, 48, 80, 4, 0, 2, true},         {3, 7, 80, 160, 4, 0.25, 2, false},
    {3, 14, 160, 176, 6, 0.25, 1, false},  {3, 18, 176, 304, 6, 0.25, 2, false},
    {3, 5, 304, 512, 6, 0.25, 1, false},
};
const Blocks kBlocksL{
    {3, 4, 32, 32, 1, 0, 1, true},         {3, 7, 32, 64, 4, 0, 2, true},
    {3, 7, 64, 96, 4, 0, 2, true},         {3, 10, 96, 192, 4, 0.25, 2, false},
    {3, 19, 192, 224, 6, 0.25, 1, false},  {3, 25, 224, 384, 6, 0.25, 2, false},
    {3, 7, 384, 640, 6, 0.25, 1, false},
};

constexpr double kBnMomentum = 0.9;
constexpr double kDropConnectRateV2 = 0.2;
constexpr double kDropoutRate = 0.2;
const std::string kActivationV2 = "swish";

KerasTensor conv(const KerasTensor& x, int64_t filters, int64_t kernel_size, int64_t strides,
                 const std::string& name) {
  return layers::Conv2D(filters, kernel_size,
                        {.strides = strides, .padding = "same",
                         .data_format = config::image_data_format(), .use_bias = false,
                         .kernel_initializer = efficientnet_conv_initializer(),
                         .name = name})(x);
}

KerasTensor v2_batch_norm(const KerasTensor& x, const std::string& name) {
  return layers::BatchNormalization({.axis = bn_axis(), .momentum = kBnMomentum,
                                     .name = name})(x);
}

KerasTensor activation(const KerasTensor& x, const std::string& name) {
  return layers::Activation(kActivationV2, {.name = name})(x);
}

// The end of both blocks: dropout of whole samples and the residual, when shapes agree.
KerasTensor residual(KerasTensor x, const KerasTensor& inputs, const BlockArgsV2& a,
                     double drop_rate, const std::string& name) {
  if (a.strides != 1 || a.input_filters != a.output_filters) return x;
  if (drop_rate > 0) {
    x = layers::Dropout(drop_rate, {.noise_shape = Shape{-1, 1, 1, 1}, .name = name + "drop"})(x);
  }
  return detail::merge(layers::Add({.name = name + "add"}), {x, inputs});
}

// efficientnet_v2.MBConvBlock.
KerasTensor mb_conv_block(const KerasTensor& inputs, const BlockArgsV2& a, double drop_rate,
                          const std::string& name) {
  const int64_t filters = a.input_filters * a.expand_ratio;
  KerasTensor x = inputs;
  if (a.expand_ratio != 1) {
    x = conv(inputs, filters, 1, 1, name + "expand_conv");
    x = v2_batch_norm(x, name + "expand_bn");
    x = activation(x, name + "expand_activation");
  }
  x = layers::DepthwiseConv2D(a.kernel_size,
                              {.strides = a.strides, .padding = "same",
                               .data_format = config::image_data_format(), .use_bias = false,
                               .depthwise_initializer = efficientnet_conv_initializer(),
                               .name = name + "dwconv2"})(x);
  x = v2_batch_norm(x, name + "bn");
  x = activation(x, name + "activation");
  if (a.se_ratio > 0 && a.se_ratio <= 1) {
    x = detail::squeeze_excite(x, a.input_filters, filters, a.se_ratio, kActivationV2, name);
  }
  x = conv(x, a.output_filters, 1, 1, name + "project_conv");
  x = v2_batch_norm(x, name + "project_bn");
  return residual(x, inputs, a, drop_rate, name);
}

// efficientnet_v2.FusedMBConvBlock: the expansion is a full convolution carrying the stride.
KerasTensor fused_mb_conv_block(const KerasTensor& inputs, const BlockArgsV2& a, double drop_rate,
                                const std::string& name) {
  const int64_t filters = a.input_filters * a.expand_ratio;
  KerasTensor x = inputs;
  if (a.expand_ratio != 1) {
    x = conv(inputs, filters, a.kernel_size, a.strides, name + "expand_conv");
    x = v2_batch_norm(x, name + "expand_bn");
    x = activation(x, name + "expand_activation");
  }
  if (a.se_ratio > 0 && a.se_ratio <= 1) {
    x = detail::squeeze_excite(x, a.input_filters, filters, a.se_ratio, kActivationV2, name);
  }
  const bool expanded = a.expand_ratio != 1;
  x = conv(x, a.output_filters, expanded ? 1 : a.kernel_size, expanded ? 1 : a.strides,
           name + "project_conv");
  x = v2_batch_norm(x, name + "project_bn");
  if (!expanded) x = activation(x, name + "project_activation");
  return residual(x, inputs, a, drop_rate, name);
}

// efficientnet_v2.round_filters (min_depth 8, depth_divisor 8).
int64_t round_filters(int64_t filters, double width_coefficient) {
  const double f = static_cast<double>(filters) * width_coefficient;
  return std::max<int64_t>(8, static_cast<int64_t>(f + 4.0) / 8 * 8);
}

// The input scaling of include_preprocessing.
KerasTensor preprocessing(const KerasTensor& x, const ApplicationOptions& options,
                          const std::string& name, int64_t default_size) {
  const Shape shape = detail::obtain_input_shape(options.input_shape, default_size, 32,
                                                 config::image_data_format(),
                                                 options.include_top, options.weights);
  const int64_t channels = shape[bn_axis() - 1];
  const std::string last_part = name.substr(name.rfind('-') + 1);
  if (last_part.starts_with("b") && channels == 3) {
    auto y = layers::Rescaling(1.0 / 255)(x);
    const std::vector<double> mean{0.485, 0.456, 0.406};
    const std::vector<double> variance{0.229 * 0.229, 0.224 * 0.224, 0.225 * 0.225};
    return layers::Normalization({.axis = {bn_axis()},
                                  .mean = Tensor::from_vector(mean, Shape{3}),
                                  .variance = Tensor::from_vector(variance, Shape{3})})(y);
  }
  return layers::Rescaling(1.0 / 128.0, {.offset = -1.0})(x);
}

// Keras takes the block table by the model's name (DEFAULT_BLOCKS_ARGS[name]), so a name
// other than the seven variants' fails there; keras-cpp raises ValueError instead of KeyError.
const Blocks& blocks_of(const std::string& name) {
  static const std::map<std::string, const Blocks*> tables{
      {"efficientnetv2-b0", &kBlocksB}, {"efficientnetv2-b1", &kBlocksB},
      {"efficientnetv2-b2", &kBlocksB}, {"efficientnetv2-b3", &kBlocksB},
      {"efficientnetv2-s", &kBlocksS},  {"efficientnetv2-m", &kBlocksM},
      {"efficientnetv2-l", &kBlocksL}};
  auto it = tables.find(name);
  check<ValueError>(it != tables.end(), "EfficientNetV2 takes its block table from the model "
                    "name, as Keras 3.15 does, so `name` must be one of efficientnetv2-b0, -b1, "
                    "-b2, -b3, -s, -m, -l; received name=\"", name, "\".");
  return *it->second;
}

// efficientnet_v2.EfficientNetV2.
ModelPtr<FunctionalModel> build_efficientnet_v2(const ApplicationOptions& options,
                                                double width_coefficient,
                                                double depth_coefficient, int64_t default_size,
                                                const std::string& default_name) {
  const detail::Architecture arch{.default_name = default_name, .default_size = default_size,
                                  .weights_file_top = default_name + ".h5",
                                  .weights_file_notop = default_name + "_notop.h5"};
  const std::string& name = options.name.empty() ? default_name : options.name;
  const Blocks& blocks_args = blocks_of(name);
  auto image = detail::image_input(options, arch);
  auto round_repeats = [&](int64_t repeats) {
    return static_cast<int64_t>(std::ceil(depth_coefficient * static_cast<double>(repeats)));
  };

  KerasTensor x = image;
  if (options.include_preprocessing) x = preprocessing(x, options, name, default_size);
  x = conv(x, round_filters(blocks_args[0].input_filters, width_coefficient), 3, 2,
           "stem_conv");
  x = v2_batch_norm(x, "stem_bn");
  x = activation(x, "stem_activation");

  double total = 0;
  for (const BlockArgsV2& a : blocks_args) total += static_cast<double>(a.num_repeat);
  int64_t b = 0;
  for (size_t i = 0; i < blocks_args.size(); ++i) {
    BlockArgsV2 a = blocks_args[i];
    a.input_filters = round_filters(a.input_filters, width_coefficient);
    a.output_filters = round_filters(a.output_filters, width_coefficient);
    for (int64_t j = 0; j < round_repeats(a.num_repeat); ++j) {
      if (j > 0) {
        a.strides = 1;
        a.input_filters = a.output_filters;
      }
      const std::string block_name = "block" + std::to_string(i + 1) +
                                     static_cast<char>('a' + j) + "_";
      const double drop_rate = kDropConnectRateV2 * static_cast<double>(b) / total;
      x = a.fused ? fused_mb_conv_block(x, a, drop_rate, block_name)
                  : mb_conv_block(x, a, drop_rate, block_name);
      ++b;
    }
  }

  x = conv(x, round_filters(1280, width_coefficient), 1, 1, "top_conv");
  x = v2_batch_norm(x, "top_bn");
  x = activation(x, "top_activation");
  x = detail::efficientnet_head(x, options, kDropoutRate,
                                std::make_shared<initializers::Constant>(0.0));
  return detail::finish(image, x, options, arch);
}

}  // namespace

ModelPtr<FunctionalModel> EfficientNetV2B0(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.0, 1.0, 224, "efficientnetv2-b0");
}
ModelPtr<FunctionalModel> EfficientNetV2B1(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.0, 1.1, 240, "efficientnetv2-b1");
}
ModelPtr<FunctionalModel> EfficientNetV2B2(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.1, 1.2, 260, "efficientnetv2-b2");
}
ModelPtr<FunctionalModel> EfficientNetV2B3(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.2, 1.4, 300, "efficientnetv2-b3");
}
ModelPtr<FunctionalModel> EfficientNetV2S(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.0, 1.0, 384, "efficientnetv2-s");
}
ModelPtr<FunctionalModel> EfficientNetV2M(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.0, 1.0, 480, "efficientnetv2-m");
}
ModelPtr<FunctionalModel> EfficientNetV2L(const ApplicationOptions& o) {
  return build_efficientnet_v2(o, 1.0, 1.0, 480, "efficientnetv2-l");
}

namespace efficientnet_v2 {
Tensor preprocess_input(const Tensor& x, const std::string&) { return x; }
}  // namespace efficientnet_v2

}  // namespace keras::applications

// Facts from keras/src/applications/convnext.py: MODEL_CONFIGS, the block, the stem and
// downsampling Sequential models, the head, layer names and the weight file names.

#include "keras/applications/convnext.h"

#include <array>

#include "application_builder.h"
#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/layers/layers.h"
#include "keras/models/sequential.h"
#include "keras/ops/symbolic.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;

constexpr double kLayerNormEpsilon = 1e-6;
constexpr double kLayerScaleInit = 1e-6;

using Depths = std::array<int64_t, 4>;
const Depths kDepthsTiny{3, 3, 9, 3};
const Depths kDepthsDeep{3, 3, 27, 3};

// convnext.ConvNeXtBlock (drop_path_rate is 0 in every Keras variant: the residual branch
// ends in an identity Activation, not StochasticDepth).
KerasTensor convnext_block(const KerasTensor& inputs, int64_t dim, const std::string& name) {
  auto x = layers::Conv2D(dim, 7, {.padding = "same", .groups = dim,
                                   .name = name + "_depthwise_conv"})(inputs);
  x = layers::LayerNormalization({.epsilon = kLayerNormEpsilon, .name = name + "_layernorm"})(x);
  x = layers::Dense(4 * dim, {.name = name + "_pointwise_conv_1"})(x);
  x = layers::Activation("gelu", {.name = name + "_gelu"})(x);
  x = layers::Dense(dim, {.name = name + "_pointwise_conv_2"})(x);
  x = layers::LayerScale(kLayerScaleInit, dim, {.name = name + "_layer_scale"})(x);
  x = layers::Activation("linear", {.name = name + "_identity"})(x);
  return inputs + x;
}

// convnext.ConvNeXt.
ModelPtr<FunctionalModel> build_convnext(const ApplicationOptions& options, const Depths& depths,
                                         const std::array<int64_t, 4>& dims,
                                         const std::string& default_name) {
  check<ValueError>(config::image_data_format() != "channels_first",
                    "ConvNeXt does not support the `channels_first` image data format. Switch "
                    "to `channels_last` (keras::config::set_image_data_format or keras.json).");
  const detail::Architecture arch{.default_name = default_name,
                                  .weights_file_top = default_name + ".h5",
                                  .weights_file_notop = default_name + "_notop.h5"};
  auto image = detail::image_input(options, arch);
  const std::string& name = options.name.empty() ? default_name : options.name;

  KerasTensor x = image;
  if (options.include_preprocessing) {
    const Shape shape = detail::obtain_input_shape(options.input_shape, arch.default_size,
                                                   arch.min_size, config::image_data_format(),
                                                   options.include_top, options.weights);
    if (shape[2] == 3) {
      // PreStem: the ImageNet mean and deviation of pixels in [0, 255].
      const std::vector<double> mean{0.485 * 255, 0.456 * 255, 0.406 * 255};
      const std::vector<double> variance{(0.229 * 255) * (0.229 * 255),
                                         (0.224 * 255) * (0.224 * 255),
                                         (0.225 * 255) * (0.225 * 255)};
      x = layers::Normalization({.mean = Tensor::from_vector(mean, Shape{3}),
                                 .variance = Tensor::from_vector(variance, Shape{3}),
                                 .name = name + "_prestem_normalization"})(x);
    }
  }

  for (int i = 0; i < 4; ++i) {
    const std::string index = std::to_string(i);
    if (i == 0) {
      x = Sequential({layers::Conv2D(dims[0], 4, {.strides = 4, .name = name + "_stem_conv"}),
                      layers::LayerNormalization(
                          {.epsilon = kLayerNormEpsilon, .name = name + "_stem_layernorm"})},
                     {.name = name + "_stem"})(x);
    } else {
      const std::string j = std::to_string(i - 1);
      x = Sequential(
          {layers::LayerNormalization(
               {.epsilon = kLayerNormEpsilon, .name = name + "_downsampling_layernorm_" + j}),
           layers::Conv2D(dims[i], 2, {.strides = 2, .name = name + "_downsampling_conv_" + j})},
          {.name = name + "_downsampling_block_" + j})(x);
    }
    for (int64_t b = 0; b < depths[i]; ++b) {
      x = convnext_block(x, dims[i], name + "_stage_" + index + "_block_" + std::to_string(b));
    }
  }

  if (options.include_top) {
    x = layers::GlobalAveragePooling2D({.name = name + "_head_gap"})(x);
    x = layers::LayerNormalization(
        {.epsilon = kLayerNormEpsilon, .name = name + "_head_layernorm"})(x);
    x = layers::Dense(options.classes, {.activation = options.classifier_activation,
                                        .name = name + "_head_dense"})(x);
  } else {
    x = detail::pooling_head(x, options, "", "");
    x = layers::LayerNormalization({.epsilon = kLayerNormEpsilon})(x);
  }
  return detail::finish(image, x, options, arch);
}

}  // namespace

ModelPtr<FunctionalModel> ConvNeXtTiny(const ApplicationOptions& o) {
  return build_convnext(o, kDepthsTiny, {96, 192, 384, 768}, "convnext_tiny");
}
ModelPtr<FunctionalModel> ConvNeXtSmall(const ApplicationOptions& o) {
  return build_convnext(o, kDepthsDeep, {96, 192, 384, 768}, "convnext_small");
}
ModelPtr<FunctionalModel> ConvNeXtBase(const ApplicationOptions& o) {
  return build_convnext(o, kDepthsDeep, {128, 256, 512, 1024}, "convnext_base");
}
ModelPtr<FunctionalModel> ConvNeXtLarge(const ApplicationOptions& o) {
  return build_convnext(o, kDepthsDeep, {192, 384, 768, 1536}, "convnext_large");
}
ModelPtr<FunctionalModel> ConvNeXtXLarge(const ApplicationOptions& o) {
  return build_convnext(o, kDepthsDeep, {256, 512, 1024, 2048}, "convnext_xlarge");
}

namespace convnext {
Tensor preprocess_input(const Tensor& x, const std::string&) { return x; }
}  // namespace convnext

}  // namespace keras::applications

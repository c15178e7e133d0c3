// Facts from keras/src/applications/mobilenet_v3.py: the block tables of Small and Large,
// layer names, which layers Keras leaves unnamed (ReLU, Activation("hard_swish"), the ops of
// hard_sigmoid: their automatic names are part of the config), its own input-shape rule (no
// obtain_input_shape: the size stays free with top) and the weight file names.

#include "keras/applications/mobilenet_v3.h"

#include <vector>

#include "application_builder.h"
#include "keras/core/config.h"
#include "keras/layers/layers.h"
#include "keras/ops/symbolic.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::channel_axis;
using detail::make_divisible;

using ActivationFn = KerasTensor (*)(const KerasTensor&);

KerasTensor v3_relu(const KerasTensor& x) {
  return layers::ReLU()(x);
}

KerasTensor hard_swish(const KerasTensor& x) { return layers::Activation("hard_swish")(x); }

// ReLU6(x + 3) / 6, written as Keras writes it: two keras.ops nodes around a ReLU layer.
KerasTensor hard_sigmoid(const KerasTensor& x) {
  return layers::ReLU({.max_value = 6.0})(x + 3.0) * (1.0 / 6.0);
}

KerasTensor v3_batch_norm(const KerasTensor& x, const std::string& name) {
  return layers::BatchNormalization({.axis = channel_axis(), .momentum = 0.999, .epsilon = 1e-3,
                                     .name = name})(x);
}

int64_t channels(const KerasTensor& x) {
  return x.shape()[channel_axis() < 0 ? x.ndim() - 1 : channel_axis()];
}

// mobilenet_v3._se_block
KerasTensor se_block(const KerasTensor& inputs, int64_t filters, double se_ratio,
                     const std::string& prefix) {
  auto x = layers::GlobalAveragePooling2D({.keepdims = true,
                                           .name = prefix + "squeeze_excite_avg_pool"})(inputs);
  x = layers::Conv2D(make_divisible(static_cast<double>(filters) * se_ratio, 8), 1,
                     {.padding = "same", .name = prefix + "squeeze_excite_conv"})(x);
  x = layers::ReLU({.name = prefix + "squeeze_excite_relu"})(x);
  x = layers::Conv2D(filters, 1, {.padding = "same", .name = prefix + "squeeze_excite_conv_1"})(x);
  x = hard_sigmoid(x);
  return detail::merge(layers::Multiply({.name = prefix + "squeeze_excite_mul"}), {inputs, x});
}

// One row of Keras's stack_fn. kernel 0 and the flags pick the variant's choice (5x5, SE,
// hard swish; minimalistic: 3x3, none, ReLU).
struct Block {
  double expansion;
  int64_t filters;
  int64_t kernel;
  int64_t stride;
  bool se;
  bool variant_activation;
};

// mobilenet_v3._inverted_res_block
KerasTensor v3_inverted_res_block(const KerasTensor& inputs, double expansion, int64_t filters,
                                  int64_t kernel, int64_t stride, double se_ratio,
                                  ActivationFn activation, int block_id) {
  const int64_t in_filters = channels(inputs);
  const int64_t expanded = make_divisible(static_cast<double>(in_filters) * expansion, 8);
  std::string prefix = "expanded_conv_";
  KerasTensor x = inputs;
  if (block_id) {
    prefix = "expanded_conv_" + std::to_string(block_id) + "_";
    x = layers::Conv2D(expanded, 1, {.padding = "same", .use_bias = false,
                                     .name = prefix + "expand"})(x);
    x = activation(v3_batch_norm(x, prefix + "expand_bn"));
  }
  if (stride == 2) {
    auto [h, w] = detail::correct_pad(x, kernel);
    x = layers::ZeroPadding2D(layers::SidePairs{{h.first, h.second}, {w.first, w.second}},
                              {.name = prefix + "depthwise_pad"})(x);
  }
  x = layers::DepthwiseConv2D(kernel, {.strides = stride,
                                       .padding = stride == 1 ? "same" : "valid",
                                       .use_bias = false, .name = prefix + "depthwise"})(x);
  x = activation(v3_batch_norm(x, prefix + "depthwise_bn"));
  if (se_ratio > 0) x = se_block(x, expanded, se_ratio, prefix);
  x = layers::Conv2D(filters, 1, {.padding = "same", .use_bias = false,
                                  .name = prefix + "project"})(x);
  x = v3_batch_norm(x, prefix + "project_bn");
  if (stride == 1 && in_filters == filters) {
    return detail::merge(layers::Add({.name = prefix + "add"}), {inputs, x});
  }
  return x;
}

// Keras's MobileNetV3 input rule: input_shape, else the input tensor's size, else free; at
// least 32x32 where known.
KerasTensor image_input(const ApplicationOptions& o, const MobileNetV3Options& m) {
  detail::check_arguments(o);
  const bool first = config::image_data_format() == "channels_first";
  Shape shape = first ? Shape{3, kUnknownDim, kUnknownDim} : Shape{kUnknownDim, kUnknownDim, 3};
  if (o.input_shape) {
    shape = *o.input_shape;
    check<ValueError>(shape.rank() == 3, "`input_shape` must be three integers (height, width, "
                      "channels); received input_shape=", shape.to_string(), ".");
    if (o.input_tensor) {
      const int64_t tensor_dim = o.input_tensor->shape()[first ? 1 : 2];
      check<ValueError>(tensor_dim == shape[1], "input_shape[1] must equal input_tensor.shape[",
                        first ? 1 : 2, "]. Received input_shape=", shape.to_string(),
                        ", input_tensor.shape=", o.input_tensor->shape().to_string(), ".");
    }
  } else if (o.input_tensor && o.input_tensor->ndim() == 4) {
    const Shape& t = o.input_tensor->shape();
    // Keras swaps rows and columns here; only the 32x32 check below reads them.
    shape = first ? Shape{3, t[3], t[2]} : Shape{t[2], t[1], 3};
  }
  const int64_t rows = shape[first ? 1 : 0], cols = shape[first ? 2 : 1];
  check<ValueError>(rows <= 0 || cols <= 0 || (rows >= 32 && cols >= 32),
                    "Input size must be at least 32x32; Received `input_shape=",
                    shape.to_string(), "`.");
  if (o.weights == "imagenet") {
    // Other input sizes load the 224 weights (Keras warns).
    check<ValueError>(m.minimalistic ? m.alpha == 1.0 : (m.alpha == 0.75 || m.alpha == 1.0),
                      "If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` "
                      "for non minimalistic or `1.0` for minimalistic only. Received alpha=",
                      m.alpha, ", minimalistic=", m.minimalistic, ".");
  }
  if (o.input_tensor) return *o.input_tensor;
  return Input(shape);
}

// mobilenet_v3.MobileNetV3: stem, the blocks, the last convolutions and the 1x1 head.
ModelPtr<FunctionalModel> build_mobilenet_v3(const ApplicationOptions& o,
                                             const MobileNetV3Options& m,
                                             const std::string& model_type,
                                             const std::vector<Block>& blocks,
                                             int64_t last_point_channels,
                                             const std::string& default_name) {
  const std::string model_name = model_type + (m.minimalistic ? "_minimalistic" : "") +
                                 "_224_" + detail::python_float(m.alpha) + "_float";
  const detail::Architecture arch{
      .default_name = default_name,
      .weights_file_top = "weights_mobilenet_v3_" + model_name + ".h5",
      .weights_file_notop = "weights_mobilenet_v3_" + model_name + "_no_top_v2.h5"};
  auto image = image_input(o, m);

  const int64_t variant_kernel = m.minimalistic ? 3 : 5;
  const ActivationFn activation = m.minimalistic ? v3_relu : hard_swish;
  const double se_ratio = m.minimalistic ? 0.0 : 0.25;

  KerasTensor x = image;
  if (o.include_preprocessing) {
    x = layers::Rescaling(1.0 / 127.5, {.offset = -1.0})(x);
  }
  x = layers::Conv2D(16, 3, {.strides = 2, .padding = "same", .use_bias = false,
                             .name = "conv"})(x);
  x = activation(v3_batch_norm(x, "conv_bn"));
  int id = 0;
  for (const Block& b : blocks) {
    x = v3_inverted_res_block(x, b.expansion, make_divisible(b.filters * m.alpha, 8),
                              b.kernel ? b.kernel : variant_kernel, b.stride, b.se ? se_ratio : 0.0,
                              b.variant_activation ? activation : v3_relu, id++);
  }
  const int64_t last_conv_channels = make_divisible(static_cast<double>(channels(x) * 6), 8);
  if (m.alpha > 1.0) {
    last_point_channels = make_divisible(static_cast<double>(last_point_channels) * m.alpha, 8);
  }
  x = layers::Conv2D(last_conv_channels, 1, {.padding = "same", .use_bias = false,
                                             .name = "conv_1"})(x);
  x = activation(v3_batch_norm(x, "conv_1_bn"));
  if (o.include_top) {
    x = layers::GlobalAveragePooling2D({.keepdims = true})(x);
    x = layers::Conv2D(last_point_channels, 1, {.padding = "same", .use_bias = true,
                                                .name = "conv_2"})(x);
    x = activation(x);
    if (m.dropout_rate > 0) x = layers::Dropout(m.dropout_rate)(x);
    x = layers::Conv2D(o.classes, 1, {.padding = "same", .name = "logits"})(x);
    x = layers::Flatten()(x);
    x = layers::Activation(o.classifier_activation, {.name = "predictions"})(x);
  } else {
    x = detail::pooling_head(x, o);
  }
  return detail::finish(image, x, o, arch);
}

}  // namespace

ModelPtr<FunctionalModel> MobileNetV3Small(const ApplicationOptions& o,
                                           const MobileNetV3Options& m) {
  const std::vector<Block> blocks = {
      {1, 16, 3, 2, true, false},        {72.0 / 16, 24, 3, 2, false, false},
      {88.0 / 24, 24, 3, 1, false, false}, {4, 40, 0, 2, true, true},
      {6, 40, 0, 1, true, true},         {6, 40, 0, 1, true, true},
      {3, 48, 0, 1, true, true},         {3, 48, 0, 1, true, true},
      {6, 96, 0, 2, true, true},         {6, 96, 0, 1, true, true},
      {6, 96, 0, 1, true, true}};
  return build_mobilenet_v3(o, m, "small", blocks, 1024, "MobileNetV3Small");
}

ModelPtr<FunctionalModel> MobileNetV3Large(const ApplicationOptions& o,
                                           const MobileNetV3Options& m) {
  const std::vector<Block> blocks = {
      {1, 16, 3, 1, false, false},    {4, 24, 3, 2, false, false},
      {3, 24, 3, 1, false, false},    {3, 40, 0, 2, true, false},
      {3, 40, 0, 1, true, false},     {3, 40, 0, 1, true, false},
      {6, 80, 3, 2, false, true},     {2.5, 80, 3, 1, false, true},
      {2.3, 80, 3, 1, false, true},   {2.3, 80, 3, 1, false, true},
      {6, 112, 3, 1, true, true},     {6, 112, 3, 1, true, true},
      {6, 160, 0, 2, true, true},     {6, 160, 0, 1, true, true},
      {6, 160, 0, 1, true, true}};
  return build_mobilenet_v3(o, m, "large", blocks, 1280, "MobileNetV3Large");
}

namespace mobilenet_v3 {
Tensor preprocess_input(const Tensor& x, const std::string&) { return x; }
}  // namespace mobilenet_v3

}  // namespace keras::applications

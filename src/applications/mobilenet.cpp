// Facts from keras/src/applications/mobilenet.py and mobilenet_v2.py: the blocks, layer
// names, the input sizes of the ImageNet weights and their file names.

#include "keras/applications/mobilenet.h"

#include <algorithm>
#include <cstdio>

#include "application_builder.h"
#include "keras/core/config.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;

bool channels_first() { return config::image_data_format() == "channels_first"; }
using detail::channel_axis;

// Python's f"{v:0.2f}".
std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string rows_text(int64_t rows) { return rows < 0 ? "None" : std::to_string(rows); }

bool contains(std::initializer_list<int64_t> values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

bool one_of(double v, std::initializer_list<double> values) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// The input size whose ImageNet weights a square input of one of `sizes` uses, else 224.
int64_t default_size_for(const ApplicationOptions& o, std::initializer_list<int64_t> sizes) {
  Shape shape;
  if (o.input_shape) {
    shape = *o.input_shape;
  } else if (o.input_tensor && o.input_tensor->ndim() == 4) {
    const Shape& t = o.input_tensor->shape();
    shape = Shape(t.begin() + 1, t.end());
  }
  if (shape.rank() != 3) return 224;
  const int64_t rows = channels_first() ? shape[1] : shape[0];
  const int64_t cols = channels_first() ? shape[2] : shape[1];
  return rows == cols && contains(sizes, rows) ? rows : 224;
}

// The rows of the model's input (what Keras names the model and the weights file after).
int64_t input_rows(const ApplicationOptions& o, int64_t default_size) {
  Shape shape = detail::obtain_input_shape(o.input_shape, default_size, 32,
                                           config::image_data_format(), o.include_top, o.weights);
  return channels_first() ? shape[1] : shape[0];
}

KerasTensor conv_bn_relu6(const KerasTensor& x, const std::string& bn_name,
                          const std::string& relu_name, double epsilon, double momentum) {
  auto y = layers::BatchNormalization({.axis = channel_axis(), .momentum = momentum,
                                       .epsilon = epsilon, .name = bn_name})(x);
  return layers::ReLU({.max_value = 6.0, .name = relu_name})(y);
}

// mobilenet._depthwise_conv_block
KerasTensor depthwise_block(KerasTensor x, int64_t pointwise_filters, double alpha,
                            int64_t depth_multiplier, int64_t stride, int block_id) {
  const std::string id = std::to_string(block_id);
  if (stride != 1) {
    x = layers::ZeroPadding2D(layers::SidePairs{{0, 1}, {0, 1}}, {.name = "conv_pad_" + id})(x);
  }
  x = layers::DepthwiseConv2D(3, {.strides = stride, .padding = stride == 1 ? "same" : "valid",
                                  .depth_multiplier = depth_multiplier, .use_bias = false,
                                  .name = "conv_dw_" + id})(x);
  x = conv_bn_relu6(x, "conv_dw_" + id + "_bn", "conv_dw_" + id + "_relu", 1e-3, 0.99);
  x = layers::Conv2D(static_cast<int64_t>(pointwise_filters * alpha), 1,
                     {.strides = 1, .padding = "same", .use_bias = false,
                      .name = "conv_pw_" + id})(x);
  return conv_bn_relu6(x, "conv_pw_" + id + "_bn", "conv_pw_" + id + "_relu", 1e-3, 0.99);
}

// mobilenet_v2._inverted_res_block
KerasTensor inverted_res_block(const KerasTensor& inputs, int64_t expansion, int64_t stride,
                               double alpha, int64_t filters, int block_id) {
  const int64_t in_channels = inputs.shape()[channels_first() ? 1 : inputs.ndim() - 1];
  const int64_t pointwise_filters =
      detail::make_divisible(static_cast<double>(static_cast<int64_t>(filters * alpha)), 8);
  std::string prefix = "block_" + std::to_string(block_id) + "_";
  KerasTensor x = inputs;
  if (block_id) {
    x = layers::Conv2D(expansion * in_channels, 1, {.padding = "same", .use_bias = false,
                                                    .name = prefix + "expand"})(x);
    x = conv_bn_relu6(x, prefix + "expand_BN", prefix + "expand_relu", 1e-3, 0.999);
  } else {
    prefix = "expanded_conv_";
  }
  if (stride == 2) {
    auto [h, w] = detail::correct_pad(x, 3);
    x = layers::ZeroPadding2D(layers::SidePairs{{h.first, h.second}, {w.first, w.second}},
                              {.name = prefix + "pad"})(x);
  }
  x = layers::DepthwiseConv2D(3, {.strides = stride, .padding = stride == 1 ? "same" : "valid",
                                  .use_bias = false, .name = prefix + "depthwise"})(x);
  x = conv_bn_relu6(x, prefix + "depthwise_BN", prefix + "depthwise_relu", 1e-3, 0.999);
  x = layers::Conv2D(pointwise_filters, 1, {.padding = "same", .use_bias = false,
                                            .name = prefix + "project"})(x);
  x = layers::BatchNormalization({.axis = channel_axis(), .momentum = 0.999, .epsilon = 1e-3,
                                  .name = prefix + "project_BN"})(x);
  if (in_channels == pointwise_filters && stride == 1) {
    return detail::merge(layers::Add({.name = prefix + "add"}), {inputs, x});
  }
  return x;
}

}  // namespace

ModelPtr<FunctionalModel> MobileNet(const ApplicationOptions& o, const MobileNetOptions& m) {
  const int64_t default_size = default_size_for(o, {128, 160, 192, 224});
  int64_t rows = input_rows(o, default_size);
  if (o.weights == "imagenet") {
    check<ValueError>(m.depth_multiplier == 1, "If imagenet weights are being loaded, depth "
                      "multiplier must be 1. Received depth_multiplier=", m.depth_multiplier, ".");
    check<ValueError>(one_of(m.alpha, {0.25, 0.5, 0.75, 1.0}),
                      "If imagenet weights are being loaded, alpha can be one of 0.25, 0.50, "
                      "0.75 or 1.0 only. Received alpha=", m.alpha, ".");
    if (!contains({128, 160, 192, 224}, rows)) rows = 224;  // Keras warns and loads 224's
  }
  const std::string alpha_text = m.alpha == 1.0 ? "1_0" : m.alpha == 0.75 ? "7_5"
                                 : m.alpha == 0.5 ? "5_0" : "2_5";
  const detail::Architecture arch{
      .default_name = "mobilenet_" + fixed2(m.alpha) + "_" + rows_text(rows),
      .default_size = default_size,
      .weights_file_top = "mobilenet_" + alpha_text + "_" + rows_text(rows) + "_tf.h5",
      .weights_file_notop = "mobilenet_" + alpha_text + "_" + rows_text(rows) + "_tf_no_top.h5"};
  auto image = detail::image_input(o, arch);

  auto x = layers::Conv2D(static_cast<int64_t>(32 * m.alpha), 3,
                          {.strides = 2, .padding = "same", .use_bias = false,
                           .name = "conv1"})(image);
  x = conv_bn_relu6(x, "conv1_bn", "conv1_relu", 1e-3, 0.99);
  struct Block { int64_t filters, stride; };
  const Block blocks[] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1}, {512, 2}, {512, 1},
                          {512, 1}, {512, 1}, {512, 1}, {512, 1}, {1024, 2}, {1024, 1}};
  int id = 1;
  for (const Block& b : blocks) {
    x = depthwise_block(x, b.filters, m.alpha, m.depth_multiplier, b.stride, id++);
  }
  if (o.include_top) {
    x = layers::GlobalAveragePooling2D({.keepdims = true})(x);
    x = layers::Dropout(m.dropout, {.name = "dropout"})(x);
    x = layers::Conv2D(o.classes, 1, {.padding = "same", .name = "conv_preds"})(x);
    x = layers::Reshape(Shape{o.classes}, {.name = "reshape_2"})(x);
    x = layers::Activation(o.classifier_activation, {.name = "predictions"})(x);
  } else {
    x = detail::pooling_head(x, o, "", "");
  }
  return detail::finish(image, x, o, arch);
}

ModelPtr<FunctionalModel> MobileNetV2(const ApplicationOptions& o, const MobileNetV2Options& m) {
  const int64_t default_size = default_size_for(o, {96, 128, 160, 192, 224});
  int64_t rows = input_rows(o, default_size);
  if (o.weights == "imagenet") {
    check<ValueError>(one_of(m.alpha, {0.35, 0.5, 0.75, 1.0, 1.3, 1.4}),
                      "If imagenet weights are being loaded, alpha must be one of 0.35, 0.50, "
                      "0.75, 1.0, 1.3 or 1.4 only; Received alpha=", m.alpha, ".");
    if (!contains({96, 128, 160, 192, 224}, rows)) rows = 224;  // Keras warns and loads 224's
  }
  const std::string file = "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_" +
                           detail::python_float(m.alpha) + "_" + rows_text(rows);
  const detail::Architecture arch{.default_name = "mobilenetv2_" + fixed2(m.alpha) + "_" +
                                                  rows_text(rows),
                                  .default_size = default_size,
                                  .weights_file_top = file + ".h5",
                                  .weights_file_notop = file + "_no_top.h5"};
  auto image = detail::image_input(o, arch);

  auto x = layers::Conv2D(detail::make_divisible(32 * m.alpha, 8), 3,
                          {.strides = 2, .padding = "same", .use_bias = false,
                           .name = "Conv1"})(image);
  x = conv_bn_relu6(x, "bn_Conv1", "Conv1_relu", 1e-3, 0.999);
  struct Block { int64_t filters, stride, expansion; };
  const Block blocks[] = {{16, 1, 1},  {24, 2, 6},  {24, 1, 6},  {32, 2, 6},  {32, 1, 6},
                          {32, 1, 6},  {64, 2, 6},  {64, 1, 6},  {64, 1, 6},  {64, 1, 6},
                          {96, 1, 6},  {96, 1, 6},  {96, 1, 6},  {160, 2, 6}, {160, 1, 6},
                          {160, 1, 6}, {320, 1, 6}};
  int id = 0;
  for (const Block& b : blocks) {
    x = inverted_res_block(x, b.expansion, b.stride, m.alpha, b.filters, id++);
  }
  const int64_t last = m.alpha > 1.0 ? detail::make_divisible(1280 * m.alpha, 8) : 1280;
  x = layers::Conv2D(last, 1, {.use_bias = false, .name = "Conv_1"})(x);
  x = conv_bn_relu6(x, "Conv_1_bn", "out_relu", 1e-3, 0.999);
  if (o.include_top) {
    x = layers::GlobalAveragePooling2D()(x);
    x = layers::Dense(o.classes, {.activation = o.classifier_activation,
                                  .name = "predictions"})(x);
  } else {
    x = detail::pooling_head(x, o, "", "");
  }
  return detail::finish(image, x, o, arch);
}

namespace mobilenet {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "tf");
}
}  // namespace mobilenet

}  // namespace keras::applications

// Facts from keras/src/applications/nasnet.py: the stem, the normal and reduction cells, the
// adjustment of the previous cell's output, layer names, the name scopes that prefix the
// weight paths, the two configurations and their weight file names.

#include "keras/applications/nasnet.h"

#include <optional>

#include "application_builder.h"
#include "keras/core/config.h"
#include "keras/core/name_scope.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;

constexpr int kChannelAxis = -1;  // NASNet is channels_last only

KerasTensor nasnet_batch_norm(const KerasTensor& x, const std::string& name) {
  return layers::BatchNormalization({.axis = kChannelAxis, .momentum = 0.9997, .epsilon = 1e-3,
                                     .name = name})(x);
}

KerasTensor nasnet_relu(const KerasTensor& x, const std::string& name = "") {
  return layers::Activation("relu", {.name = name})(x);
}

// A 1x1 convolution without bias, He-normal initialized.
KerasTensor conv_1x1(const KerasTensor& x, int64_t filters, const std::string& name) {
  return layers::Conv2D(filters, {1, 1}, {.strides = ops::IntOrTuple{1, 1}, .padding = "same",
                                          .use_bias = false, .kernel_initializer = "he_normal",
                                          .name = name})(x);
}

KerasTensor zero_pad(const KerasTensor& x, int64_t kernel, const std::string& name) {
  auto [h, w] = detail::correct_pad(x, kernel);
  return layers::ZeroPadding2D(layers::SidePairs{{h.first, h.second}, {w.first, w.second}},
                               {.name = name})(x);
}

KerasTensor add(const KerasTensor& a, const KerasTensor& b, const std::string& name = "") {
  return layers::add({a, b}, {.name = name});
}

KerasTensor pool(const std::string& kind, const KerasTensor& x, int64_t stride,
                 const std::string& padding, const std::string& name) {
  const ops::IntOrTuple size{3, 3}, strides{stride, stride};
  if (kind == "max") {
    return layers::MaxPooling2D(size, {.strides = strides, .padding = padding, .name = name})(x);
  }
  return layers::AveragePooling2D(size, {.strides = strides, .padding = padding,
                                         .name = name})(x);
}

// nasnet._separable_conv_block: two ReLU-SeparableConv-BN steps, the first strided.
KerasTensor separable_block(const KerasTensor& ip, int64_t filters, int64_t kernel,
                            int64_t stride, const std::string& id) {
  NameScope scope("separable_conv_block_" + id);
  auto x = nasnet_relu(ip);
  std::string padding = "same";
  if (stride == 2) {
    x = zero_pad(x, kernel, "separable_conv_1_pad_" + id);
    padding = "valid";
  }
  x = layers::SeparableConv2D(filters, {kernel, kernel},
                              {.strides = ops::IntOrTuple{stride, stride}, .padding = padding,
                               .use_bias = false, .name = "separable_conv_1_" + id})(x);
  x = nasnet_batch_norm(x, "separable_conv_1_bn_" + id);
  x = nasnet_relu(x);
  x = layers::SeparableConv2D(filters, {kernel, kernel},
                              {.padding = "same", .use_bias = false,
                               .name = "separable_conv_2_" + id})(x);
  return nasnet_batch_norm(x, "separable_conv_2_bn_" + id);
}

// nasnet._adjust_block: the previous cell's output `p` brought to the size and filters of
// `ip` (a factorized reduction when the sizes differ, a 1x1 projection when only the filters
// do); `ip` itself for the first cell.
KerasTensor adjust_block(const std::optional<KerasTensor>& previous, const KerasTensor& ip,
                         int64_t filters, const std::string& id) {
  NameScope scope("adjust_block");
  if (!previous) return ip;
  KerasTensor p = *previous;
  const int img_dim = p.ndim() - 2;  // Keras compares axis -2, the width
  if (p.shape()[img_dim] != ip.shape()[img_dim]) {
    NameScope inner("adjust_reduction_block_" + id);
    p = nasnet_relu(p, "adjust_relu_1_" + id);
    auto p1 = layers::AveragePooling2D({1, 1}, {.strides = ops::IntOrTuple{2, 2},
                                                .padding = "valid",
                                                .name = "adjust_avg_pool_1_" + id})(p);
    p1 = conv_1x1(p1, filters / 2, "adjust_conv_1_" + id);
    auto p2 = layers::ZeroPadding2D(layers::SidePairs{{0, 1}, {0, 1}})(p);
    p2 = layers::Cropping2D(layers::SidePairs{{1, 0}, {1, 0}})(p2);
    p2 = layers::AveragePooling2D({1, 1}, {.strides = ops::IntOrTuple{2, 2},
                                           .padding = "valid",
                                           .name = "adjust_avg_pool_2_" + id})(p2);
    p2 = conv_1x1(p2, filters / 2, "adjust_conv_2_" + id);
    p = layers::concatenate({p1, p2}, kChannelAxis);
    return nasnet_batch_norm(p, "adjust_bn_" + id);
  }
  if (p.shape()[p.ndim() - 1] != filters) {
    NameScope inner("adjust_projection_block_" + id);
    p = nasnet_relu(p);
    p = conv_1x1(p, filters, "adjust_conv_projection_" + id);
    return nasnet_batch_norm(p, "adjust_bn_" + id);
  }
  return p;
}

struct Cell {
  KerasTensor x;     // the cell's output
  KerasTensor prev;  // its input, the next cell's `p`
};

// The ReLU-1x1 convolution-BN every cell starts `ip` with.
KerasTensor cell_input(const KerasTensor& ip, int64_t filters, const std::string& kind,
                       const std::string& id) {
  auto h = nasnet_relu(ip);
  h = conv_1x1(h, filters, kind + "_conv_1_" + id);
  return nasnet_batch_norm(h, kind + "_bn_1_" + id);
}

// nasnet._normal_a_cell
Cell normal_cell(const KerasTensor& ip, const std::optional<KerasTensor>& previous,
                 int64_t filters, const std::string& id) {
  NameScope scope("normal_A_block_" + id);
  auto p = adjust_block(previous, ip, filters, id);
  auto h = cell_input(ip, filters, "normal", id);
  KerasTensor x1, x2, x3, x4, x5;
  {
    NameScope nasnet_block("block_1");
    auto left = separable_block(h, filters, 5, 1, "normal_left1_" + id);
    auto right = separable_block(p, filters, 3, 1, "normal_right1_" + id);
    x1 = add(left, right, "normal_add_1_" + id);
  }
  {
    NameScope nasnet_block("block_2");
    auto left = separable_block(p, filters, 5, 1, "normal_left2_" + id);
    auto right = separable_block(p, filters, 3, 1, "normal_right2_" + id);
    x2 = add(left, right, "normal_add_2_" + id);
  }
  {
    NameScope nasnet_block("block_3");
    x3 = add(pool("avg", h, 1, "same", "normal_left3_" + id), p, "normal_add_3_" + id);
  }
  {
    NameScope nasnet_block("block_4");
    auto left = pool("avg", p, 1, "same", "normal_left4_" + id);
    auto right = pool("avg", p, 1, "same", "normal_right4_" + id);
    x4 = add(left, right, "normal_add_4_" + id);
  }
  {
    NameScope nasnet_block("block_5");
    x5 = add(separable_block(h, filters, 3, 1, "normal_left5_" + id), h,
             "normal_add_5_" + id);
  }
  auto x = layers::concatenate({p, x1, x2, x3, x4, x5}, kChannelAxis,
                               {.name = "normal_concat_" + id});
  return {x, ip};
}

// nasnet._reduction_a_cell
Cell reduction_cell(const KerasTensor& ip, const std::optional<KerasTensor>& previous,
                    int64_t filters, const std::string& id) {
  NameScope scope("reduction_A_block_" + id);
  auto p = adjust_block(previous, ip, filters, id);
  auto h = cell_input(ip, filters, "reduction", id);
  auto h3 = zero_pad(h, 3, "reduction_pad_1_" + id);
  KerasTensor x1, x2, x3, x4, x5;
  {
    NameScope nasnet_block("block_1");
    auto left = separable_block(h, filters, 5, 2, "reduction_left1_" + id);
    auto right = separable_block(p, filters, 7, 2, "reduction_right1_" + id);
    x1 = add(left, right, "reduction_add_1_" + id);
  }
  {
    NameScope nasnet_block("block_2");
    auto left = pool("max", h3, 2, "valid", "reduction_left2_" + id);
    auto right = separable_block(p, filters, 7, 2, "reduction_right2_" + id);
    x2 = add(left, right, "reduction_add_2_" + id);
  }
  {
    NameScope nasnet_block("block_3");
    auto left = pool("avg", h3, 2, "valid", "reduction_left3_" + id);
    auto right = separable_block(p, filters, 5, 2, "reduction_right3_" + id);
    x3 = add(left, right, "reduction_add3_" + id);
  }
  {
    NameScope nasnet_block("block_4");
    x4 = add(x2, pool("avg", x1, 1, "same", "reduction_left4_" + id));
  }
  {
    NameScope nasnet_block("block_5");
    auto left = separable_block(x1, filters, 3, 1, "reduction_left4_" + id);
    auto right = pool("max", h3, 2, "valid", "reduction_right5_" + id);
    x5 = add(left, right, "reduction_add4_" + id);
  }
  auto x = layers::concatenate({x2, x3, x4, x5}, kChannelAxis,
                               {.name = "reduction_concat_" + id});
  return {x, ip};
}

// The two published configurations of nasnet.NASNet.
struct NASNetConfig {
  int64_t penultimate_filters, num_blocks, stem_block_filters;
  bool skip_reduction;
  int64_t default_size;
  std::string name, weights_file;
};

ModelPtr<FunctionalModel> build_nasnet(ApplicationOptions o, const NASNetConfig& c) {
  check<ValueError>(config::image_data_format() != "channels_first",
                    "NASNet does not support the `channels_first` image data format. Switch "
                    "to `channels_last` (keras::config::set_image_data_format).");
  if (o.weights == "imagenet" && o.input_shape) {
    for (int64_t d : *o.input_shape) {
      check<ValueError>(d >= 0, "When specifying the input shape of a NASNet and loading "
                        "`ImageNet` weights, the input_shape argument must be static (no -1 "
                        "entries).");
    }
  }
  const int64_t filter_multiplier = 2;
  const int64_t filters = c.penultimate_filters / 24;
  const detail::Architecture arch{.default_name = c.name,
                                  .default_size = c.default_size,
                                  .min_size = 32,
                                  .weights_file_top = c.weights_file + ".h5",
                                  .weights_file_notop = c.weights_file + "_no_top.h5"};
  auto image = detail::image_input(o, arch);

  auto x = layers::Conv2D(c.stem_block_filters, {3, 3},
                          {.strides = ops::IntOrTuple{2, 2}, .padding = "valid",
                           .use_bias = false, .kernel_initializer = "he_normal",
                           .name = "stem_conv1"})(image);
  x = nasnet_batch_norm(x, "stem_bn1");
  std::optional<KerasTensor> p;
  auto cell = reduction_cell(x, p, filters / (filter_multiplier * filter_multiplier), "stem_1");
  cell = reduction_cell(cell.x, cell.prev, filters / filter_multiplier, "stem_2");
  int64_t stage_filters = filters;
  int64_t next_id = 0;
  for (int stage = 0; stage < 3; ++stage) {
    if (stage > 0) {
      // Before stages 2 and 3: a reduction cell; with skip_reduction the next normal cell
      // adjusts the output of the cell before it rather than the reduction cell's input.
      stage_filters *= filter_multiplier;
      const KerasTensor before = cell.prev;
      cell = reduction_cell(cell.x, cell.prev, stage_filters,
                            "reduce_" + std::to_string(stage * c.num_blocks));
      if (c.skip_reduction) cell.prev = before;
      next_id = stage * c.num_blocks + 1;
    }
    for (int64_t i = 0; i < c.num_blocks; ++i) {
      cell = normal_cell(cell.x, cell.prev, stage_filters, std::to_string(next_id + i));
    }
  }
  x = nasnet_relu(cell.x);
  x = detail::classifier_head(x, o, "", "", "");
  return detail::finish(image, x, o, arch);
}

}  // namespace

ModelPtr<FunctionalModel> NASNetMobile(const ApplicationOptions& options) {
  ApplicationOptions o = options;
  // Keras's NASNetMobile: without top and input shape, the input is 224x224, not free.
  if (!o.include_top && !o.input_shape) o.input_shape = Shape{224, 224, 3};
  return build_nasnet(o, {.penultimate_filters = 1056, .num_blocks = 4,
                          .stem_block_filters = 32, .skip_reduction = false,
                          .default_size = 224, .name = "nasnet_mobile",
                          .weights_file = "nasnet_mobile"});
}

ModelPtr<FunctionalModel> NASNetLarge(const ApplicationOptions& o) {
  return build_nasnet(o, {.penultimate_filters = 4032, .num_blocks = 6,
                          .stem_block_filters = 96, .skip_reduction = true,
                          .default_size = 331, .name = "nasnet_large",
                          .weights_file = "nasnet_large"});
}

namespace nasnet {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "tf");
}
}  // namespace nasnet

}  // namespace keras::applications

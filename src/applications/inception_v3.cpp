// Facts from keras/src/applications/inception_v3.py: the stem, the eleven mixed blocks, which
// layers carry names (most do not: their automatic names "conv2d_17", "activation_17" are part
// of the weight files' layout), and the weight file names.

#include "keras/applications/inception_v3.h"

#include "application_builder.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;
using detail::bn_axis;

// inception_v3.conv2d_bn: convolution without bias, BatchNormalization without scale, ReLU;
// named only when `name` is given.
KerasTensor v3_conv_bn(const KerasTensor& x, int64_t filters, int64_t rows, int64_t cols,
                       const std::string& padding = "same", int64_t stride = 1,
                       const std::string& name = "") {
  auto y = layers::Conv2D(filters, {rows, cols},
                          {.strides = {stride, stride}, .padding = padding, .use_bias = false,
                           .name = name.empty() ? "" : name + "_conv"})(x);
  y = layers::BatchNormalization({.axis = bn_axis(), .scale = false,
                                  .name = name.empty() ? "" : name + "_bn"})(y);
  return layers::Activation("relu", {.name = name})(y);
}

KerasTensor avg_pool_same(const KerasTensor& x) {
  return layers::AveragePooling2D({3, 3}, {.strides = ops::IntOrTuple{1, 1},
                                           .padding = "same"})(x);
}

KerasTensor v3_max_pool(const KerasTensor& x) {
  return layers::MaxPooling2D({3, 3}, {.strides = ops::IntOrTuple{2, 2}})(x);
}

KerasTensor v3_concat(const std::vector<KerasTensor>& branches, const std::string& name = "") {
  return layers::concatenate(branches, bn_axis(), {.name = name});
}

// Mixed 0-2 (35x35): 1x1, 5x5, double 3x3 and pooled branches.
KerasTensor block_35(const KerasTensor& x, int64_t pool_filters, const std::string& name) {
  auto b1x1 = v3_conv_bn(x, 64, 1, 1);
  auto b5x5 = v3_conv_bn(x, 48, 1, 1);
  b5x5 = v3_conv_bn(b5x5, 64, 5, 5);
  auto b3x3dbl = v3_conv_bn(x, 64, 1, 1);
  b3x3dbl = v3_conv_bn(b3x3dbl, 96, 3, 3);
  b3x3dbl = v3_conv_bn(b3x3dbl, 96, 3, 3);
  auto pool = v3_conv_bn(avg_pool_same(x), pool_filters, 1, 1);
  return v3_concat({b1x1, b5x5, b3x3dbl, pool}, name);
}

// Mixed 4-7 (17x17): factorized 7x7 branches with `mid` filters inside.
KerasTensor block_17(const KerasTensor& x, int64_t mid, const std::string& name) {
  auto b1x1 = v3_conv_bn(x, 192, 1, 1);
  auto b7x7 = v3_conv_bn(x, mid, 1, 1);
  b7x7 = v3_conv_bn(b7x7, mid, 1, 7);
  b7x7 = v3_conv_bn(b7x7, 192, 7, 1);
  auto b7x7dbl = v3_conv_bn(x, mid, 1, 1);
  b7x7dbl = v3_conv_bn(b7x7dbl, mid, 7, 1);
  b7x7dbl = v3_conv_bn(b7x7dbl, mid, 1, 7);
  b7x7dbl = v3_conv_bn(b7x7dbl, mid, 7, 1);
  b7x7dbl = v3_conv_bn(b7x7dbl, 192, 1, 7);
  auto pool = v3_conv_bn(avg_pool_same(x), 192, 1, 1);
  return v3_concat({b1x1, b7x7, b7x7dbl, pool}, name);
}

// Mixed 9-10 (8x8): expanded filter bank outputs; the second concatenation has no name.
KerasTensor block_8(const KerasTensor& x, int i) {
  auto b1x1 = v3_conv_bn(x, 320, 1, 1);
  auto b3x3 = v3_conv_bn(x, 384, 1, 1);
  auto b3x3_1 = v3_conv_bn(b3x3, 384, 1, 3);
  auto b3x3_2 = v3_conv_bn(b3x3, 384, 3, 1);
  b3x3 = v3_concat({b3x3_1, b3x3_2}, "mixed9_" + std::to_string(i));
  auto b3x3dbl = v3_conv_bn(x, 448, 1, 1);
  b3x3dbl = v3_conv_bn(b3x3dbl, 384, 3, 3);
  auto b3x3dbl_1 = v3_conv_bn(b3x3dbl, 384, 1, 3);
  auto b3x3dbl_2 = v3_conv_bn(b3x3dbl, 384, 3, 1);
  b3x3dbl = v3_concat({b3x3dbl_1, b3x3dbl_2});
  auto pool = v3_conv_bn(avg_pool_same(x), 192, 1, 1);
  return v3_concat({b1x1, b3x3, b3x3dbl, pool}, "mixed" + std::to_string(9 + i));
}

}  // namespace

ModelPtr<FunctionalModel> InceptionV3(const ApplicationOptions& o) {
  const detail::Architecture arch{
      .default_name = "inception_v3",
      .default_size = 299,
      .min_size = 75,
      .weights_file_top = "inception_v3_weights_tf_dim_ordering_tf_kernels.h5",
      .weights_file_notop = "inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5"};
  auto image = detail::image_input(o, arch);

  auto x = v3_conv_bn(image, 32, 3, 3, "valid", 2);
  x = v3_conv_bn(x, 32, 3, 3, "valid");
  x = v3_conv_bn(x, 64, 3, 3);
  x = v3_max_pool(x);
  x = v3_conv_bn(x, 80, 1, 1, "valid");
  x = v3_conv_bn(x, 192, 3, 3, "valid");
  x = v3_max_pool(x);

  x = block_35(x, 32, "mixed0");
  x = block_35(x, 64, "mixed1");
  x = block_35(x, 64, "mixed2");

  // Mixed 3: down to 17x17.
  auto b3x3 = v3_conv_bn(x, 384, 3, 3, "valid", 2);
  auto b3x3dbl = v3_conv_bn(x, 64, 1, 1);
  b3x3dbl = v3_conv_bn(b3x3dbl, 96, 3, 3);
  b3x3dbl = v3_conv_bn(b3x3dbl, 96, 3, 3, "valid", 2);
  x = v3_concat({b3x3, b3x3dbl, v3_max_pool(x)}, "mixed3");

  x = block_17(x, 128, "mixed4");
  x = block_17(x, 160, "mixed5");
  x = block_17(x, 160, "mixed6");
  x = block_17(x, 192, "mixed7");

  // Mixed 8: down to 8x8.
  b3x3 = v3_conv_bn(x, 192, 1, 1);
  b3x3 = v3_conv_bn(b3x3, 320, 3, 3, "valid", 2);
  auto b7x7x3 = v3_conv_bn(x, 192, 1, 1);
  b7x7x3 = v3_conv_bn(b7x7x3, 192, 1, 7);
  b7x7x3 = v3_conv_bn(b7x7x3, 192, 7, 1);
  b7x7x3 = v3_conv_bn(b7x7x3, 192, 3, 3, "valid", 2);
  x = v3_concat({b3x3, b7x7x3, v3_max_pool(x)}, "mixed8");

  x = block_8(x, 0);
  x = block_8(x, 1);

  x = detail::classifier_head(x, o, "avg_pool", "", "");
  return detail::finish(image, x, o, arch);
}

namespace inception_v3 {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "tf");
}
}  // namespace inception_v3

}  // namespace keras::applications

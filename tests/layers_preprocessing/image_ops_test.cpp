// keras::ops::image against NumPy references of Keras's JAX backend (tools/golden/ops_image.py,
// itself cross-checked against PyTorch's interpolate and grid_sample), plus shapes, dtypes and
// bad arguments.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
namespace image = ops::image;

std::optional<int64_t> opt(const json& kw, const char* key) {
  if (!kw.contains(key) || kw[key].is_null()) return std::nullopt;
  return kw[key].get<int64_t>();
}

// The op's output and, when an upstream gradient is given, d sum(output * up) / d images.
TensorList with_grad(const Tensor& x, const Tensor& up,
                     const std::function<Tensor(const Tensor&)>& fn) {
  GradientTape tape;
  Tensor w = ops::stop_gradient(x);
  tape.watch(w);
  Tensor y = fn(w);
  if (!up.defined()) return {y};
  Tensor loss = ops::sum(ops::multiply(ops::cast(y, DType::Float64), ops::cast(up, DType::Float64)));
  return {y, tape.gradient(loss, w)};
}

GoldenOps image_ops() {
  GoldenOps m;
  m["resize"] = [](const TensorList& in, const json& kw) {
    auto size = kw["size"].get<std::vector<int64_t>>();
    image::ResizeOptions o{.interpolation = kw["interpolation"].get<std::string>(),
                           .antialias = kw["antialias"].get<bool>(),
                           .crop_to_aspect_ratio = kw["crop_to_aspect_ratio"].get<bool>(),
                           .pad_to_aspect_ratio = kw["pad_to_aspect_ratio"].get<bool>(),
                           .fill_value = kw["fill_value"].get<double>(),
                           .data_format = kw["data_format"].get<std::string>()};
    return with_grad(in[0], in.size() > 1 ? in[1] : Tensor(),
                     [&](const Tensor& x) { return image::resize(x, {size[0], size[1]}, o); });
  };
  m["affine_transform"] = [](const TensorList& in, const json& kw) {
    image::AffineTransformOptions o{.interpolation = kw["interpolation"].get<std::string>(),
                                    .fill_mode = kw["fill_mode"].get<std::string>(),
                                    .fill_value = kw["fill_value"].get<double>(),
                                    .data_format = kw["data_format"].get<std::string>()};
    return with_grad(in[0], in.size() > 2 ? in[2] : Tensor(),
                     [&](const Tensor& x) { return image::affine_transform(x, in[1], o); });
  };
  m["map_coordinates"] = [](const TensorList& in, const json& kw) {
    image::MapCoordinatesOptions o{.fill_mode = kw["fill_mode"].get<std::string>(),
                                   .fill_value = kw["fill_value"].get<double>()};
    const int order = kw["order"].get<int>();
    return with_grad(in[0], in[2], [&](const Tensor& x) {
      return image::map_coordinates(x, in[1], order, o);
    });
  };
  m["crop_images"] = [](const TensorList& in, const json& kw) {
    image::CropImagesOptions o{.top_cropping = opt(kw, "top_cropping"),
                               .left_cropping = opt(kw, "left_cropping"),
                               .bottom_cropping = opt(kw, "bottom_cropping"),
                               .right_cropping = opt(kw, "right_cropping"),
                               .target_height = opt(kw, "target_height"),
                               .target_width = opt(kw, "target_width"),
                               .data_format = kw["data_format"].get<std::string>()};
    return with_grad(in[0], in[1], [&](const Tensor& x) { return image::crop_images(x, o); });
  };
  m["pad_images"] = [](const TensorList& in, const json& kw) {
    image::PadImagesOptions o{.top_padding = opt(kw, "top_padding"),
                              .left_padding = opt(kw, "left_padding"),
                              .bottom_padding = opt(kw, "bottom_padding"),
                              .right_padding = opt(kw, "right_padding"),
                              .target_height = opt(kw, "target_height"),
                              .target_width = opt(kw, "target_width"),
                              .data_format = kw["data_format"].get<std::string>()};
    return with_grad(in[0], in[1], [&](const Tensor& x) { return image::pad_images(x, o); });
  };
  return m;
}

TEST(ImageOpsGolden, MatchesJaxSemantics) {
  auto exercised = run_golden("ops_image", image_ops());
  EXPECT_EQ(exercised.size(), 5u);
}

// The same cases with the outputs of real Keras 3.15 (tools/keras_oracle/ops.py).
TEST(ImageOpsOracle, MatchesKeras) { run_oracle("ops_image", image_ops()); }

TEST(ImageOps, ResizeShapesAndDtypes) {
  Tensor x = ops::ones({2, 8, 6, 3});
  EXPECT_EQ(image::resize(x, {4, 5}).shape(), Shape({2, 4, 5, 3}));
  EXPECT_EQ(image::resize(ops::ones({3, 8, 6}), {4, 5}, {.data_format = "channels_first"}).shape(),
            Shape({3, 4, 5}));
  // Integer images stay integers; constant images stay constant (the weights sum to one).
  Tensor u8 = ops::full({1, 5, 5, 1}, 200, DType::UInt8);
  Tensor r = image::resize(u8, {9, 3}, {.interpolation = "bicubic"});
  EXPECT_EQ(r.dtype(), DType::UInt8);
  EXPECT_TENSOR_EQ(r, ops::full({1, 9, 3, 1}, 200, DType::UInt8));
  EXPECT_EQ(image::resize(ops::ones({1, 4, 4, 1}, DType::Float64), {2, 2}).dtype(),
            DType::Float64);
}

TEST(ImageOps, AffineIdentityIsExact) {
  Tensor x = ops::reshape(ops::arange(0, 2 * 5 * 4 * 3, 1, DType::Float32), Shape{2, 5, 4, 3});
  Tensor identity = ops::convert_to_tensor(std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0});
  for (std::string mode : {"constant", "nearest", "wrap", "mirror", "reflect"})
    for (std::string interp : {"bilinear", "nearest"})
      EXPECT_TENSOR_EQ(image::affine_transform(x, identity,
                                               {.interpolation = interp, .fill_mode = mode}),
                       x);
}

TEST(ImageOps, BadArgumentsAreNamed) {
  Tensor x = ops::ones({2, 4, 4, 1});
  EXPECT_THROW(image::resize(ops::ones({4, 4}), {2, 2}), ValueError);
  EXPECT_THROW(image::resize(x, {0, 2}), ValueError);
  EXPECT_THROW(image::resize(x, {2, 2}, {.interpolation = "area"}), ValueError);
  EXPECT_THROW(image::resize(x, {2, 2}, {.crop_to_aspect_ratio = true, .pad_to_aspect_ratio = true}),
               ValueError);
  EXPECT_THROW(image::resize(x, {2, 2}, {.fill_mode = "reflect"}), ValueError);
  EXPECT_THROW(image::resize(x, {2, 2}, {.data_format = "NHWC"}), ValueError);
  Tensor t = ops::zeros({2, 8});
  EXPECT_THROW(image::affine_transform(x, ops::zeros({2, 6})), ValueError);
  EXPECT_THROW(image::affine_transform(x, ops::zeros({3, 8})), ValueError);
  EXPECT_THROW(image::affine_transform(x, t, {.interpolation = "bicubic"}), ValueError);
  EXPECT_THROW(image::affine_transform(x, t, {.fill_mode = "circular"}), ValueError);
  EXPECT_THROW(image::map_coordinates(ops::ones({3, 3}), ops::zeros({3, 4}), 1), ValueError);
  EXPECT_THROW(image::map_coordinates(ops::ones({3, 3}), ops::zeros({2, 4}), 3), ValueError);
  EXPECT_THROW(image::crop_images(x, {.top_cropping = 1, .target_height = 2}), ValueError);
  EXPECT_THROW(image::crop_images(x, {.top_cropping = 1, .left_cropping = 0, .bottom_cropping = 1,
                                      .right_cropping = 0, .target_height = 2}),
               ValueError);
  EXPECT_THROW(image::crop_images(x, {.top_cropping = 3, .left_cropping = 0, .target_height = 2,
                                      .target_width = 2}),
               ValueError);
  EXPECT_THROW(image::pad_images(x, {.top_padding = -1, .left_padding = 0, .bottom_padding = 0,
                                     .right_padding = 0}),
               ValueError);
  EXPECT_THROW(image::pad_images(x, {.top_padding = 3, .left_padding = 0, .target_height = 5,
                                     .target_width = 4}),
               ValueError);
  try {
    image::crop_images(x, {.top_cropping = 1, .left_cropping = 0, .bottom_cropping = 1,
                           .target_height = 2, .target_width = 4});
    ADD_FAILURE() << "crop_images accepted three vertical arguments";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("top_cropping"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keras

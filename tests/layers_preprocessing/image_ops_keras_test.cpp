// The keras.ops.image functions added for Keras 3.15 parity (colour spaces, patches, filters,
// SSIM, perspective, scale-and-translate, elastic) against real Keras 3.15 on JAX
// (tools/keras_oracle/image_ops.py: values and jax.vjp gradients), float64 finite-difference
// gradient checks, shapes, dtypes and bad arguments.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "gradcheck_helpers.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/keras.h"
#include "ops/image/image_common.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
namespace image = ops::image;
using Fn = std::function<Tensor(const TensorList&)>;

// fn(inputs) and, when the case asks for gradients, d sum(fn * up) / d input for every input
// (`up` is the case's last input).
TensorList with_grads(const TensorList& in, const json& kw, const Fn& fn) {
  TensorList args(in.begin(), in.end() - 1);
  const Tensor& up = in.back();
  if (!kw.value("grad", true)) return {fn(args)};
  GradientTape tape(/*persistent=*/true);
  for (auto& a : args) {
    a = ops::stop_gradient(a);
    tape.watch(a);
  }
  Tensor y = fn(args);
  Tensor loss =
      ops::sum(ops::multiply(ops::cast(y, DType::Float64), ops::cast(up, DType::Float64)));
  TensorList out{y};
  for (const auto& a : args) {
    Tensor g = tape.gradient(loss, a);
    out.push_back(g.defined() ? g : ops::zeros_like(a));
  }
  return out;
}

std::string df(const json& kw) {
  return kw["data_format"].get<std::string>();
}

std::optional<ops::IntOrTuple> int_or_tuple(const json& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_number()) return ops::IntOrTuple(v.get<int64_t>());
  return ops::IntOrTuple(v.get<std::vector<int64_t>>());
}

image::ExtractPatchesOptions patch_options(const json& kw) {
  return {.strides = int_or_tuple(kw["strides"]),
          .dilation_rate = *int_or_tuple(kw["dilation_rate"]),
          .padding = kw["padding"].get<std::string>(),
          .data_format = df(kw)};
}

GoldenOps keras_image_ops() {
  GoldenOps m;
  m["rgb_to_grayscale"] = [](const TensorList& in, const json& kw) {
    return with_grads(in, kw,
                      [&](const TensorList& a) { return image::rgb_to_grayscale(a[0], df(kw)); });
  };
  m["rgb_to_hsv"] = [](const TensorList& in, const json& kw) {
    return with_grads(in, kw, [&](const TensorList& a) { return image::rgb_to_hsv(a[0], df(kw)); });
  };
  m["hsv_to_rgb"] = [](const TensorList& in, const json& kw) {
    return with_grads(in, kw, [&](const TensorList& a) { return image::hsv_to_rgb(a[0], df(kw)); });
  };
  m["extract_patches"] = [](const TensorList& in, const json& kw) {
    return with_grads(in, kw, [&](const TensorList& a) {
      return image::extract_patches(a[0], *int_or_tuple(kw["size"]), patch_options(kw));
    });
  };
  m["extract_patches_3d"] = [](const TensorList& in, const json& kw) {
    return with_grads(in, kw, [&](const TensorList& a) {
      return image::extract_patches_3d(a[0], *int_or_tuple(kw["size"]), patch_options(kw));
    });
  };
  m["gaussian_blur"] = [](const TensorList& in, const json& kw) {
    auto k = kw["kernel_size"].get<std::vector<int64_t>>();
    auto s = kw["sigma"].get<std::vector<double>>();
    return with_grads(in, kw, [&](const TensorList& a) {
      return image::gaussian_blur(a[0], {k[0], k[1]}, {s[0], s[1]}, df(kw));
    });
  };
  m["sobel_edges"] = [](const TensorList& in, const json& kw) {
    return with_grads(in, kw,
                      [&](const TensorList& a) { return image::sobel_edges(a[0], df(kw)); });
  };
  m["ssim"] = [](const TensorList& in, const json& kw) {
    image::SSIMOptions o{.max_val = kw["max_val"].get<double>(),
                         .filter_size = kw["filter_size"].get<int64_t>(),
                         .filter_sigma = kw["filter_sigma"].get<double>(),
                         .k1 = kw["k1"].get<double>(),
                         .k2 = kw["k2"].get<double>(),
                         .data_format = df(kw)};
    return with_grads(in, kw, [&](const TensorList& a) { return image::ssim(a[0], a[1], o); });
  };
  m["perspective_transform"] = [](const TensorList& in, const json& kw) {
    image::PerspectiveTransformOptions o{.interpolation = kw["interpolation"].get<std::string>(),
                                         .fill_value = kw["fill_value"].get<double>(),
                                         .data_format = df(kw)};
    return with_grads(in, kw, [&](const TensorList& a) {
      return image::perspective_transform(a[0], a[1], a[2], o);
    });
  };
  m["scale_and_translate"] = [](const TensorList& in, const json& kw) {
    auto out = kw["output_shape"].get<std::vector<int64_t>>();
    auto dims = kw["spatial_dims"].get<std::vector<int>>();
    return with_grads(in, kw, [&](const TensorList& a) {
      return image::scale_and_translate(a[0], Shape(out.begin(), out.end()), a[1], a[2], dims,
                                        kw["method"].get<std::string>(),
                                        kw["antialias"].get<bool>());
    });
  };
  m["elastic_transform"] = [](const TensorList& in, const json& kw) {
    image::ElasticTransformOptions o{.alpha = kw["alpha"].get<double>(),
                                     .sigma = kw["sigma"].get<double>(),
                                     .interpolation = kw["interpolation"].get<std::string>(),
                                     .fill_mode = kw["fill_mode"].get<std::string>(),
                                     .fill_value = kw["fill_value"].get<double>(),
                                     .data_format = df(kw)};
    return with_grads(in, kw, [&](const TensorList& a) {
      return image::detail::elastic_transform_with_noise(a[0], a[1], o);
    });
  };
  return m;
}

TEST(ImageOpsKeras, MatchesKeras) {
  auto exercised = run_oracle("image_ops", keras_image_ops());
  EXPECT_EQ(exercised.size(), 11u);
}

// Float64 finite differences of every differentiable new op, on smooth inputs away from the
// kernels' kinks.
TEST(ImageOpsKeras, FiniteDifferenceGradients) {
  const Tensor rgb = sin_values({2, 4, 3, 3}, 1, 0.4, 0.5);  // in [0.1, 0.9]
  expect_gradcheck("rgb_to_grayscale",
                   [](const TensorList& a) { return image::rgb_to_grayscale(a[0]); }, {rgb});
  expect_gradcheck("rgb_to_hsv", [](const TensorList& a) { return image::rgb_to_hsv(a[0]); },
                   {rgb});
  expect_gradcheck("hsv_to_rgb",
                   [](const TensorList& a) { return image::hsv_to_rgb(a[0], "channels_first"); },
                   {sin_values({3, 4, 5}, 2, 0.4, 0.5)});
  const Tensor x = randn({2, 6, 5, 2}, 3);
  expect_gradcheck("extract_patches",
                   [](const TensorList& a) {
                     return image::extract_patches(
                         a[0], {3, 2}, {.strides = ops::IntOrTuple{1, 2}, .padding = "same"});
                   },
                   {x});
  expect_gradcheck("extract_patches_3d",
                   [](const TensorList& a) { return image::extract_patches_3d(a[0], 2); },
                   {randn({4, 4, 4, 1}, 4)});
  expect_gradcheck("gaussian_blur",
                   [](const TensorList& a) {
                     return image::gaussian_blur(a[0], {3, 5}, {0.8, 1.5});
                   },
                   {x});
  expect_gradcheck("sobel_edges", [](const TensorList& a) { return image::sobel_edges(a[0]); },
                   {x});
  expect_gradcheck("ssim",
                   [](const TensorList& a) {
                     return image::ssim(a[0], a[1], {.filter_size = 3, .filter_sigma = 1.0});
                   },
                   {sin_values({2, 6, 5, 2}, 5, 0.4, 0.5), sin_values({2, 6, 5, 2}, 6, 0.4, 0.5)});
  const Tensor start =
      Tensor::from_vector(std::vector<double>{0, 0, 0, 5, 4, 0, 4, 5}, Shape{4, 2});
  const Tensor end = Tensor::from_vector(
      std::vector<double>{0.3, 0.2, 0.1, 5.3, 4.2, -0.4, 3.7, 4.6}, Shape{4, 2});
  // The homography is solved in float32 (as Keras does): differences of 1e-3 in the points.
  expect_gradcheck(
      "perspective_transform",
      [](const TensorList& a) { return image::perspective_transform(a[0], a[1], a[2]); },
      {x, start, end}, {.eps = 1e-3, .atol = 2e-2, .rtol = 2e-2});
  expect_gradcheck("scale_and_translate",
                   [](const TensorList& a) {
                     return image::scale_and_translate(a[0], Shape{2, 4, 7, 2}, a[1], a[2], {1, 2},
                                                       "cubic", true);
                   },
                   {x, Tensor::from_vector(std::vector<double>{0.7, 1.3}, Shape{2}),
                    Tensor::from_vector(std::vector<double>{0.13, -0.21}, Shape{2})});
  expect_gradcheck("elastic_transform",
                   [](const TensorList& a) {
                     return image::detail::elastic_transform_with_noise(
                         a[0], a[1], {.alpha = 3.0, .sigma = 0.9, .fill_mode = "mirror"});
                   },
                   {x, randn({2, 6, 5}, 7, 0.3)});
}

TEST(ImageOpsKeras, ShapesAndDtypes) {
  Tensor u8 = ops::full({2, 4, 4, 3}, 200, DType::UInt8);
  EXPECT_EQ(image::rgb_to_grayscale(u8).dtype(), DType::UInt8);
  EXPECT_EQ(image::rgb_to_grayscale(u8).shape(), Shape({2, 4, 4, 1}));
  EXPECT_EQ(image::rgb_to_grayscale(ops::ones({3, 4, 4}), "channels_first").shape(),
            Shape({1, 4, 4}));
  EXPECT_EQ(image::extract_patches(ops::ones({20, 20, 3}), {3, 3}, {.strides = 1}).shape(),
            Shape({18, 18, 27}));
  EXPECT_EQ(image::extract_patches(ops::ones({2, 10, 10, 10, 3}), {3, 3, 3}).shape(),
            Shape({2, 3, 3, 3, 81}));
  EXPECT_EQ(image::extract_patches(u8, 2).dtype(), DType::UInt8);
  EXPECT_EQ(image::sobel_edges(ops::ones({2, 3, 5, 6}), "channels_first").shape(),
            Shape({2, 3, 5, 6, 2}));
  EXPECT_EQ(image::ssim(ops::ones({11, 11, 3}), ops::ones({11, 11, 3})).shape(), Shape({}));
  EXPECT_EQ(image::ssim(u8, u8, {.filter_size = 3}).dtype(), DType::UInt8);
  EXPECT_EQ(image::scale_and_translate(u8, Shape{2, 8, 2, 3},
                                       ops::convert_to_tensor(std::vector<float>{2, 0.5}),
                                       ops::zeros({2}), {1, 2}, "linear")
                .dtype(),
            DType::Float32);
}

// elastic_transform's draw differs from JAX's, so its random part is checked by invariants:
// seeded calls repeat, seeds differ, alpha = 0 is the identity, and bilinear sampling in
// "reflect" mode stays inside the input's range.
TEST(ImageOpsKeras, ElasticTransformInvariants) {
  Tensor x = sin_values({2, 16, 12, 3}, 8, 0.5, 0.5);
  image::ElasticTransformOptions o{.alpha = 10.0, .sigma = 2.0, .seed = 42};
  Tensor a = image::elastic_transform(x, o);
  EXPECT_TENSOR_EQ(image::elastic_transform(x, o), a);
  o.seed = 43;
  EXPECT_GT(ops::max(ops::abs(ops::subtract(image::elastic_transform(x, o), a))).item<double>(),
            1e-3);
  EXPECT_GT(ops::max(ops::abs(ops::subtract(x, a))).item<double>(), 1e-3);
  EXPECT_GE(ops::min(a).item<double>(), ops::min(x).item<double>() - 1e-12);
  EXPECT_LE(ops::max(a).item<double>(), ops::max(x).item<double>() + 1e-12);
  EXPECT_TENSOR_EQ(image::elastic_transform(x, {.alpha = 0.0, .seed = 1}), x);
  EXPECT_EQ(image::elastic_transform(ops::ones({5, 7, 1}), {.seed = 1}).shape(), Shape({5, 7, 1}));
}

TEST(ImageOpsKeras, BadArgumentsAreNamed) {
  Tensor x = ops::ones({2, 8, 8, 3});
  auto expect_error = [](const std::function<void()>& f, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one naming " << needle;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error([&] { image::rgb_to_grayscale(ops::ones({2, 8, 8, 2})); }, "channel");
  expect_error([&] { image::rgb_to_hsv(ops::ones({8, 8, 3}, DType::Int32)); }, "dtype");
  expect_error([&] { image::hsv_to_rgb(ops::ones({8, 8, 4})); }, "3 channels");
  expect_error([&] { image::extract_patches(x, {2, 2, 2, 2}); }, "size");
  expect_error([&] { image::extract_patches(ops::ones({8, 8, 3}), {2, 2, 2}); }, "rank");
  expect_error([&] { image::gaussian_blur(x, {3, 3}, {0.0, 1.0}); }, "sigma");
  expect_error([&] { image::gaussian_blur(ops::ones({8, 8, 3}, DType::Int32)); }, "float");
  expect_error([&] { image::sobel_edges(ops::ones({8, 8, 3})); }, "rank 4");
  expect_error([&] { image::ssim(x, ops::ones({2, 8, 8, 1})); }, "same shape");
  expect_error([&] { image::ssim(x, x); }, "filter_size");
  expect_error(
      [&] {
        image::perspective_transform(x, ops::zeros({4, 3}), ops::zeros({4, 3}));
      },
      "start_points");
  expect_error(
      [&] {
        image::perspective_transform(x, ops::zeros({4, 2}), ops::zeros({2, 4, 2}));
      },
      "same shape");
  expect_error([&] { image::elastic_transform(x, {.fill_mode = "circular"}); }, "fill_mode");
  expect_error([&] { image::elastic_transform(x, {.interpolation = "bicubic"}); }, "interpolation");
  Tensor s = ops::ones({2}), t = ops::zeros({2});
  expect_error(
      [&] {
        image::scale_and_translate(x, Shape{2, 4, 4, 3}, s, t, {1, 2}, "nearest");
      },
      "method");
  expect_error(
      [&] {
        image::scale_and_translate(x, Shape{4, 4, 3}, s, t, {1, 2}, "linear");
      },
      "output_shape");
  expect_error(
      [&] {
        image::scale_and_translate(x, Shape{2, 4, 4, 5}, s, t, {1, 2}, "linear");
      },
      "not a spatial dim");
}

}  // namespace
}  // namespace keras

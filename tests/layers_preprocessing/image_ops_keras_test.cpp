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
  Tensor loss = ops::sum(ops::multiply(ops::cast(y, DType::Float64), ops::cast(up, DType::Float64)));
  TensorList out{y};
  for (const auto& a : args) {
    Tensor g = tape.gradient(loss, a);
    out.push_back(g.defined() ? g : ops::zeros_like(a));
  }
  return out;
}

std::string df(const json& kw) { return kw["data_format"].get<std::string>(); }

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
    return with_grads(in, kw, [&](const TensorList& a) { return image::rgb_to_grayscale(a[0], df(kw)); });
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
    return with_grads(in, kw, [&](const TensorList& a) { return image::sobel_edges(a[0], df(kw)); });
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

}  // namespace
}  // namespace keras

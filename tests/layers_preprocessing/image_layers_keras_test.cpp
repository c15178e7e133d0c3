// RandomGrayscale, Solarization, RandomInvert, RandomPosterization and AutoContrast: Keras 3.15's
// transform_images on given transformations and its configs (tools/keras_oracle/image_layers.py),
// and the random draws by their statistics (keras-cpp's random stream differs from JAX's).

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
using Transformation = layers::BaseImagePreprocessingLayer::Transformation;

// The layer from Keras's config, its config compared key by key with Keras's, and
// transform_images on the case's transformation.
TensorList replay(const std::shared_ptr<Layer>& layer, const TensorList& in, const json& kw) {
  auto* image_layer = dynamic_cast<layers::BaseImagePreprocessingLayer*>(layer.get());
  const Config config = layer->get_config();
  for (const auto& [key, value] : kw["config"].items()) {
    EXPECT_TRUE(config.contains(key)) << layer->class_name() << " lacks config key " << key;
    if (config.contains(key) && value.is_array()) {
      EXPECT_EQ(config[key].size(), value.size()) << key;
      for (size_t i = 0; i < value.size(); ++i)
        EXPECT_DOUBLE_EQ(config[key][i].get<double>(), value[i].get<double>()) << key;
    } else if (config.contains(key) && value.is_number()) {
      EXPECT_DOUBLE_EQ(config[key].get<double>(), value.get<double>()) << key;
    } else if (config.contains(key)) {
      EXPECT_EQ(config[key], value) << key;
    }
  }
  Transformation t;
  const auto keys = kw["keys"].get<std::vector<std::string>>();
  for (size_t i = 0; i < keys.size(); ++i) t[keys[i]] = in[i + 1];
  return {image_layer->transform_images(in[0], t, kw["training"].get<bool>())};
}

TEST(ImageLayersKeras, TransformsAndConfigsMatchKeras) {
  GoldenOps m;
  m["RandomGrayscale"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomGrayscaleLayer::from_config(kw["config"]), in, kw);
  };
  m["Solarization"] = [](const TensorList& in, const json& kw) {
    return replay(layers::SolarizationLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomInvert"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomInvertLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomPosterization"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomPosterizationLayer::from_config(kw["config"]), in, kw);
  };
  m["AutoContrast"] = [](const TensorList& in, const json& kw) {
    return replay(layers::AutoContrastLayer::from_config(kw["config"]), in, kw);
  };
  EXPECT_EQ(run_oracle("image_layers", m).size(), 5u);
}

Tensor images(int64_t n, uint64_t seed) {
  return random::uniform({n, 2, 2, 3}, 0.0, 255.0, DType::Float32,
                         random::Seed(static_cast<int>(seed)));
}

// The fraction of images the layer changed.
double changed_fraction(const Tensor& x, const Tensor& y) {
  Tensor diff = ops::max(ops::abs(ops::subtract(ops::cast(y, DType::Float32), x)), {1, 2, 3});
  return ops::mean(ops::cast(ops::greater(diff, 1e-3), DType::Float32)).item<double>();
}

TEST(ImageLayersKeras, ProbabilitiesMatchTheFactors) {
  const Tensor x = images(4000, 1);
  auto run = [&](const auto& layer) { return layer->operator()(x, {.training = true}); };
  // RandomGrayscale: P = factor. RandomInvert: P = E[uniform(lower, upper)] = (lower + upper) / 2.
  EXPECT_NEAR(changed_fraction(x, run(layers::RandomGrayscale(0.3, {.seed = 2}))), 0.3, 0.03);
  EXPECT_NEAR(changed_fraction(x, run(layers::RandomInvert({0.2, 0.7}, {.seed = 3}))), 0.45, 0.03);
  EXPECT_NEAR(changed_fraction(x, run(layers::RandomInvert(0.5, {.seed = 4}))), 0.25, 0.03);
  EXPECT_EQ(changed_fraction(x, run(layers::RandomGrayscale(0.0, {.seed = 5}))), 0.0);
}

TEST(ImageLayersKeras, DegenerateFactorsGiveClosedForms) {
  const Tensor x = images(6, 7);
  // factor 1: every image gray, the luma repeated over the channels.
  Tensor gray = layers::RandomGrayscale(1.0)->operator()(x, {.training = true});
  Tensor r = ops::take(x, Tensor(int64_t{0}), -1), g = ops::take(x, Tensor(int64_t{1}), -1),
         b = ops::take(x, Tensor(int64_t{2}), -1);
  Tensor luma = ops::add(ops::add(ops::multiply(r, 0.2989f), ops::multiply(g, 0.5870f)),
                         ops::multiply(b, 0.1140f));
  for (int64_t c = 0; c < 3; ++c)
    EXPECT_TENSOR_NEAR(ops::take(gray, Tensor(c), -1), luma, 1e-5, 1e-4);
  // RandomInvert with factor (1, 1): every image inverted.
  Tensor inv = layers::RandomInvert({1.0, 1.0})->operator()(x, {.training = true});
  EXPECT_TENSOR_NEAR(inv, ops::subtract(255.0f, x), 0.0, 1e-4);
  // Solarization with no addition and threshold 0: every pixel is at or above it, so inverted.
  Tensor sol = layers::Solarization()->operator()(x, {.training = true});
  EXPECT_TENSOR_NEAR(sol, ops::subtract(255.0f, x), 0.0, 1e-4);
  // Inference passes images through.
  EXPECT_TENSOR_EQ(layers::RandomInvert()->operator()(x, {.training = false}), x);
  EXPECT_TENSOR_EQ(layers::RandomGrayscale(1.0)->operator()(x, {.training = false}), x);
  EXPECT_TENSOR_EQ(
      layers::Solarization({.addition_factor = 0.5})->operator()(x, {.training = false}), x);
}

TEST(ImageLayersKeras, SeededRunsRepeatAndStayInRange) {
  const Tensor x = ops::divide(images(50, 8), 255.0f);
  auto solarize = [&] {
    return layers::Solarization({.addition_factor = 0.3,
                                 .threshold_factor = {0.2, 0.8},
                                 .value_range = {0.0, 1.0},
                                 .seed = 11})
        ->
        operator()(x, {.training = true});
  };
  Tensor a = solarize();
  EXPECT_TENSOR_EQ(solarize(), a);
  EXPECT_GE(ops::min(a).item<double>(), 0.0);
  EXPECT_LE(ops::max(a).item<double>(), 1.0 + 1e-6);
  auto invert = [&] {
    return layers::RandomInvert(0.5, {.value_range = {0.0, 1.0}, .seed = 12})
        ->
        operator()(x, {.training = true});
  };
  EXPECT_TENSOR_EQ(invert(), invert());
}

TEST(ImageLayersKeras, PosterizationKeepsTheDrawnBits) {
  const Tensor x = images(200, 13);
  // factor (3, 3): 3 bits kept, so every pixel is floor(x / 32) * 32.
  Tensor three = layers::RandomPosterization({3.0, 3.0})(x, {.training = true});
  EXPECT_TENSOR_EQ(three, ops::multiply(ops::floor(ops::divide(x, 32.0f)), 32.0f));
  // factor (1, 8): at most 7 bits (randint excludes 8), so every pixel is even, and some
  // images keep fewer bits than others.
  auto posterize = [&] {
    return layers::RandomPosterization(8.0, {.seed = 14})(x, {.training = true});
  };
  Tensor y = posterize();
  EXPECT_EQ(ops::max(ops::mod(y, 2.0f)).item<double>(), 0.0);
  EXPECT_TENSOR_EQ(posterize(), y);
  EXPECT_GT(changed_fraction(ops::floor(x), y), 0.5);
}

TEST(ImageLayersKeras, AutoContrastStretchesEachImage) {
  Tensor x = ops::add(ops::multiply(images(5, 15), 0.25f), 40.0f);
  Tensor y = layers::AutoContrast()(x);  // inference too
  EXPECT_TENSOR_NEAR(ops::min(y, {1, 2}), ops::zeros({5, 3}), 0.0, 1e-3);
  EXPECT_TENSOR_NEAR(ops::max(y, {1, 2}), ops::full({5, 3}, 255.0f), 1e-6, 1e-3);
}

TEST(ImageLayersKeras, BadArgumentsAreNamed) {
  EXPECT_THROW(layers::RandomPosterization(9.0), ValueError);
  EXPECT_THROW(layers::RandomPosterization({0.0, 4.0}), ValueError);
  EXPECT_THROW(layers::RandomGrayscale(1.5), ValueError);
  EXPECT_THROW(layers::RandomInvert(-0.2), ValueError);
  EXPECT_THROW(layers::Solarization({.addition_factor = 2.0}), ValueError);
  try {
    layers::Solarization({.threshold_factor = {0.5, 1.5}});
    ADD_FAILURE() << "Solarization accepted threshold_factor (0.5, 1.5)";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("threshold_factor"), std::string::npos) << e.what();
  }
  EXPECT_THROW(layers::RandomInvert()->operator()(ops::ones({4, 4}), {.training = true}),
               ValueError);
}

}  // namespace
}  // namespace keras

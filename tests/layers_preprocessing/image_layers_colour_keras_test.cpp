// RandomHue, RandomSaturation, RandomColorDegeneration, RandomColorJitter, RandomSharpness,
// RandomGaussianBlur, Equalization, ContrastLimitedAdaptiveHistogramEqualization and Pipeline:
// Keras 3.15's transform_images on given transformations and its configs
// (tools/keras_oracle/image_layers_colour.py), the random draws by their statistics (keras-cpp's
// random stream differs from JAX's), closed forms and argument errors.

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/layers/preprocessing/clahe.h"
#include "keras/layers/preprocessing/equalization.h"
#include "keras/layers/preprocessing/pipeline.h"
#include "keras/layers/preprocessing/random_color_degeneration.h"
#include "keras/layers/preprocessing/random_color_jitter.h"
#include "keras/layers/preprocessing/random_gaussian_blur.h"
#include "keras/layers/preprocessing/random_hue.h"
#include "keras/layers/preprocessing/random_saturation.h"
#include "keras/layers/preprocessing/random_sharpness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
using Transformation = layers::BaseImagePreprocessingLayer::Transformation;

// Keras's config (without dtype) compared key by key with the layer's.
void expect_config(const Layer& layer, const json& keras) {
  const Config config = layer.get_config();
  for (const auto& [key, value] : keras.items()) {
    EXPECT_TRUE(config.contains(key)) << layer.class_name() << " lacks config key " << key;
    if (!config.contains(key)) continue;
    if (value.is_array()) {
      ASSERT_EQ(config[key].size(), value.size()) << key;
      for (size_t i = 0; i < value.size(); ++i)
        EXPECT_DOUBLE_EQ(config[key][i].get<double>(), value[i].get<double>()) << key;
    } else if (value.is_number()) {
      EXPECT_DOUBLE_EQ(config[key].get<double>(), value.get<double>()) << key;
    } else {
      EXPECT_EQ(config[key], value) << key;
    }
  }
  for (const auto& [key, value] : config.items()) {
    if (key != "dtype") {
      EXPECT_TRUE(keras.contains(key)) << layer.class_name() << ": extra key " << key;
    }
  }
}

// The layer from Keras's config, its config compared with Keras's, and transform_images on the
// case's transformation.
TensorList replay(const std::shared_ptr<Layer>& layer, const TensorList& in, const json& kw) {
  auto* image_layer = dynamic_cast<layers::BaseImagePreprocessingLayer*>(layer.get());
  expect_config(*layer, kw["config"]);
  Transformation t;
  const auto keys = kw["keys"].get<std::vector<std::string>>();
  for (size_t i = 0; i < keys.size(); ++i) t[keys[i]] = in[i + 1];
  return {image_layer->transform_images(in[0], t, kw["training"].get<bool>())};
}

TEST(ImageLayersColourKeras, TransformsAndConfigsMatchKeras) {
  GoldenOps m;
  m["RandomHue"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomHueLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomSaturation"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomSaturationLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomColorDegeneration"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomColorDegenerationLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomSharpness"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomSharpnessLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomGaussianBlur"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomGaussianBlurLayer::from_config(kw["config"]), in, kw);
  };
  m["RandomColorJitter"] = [](const TensorList& in, const json& kw) {
    return replay(layers::RandomColorJitterLayer::from_config(kw["config"]), in, kw);
  };
  m["Equalization"] = [](const TensorList& in, const json& kw) {
    return replay(layers::EqualizationLayer::from_config(kw["config"]), in, kw);
  };
  m["ContrastLimitedAdaptiveHistogramEqualization"] = [](const TensorList& in, const json& kw) {
    return replay(
        layers::ContrastLimitedAdaptiveHistogramEqualizationLayer::from_config(kw["config"]), in,
        kw);
  };
  m["Pipeline"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::PipelineLayer::from_config(kw["config"]);
    // Keras's Pipeline config is {layers, name}; each layer record round-trips.
    const Config config = layer->get_config();
    EXPECT_EQ(config.size(), 2u) << config.dump();
    EXPECT_EQ(config["name"], kw["config"]["name"]);
    const json& records = kw["config"]["layers"];
    EXPECT_EQ(config["layers"].size(), records.size());
    for (size_t i = 0; i < records.size() && i < config["layers"].size(); ++i) {
      EXPECT_EQ(config["layers"][i]["class_name"], records[i]["class_name"]);
      json keras = records[i]["config"];
      keras.erase("dtype");
      expect_config(*layers::deserialize(config["layers"][i]), keras);
    }
    return TensorList{(*layer)(in[0], {.training = kw["training"].get<bool>()})};
  };
  // The model of all nine saved by Keras: keras-cpp loads it and predicts what Keras did, and
  // its own save of it (kept in the temp folder as image_layers_colour_cpp.keras, for a load by
  // Keras) reloads to the same config.
  m["KerasFile"] = [](const TensorList& in, const json& kw) {
    auto model =
        saving::load_model(std::string(KERAS_ORACLE_DIR) + "/" + kw["file"].get<std::string>());
    Tensor out = model->predict(in[0], {.verbose = 0}).single();
    const std::string again =
        (std::filesystem::temp_directory_path() / "image_layers_colour_cpp.keras").string();
    model->save(again);
    EXPECT_EQ(saving::load_model(again)->to_json(), model->to_json());
    return TensorList{out};
  };
  EXPECT_EQ(run_oracle("image_layers_colour", m).size(), 10u);
}

Tensor images(int64_t n, uint64_t seed, int64_t size = 2) {
  return random::uniform({n, size, size, 3}, 0.0, 255.0, DType::Float32,
                         random::Seed(static_cast<int>(seed)));
}

double mean_of(const Tensor& t) {
  return ops::mean(ops::cast(t, DType::Float64)).item<double>();
}
double min_of(const Tensor& t) {
  return ops::min(ops::cast(t, DType::Float64)).item<double>();
}
double max_of(const Tensor& t) {
  return ops::max(ops::cast(t, DType::Float64)).item<double>();
}

TEST(ImageLayersColourKeras, DrawsFollowTheFactors) {
  const Tensor x = images(4000, 1, 1);
  // RandomHue: sign * uniform(lower, upper) / 2, the sign -1 with probability 1/2.
  auto hue = layers::RandomHue({0.2, 0.6}, {.seed = 2});
  Tensor h = hue->get_random_transformation(x).at("factor");
  EXPECT_EQ(h.shape(), Shape({4000}));
  EXPECT_GE(min_of(ops::abs(h)), 0.1 - 1e-6);
  EXPECT_LE(max_of(ops::abs(h)), 0.3 + 1e-6);
  EXPECT_NEAR(mean_of(ops::abs(h)), 0.2, 0.01);
  EXPECT_NEAR(mean_of(ops::less(h, 0.0)), 0.5, 0.03);
  // RandomSaturation: u / (1 - u + 1e-7) with u uniform in (-0.5, 0.5) for factor 0.5.
  auto saturation = layers::RandomSaturation(0.5, {.seed = 3});
  Tensor s = saturation->get_random_transformation(x).at("factor");
  Tensor u = ops::divide(s, ops::add(s, 1.0));  // the inverse of u / (1 - u)
  EXPECT_NEAR(min_of(u), -0.5, 0.01);
  EXPECT_NEAR(max_of(u), 0.5, 0.01);
  EXPECT_NEAR(mean_of(u), 0.0, 0.02);
  // RandomColorDegeneration: (batch, 1, 1, 1) from (-f, f); RandomSharpness: (batch,) from
  // (0, f).
  Tensor d =
      layers::RandomColorDegeneration(0.4, {.seed = 4})->get_random_transformation(x).at("factor");
  EXPECT_EQ(d.shape(), Shape({4000, 1, 1, 1}));
  EXPECT_NEAR(min_of(d), -0.4, 0.01);
  EXPECT_NEAR(mean_of(d), 0.0, 0.01);
  Tensor p = layers::RandomSharpness(0.8, {.seed = 5})->get_random_transformation(x).at("factor");
  EXPECT_EQ(p.shape(), Shape({4000}));
  EXPECT_GE(min_of(p), 0.0);
  EXPECT_LE(max_of(p), 0.8);
  EXPECT_NEAR(mean_of(p), 0.4, 0.02);
  // RandomGaussianBlur: blurred with probability E[uniform(0.2, 0.6)] = 0.4; one sigma pair
  // from (0.3, 0.7) plus 1e-6; nothing in inference.
  auto blur = layers::RandomGaussianBlur({0.2, 0.6}, {.sigma = {0.3, 0.7}, .seed = 6});
  auto t = blur->get_random_transformation(x);
  EXPECT_NEAR(mean_of(t.at("should_apply_blur")), 0.4, 0.03);
  ASSERT_EQ(t.at("blur_factor").shape(), Shape({2}));
  EXPECT_GE(min_of(t.at("blur_factor")), 0.3);
  EXPECT_LE(max_of(t.at("blur_factor")), 0.7 + 2e-6);
  EXPECT_TRUE(blur->get_random_transformation(x, false).empty());
}

TEST(ImageLayersColourKeras, DegenerateFactorsGiveClosedForms) {
  const Tensor x = images(6, 7, 4);
  auto train = [&](const auto& layer) { return layer->operator()(x, {.training = true}); };
  Tensor r = ops::take(x, Tensor(int64_t{0}), -1), g = ops::take(x, Tensor(int64_t{1}), -1),
         b = ops::take(x, Tensor(int64_t{2}), -1);
  // Saturation multiplier 0: gray at the HSV value, max(r, g, b), in every channel.
  Tensor gray = train(layers::RandomSaturation({0.0, 0.0}));
  Tensor value = ops::maximum(ops::maximum(r, g), b);
  for (int64_t c = 0; c < 3; ++c)
    EXPECT_TENSOR_NEAR(ops::take(gray, Tensor(c), -1), value, 1e-5, 1e-3);
  // Degeneration 1: the luma in every channel.
  Tensor luma = ops::add(ops::add(ops::multiply(r, 0.2989f), ops::multiply(g, 0.5870f)),
                         ops::multiply(b, 0.1140f));
  Tensor degenerate = train(layers::RandomColorDegeneration({1.0, 1.0}));
  for (int64_t c = 0; c < 3; ++c)
    EXPECT_TENSOR_NEAR(ops::take(degenerate, Tensor(c), -1), luma, 1e-5, 1e-3);
  // Sharpness 0.5 and hue 0 keep the images (hue up to the HSV round trip).
  EXPECT_TENSOR_EQ(train(layers::RandomSharpness({0.5, 0.5})), x);
  EXPECT_TENSOR_NEAR(train(layers::RandomHue({0.0, 0.0})), x, 1e-5, 1e-3);
  // A hue shift of a half turn twice is the identity; once, it changes every coloured pixel.
  auto half = layers::RandomHue({1.0, 1.0}, {.seed = 8});
  Tensor once = half->operator()(x, {.training = true});
  EXPECT_GT(max_of(ops::abs(ops::subtract(once, x))), 10.0);
  EXPECT_TENSOR_NEAR(half->operator()(once, {.training = true}), x, 1e-4, 1e-2);
  // Blur factor 1: every image blurred with the drawn sigma; factor 0: none.
  auto blur = layers::RandomGaussianBlur({1.0, 1.0}, {.sigma = {0.5, 0.5}, .seed = 9});
  Tensor blurred = ops::image::gaussian_blur(x, {3, 3}, {0.5 + 1e-6, 0.5 + 1e-6});
  EXPECT_TENSOR_NEAR(blur->operator()(x, {.training = true}), ops::clip(blurred, 0.0, 255.0), 1e-5,
                     1e-3);
  EXPECT_TENSOR_EQ(train(layers::RandomGaussianBlur({0.0, 0.0}, {.seed = 10})), x);
  // Jitter with a constant brightness: clip(x + 0.2 * 255).
  Tensor jitter = train(layers::RandomColorJitter({.brightness_factor = layers::Factor{0.2, 0.2}}));
  EXPECT_TENSOR_NEAR(jitter, ops::clip(ops::add(x, 51.0f), 0.0, 255.0), 1e-6, 1e-4);
  // Inference passes images through (CLAHE aside: Keras applies it always).
  for (const std::shared_ptr<Layer>& layer : std::vector<std::shared_ptr<Layer>>{
           layers::RandomHue(0.5), layers::RandomSaturation(0.5),
           layers::RandomColorDegeneration(0.5), layers::RandomSharpness(0.5),
           layers::RandomGaussianBlur(), layers::RandomColorJitter({.hue_factor = 0.5}),
           layers::Equalization()})
    EXPECT_TENSOR_EQ((*layer)(x, {.training = false}), x) << layer->class_name();
  EXPECT_FALSE(ops::all(ops::equal(layers::ContrastLimitedAdaptiveHistogramEqualization()(x), x))
                   .item<bool>());
}

TEST(ImageLayersColourKeras, SeededRunsRepeatAndStayInRange) {
  const Tensor x = ops::divide(images(40, 11, 5), 255.0f);
  auto jitter = [&] {
    return layers::RandomColorJitter({.value_range = {0.0, 1.0},
                                      .brightness_factor = 0.2,
                                      .contrast_factor = 0.3,
                                      .saturation_factor = layers::Factor{0.3, 0.7},
                                      .hue_factor = 0.2,
                                      .seed = 12})
        ->
        operator()(x, {.training = true});
  };
  Tensor a = jitter();
  EXPECT_TENSOR_EQ(jitter(), a);
  EXPECT_GE(min_of(a), -1e-6);
  EXPECT_LE(max_of(a), 1.0 + 1e-6);
  EXPECT_GT(max_of(ops::abs(ops::subtract(a, x))), 0.01);
  for (auto make : std::vector<std::function<std::shared_ptr<Layer>()>>{
           [] {
             return layers::RandomHue(0.5, {.value_range = {0.0, 1.0}, .seed = 13});
           },
           [] {
             return layers::RandomSharpness(0.9, {.value_range = {0.0, 1.0}, .seed = 14});
           },
           [] {
             return layers::RandomGaussianBlur(0.7, {.value_range = {0.0, 1.0}, .seed = 15});
           },
           [] {
             return layers::RandomColorDegeneration(0.8, {.value_range = {0.0, 1.0}, .seed = 16});
           }}) {
    Tensor y = (*make())(x, {.training = true});
    EXPECT_TENSOR_EQ((*make())(x, {.training = true}), y);
    EXPECT_GE(min_of(y), -1e-6);
    EXPECT_LE(max_of(y), 1.0 + 1e-6);
  }
}

TEST(ImageLayersColourKeras, EqualizationSpreadsEachChannel) {
  // Values squeezed into [100, 140) come out spread over [0, 255] (histograms over the batch).
  Tensor x = ops::add(ops::multiply(images(8, 17, 6), 40.0f / 255.0f), 100.0f);
  Tensor y = layers::Equalization()(x, {.training = true});
  EXPECT_EQ(y.shape(), x.shape());
  EXPECT_NEAR(min_of(y), 0.0, 1e-6);
  EXPECT_NEAR(max_of(y), 255.0, 1e-6);
  // The output takes the lookup table's integers, and keeps each channel's order.
  EXPECT_TENSOR_EQ(y, ops::round(y));
  Tensor c0 = ops::reshape(ops::take(x, Tensor(int64_t{0}), -1), Shape{-1});
  Tensor e0 = ops::reshape(ops::take(y, Tensor(int64_t{0}), -1), Shape{-1});
  Tensor order = ops::argsort(c0);
  EXPECT_GE(min_of(ops::diff(ops::take(e0, order))), 0.0);
}

TEST(ImageLayersColourKeras, ClaheKeepsDtypeRankAndFlatImages) {
  // A constant image stays constant; uint8 and rank-3 images keep their dtype and rank.
  Tensor flat = ops::full({1, 16, 16, 3}, 90.0f);
  Tensor y = layers::ContrastLimitedAdaptiveHistogramEqualization({.tile_grid_size = {4, 4}})(flat);
  EXPECT_NEAR(max_of(y) - min_of(y), 0.0, 1e-4);
  Tensor bytes = ops::cast(images(1, 18, 10), DType::UInt8);
  Tensor single = ops::squeeze(bytes, 0);
  Tensor out = layers::ContrastLimitedAdaptiveHistogramEqualization()(single);
  EXPECT_EQ(out.dtype(), DType::UInt8);
  EXPECT_EQ(out.shape(), single.shape());
}

TEST(ImageLayersColourKeras, PipelineCallsItsLayersInOrder) {
  const Tensor x = images(3, 19, 4);
  auto pipeline =
      layers::Pipeline({layers::Rescaling(1.0 / 255.0),
                        layers::RandomSharpness({1.0, 1.0}, {.value_range = {0.0, 1.0}})});
  Tensor expected = layers::RandomSharpness({1.0, 1.0}, {.value_range = {0.0, 1.0}})(
      ops::multiply(x, 1.0f / 255.0f), {.training = true});
  EXPECT_TENSOR_NEAR(pipeline(x, {.training = true}), expected, 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(pipeline(x, {.training = false}), ops::multiply(x, 1.0f / 255.0f), 1e-6, 1e-6);
  EXPECT_EQ(pipeline->tracked_layers()[0].first, "layers/rescaling");
  EXPECT_EQ(pipeline->tracked_layers()[1].first, "layers/random_sharpness");
  auto twice = layers::Pipeline({layers::Dense(2), layers::Dense(3)});
  EXPECT_EQ(twice->tracked_layers()[1].first, "layers/dense_1");
  // In a Functional model each layer is built on the previous one's shape, batch unknown (as
  // Keras writes their build_config), not on the sizes of shape inference.
  KerasTensor in = Input({5, 4});
  auto model = Functional(std::vector<KerasTensor>{in}, std::vector<KerasTensor>{twice(in)});
  EXPECT_EQ(twice->layers()[1]->build_input_shapes()[0], Shape({kUnknownDim, 5, 2}));
}

TEST(ImageLayersColourKeras, BadArgumentsAreNamed) {
  EXPECT_THROW(layers::RandomHue(1.5), ValueError);
  EXPECT_THROW(layers::RandomSaturation(-2.0), ValueError);
  EXPECT_THROW(layers::RandomColorDegeneration({2.0, 3.0}), ValueError);
  EXPECT_THROW(layers::RandomSharpness(-0.5), ValueError);
  EXPECT_THROW(layers::RandomGaussianBlur(0.5, {.kernel_size = {4, 3}}), ValueError);
  try {
    layers::RandomGaussianBlur(0.5, {.sigma = 2.0});
    ADD_FAILURE() << "RandomGaussianBlur accepted sigma=2";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("sigma"), std::string::npos) << e.what();
  }
  EXPECT_THROW(layers::Equalization({.bins = 0}), ValueError);
  EXPECT_THROW(layers::ContrastLimitedAdaptiveHistogramEqualization({.tile_grid_size = {0, 2}}),
               ValueError);
  EXPECT_THROW(layers::PipelineLayer::from_config(Config::parse(R"({"name": "p"})")), ValueError);
  EXPECT_THROW(layers::Pipeline({nullptr}), ValueError);
  // Two channels are no RGB images.
  EXPECT_THROW(layers::RandomHue(0.5)(ops::ones({2, 4, 4, 2}), {.training = true}), Error);
  EXPECT_THROW(layers::RandomSharpness(0.5)(ops::ones({4, 4}), {.training = true}), ValueError);
}

}  // namespace
}  // namespace keras

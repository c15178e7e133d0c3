// RandomCrop, RandomErasing, MixUp, CutMix, RandomShear, RandomPerspective,
// RandomElasticTransform, MaxNumBoundingBoxes, RandAugment and AugMix (picking the
// augmentations this build has): Keras 3.15's transforms on given
// transformations and its configs (tools/keras_oracle/image_layers_geometric.py), and the random
// draws by their statistics (keras-cpp's random stream differs from JAX's).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/layers/preprocessing/aug_mix.h"
#include "keras/layers/preprocessing/cut_mix.h"
#include "keras/layers/preprocessing/max_num_bounding_boxes.h"
#include "keras/layers/preprocessing/mix_up.h"
#include "keras/layers/preprocessing/rand_augment.h"
#include "keras/layers/preprocessing/random_crop.h"
#include "keras/layers/preprocessing/random_elastic_transform.h"
#include "keras/layers/preprocessing/random_erasing.h"
#include "keras/layers/preprocessing/random_perspective.h"
#include "keras/layers/preprocessing/random_shear.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
using Transformation = layers::BaseImagePreprocessingLayer::Transformation;
using layers::Factor;

// The layer Keras's config describes (through the registry, as a .keras file is read), with its
// config compared key by key with Keras's.
std::shared_ptr<Layer> layer_from(const std::string& class_name, const json& keras_config) {
  auto layer = layers::from_config(class_name, keras_config);
  const Config config = layer->get_config();
  for (const auto& [key, value] : keras_config.items()) {
    EXPECT_TRUE(config.contains(key)) << class_name << " lacks config key " << key;
    if (!config.contains(key)) continue;
    if (value.is_array()) {
      EXPECT_EQ(config[key].size(), value.size()) << class_name << " " << key;
      for (size_t i = 0; i < value.size() && i < config[key].size(); ++i)
        EXPECT_DOUBLE_EQ(config[key][i].get<double>(), value[i].get<double>()) << key;
    } else if (value.is_number()) {
      EXPECT_DOUBLE_EQ(config[key].get<double>(), value.get<double>()) << class_name << " " << key;
    } else {
      EXPECT_EQ(config[key], value) << class_name << " " << key;
    }
  }
  // And nothing Keras does not write (dtype aside, which the fixture drops).
  for (const auto& [key, value] : config.items()) {
    if (key != "dtype") {
      EXPECT_TRUE(keras_config.contains(key)) << class_name << " adds " << key;
    }
  }
  return layer;
}

Transformation transformation_of(const TensorList& in, const json& kw) {
  Transformation t;
  const auto keys = kw["keys"].get<std::vector<std::string>>();
  for (size_t i = 0; i < keys.size(); ++i) t[keys[i]] = in[i + 1];
  return t;
}

GoldenFn images_case(const std::string& class_name) {
  return [class_name](const TensorList& in, const json& kw) -> TensorList {
    auto layer = layer_from(class_name, kw["config"]);
    auto* image_layer = dynamic_cast<layers::BaseImagePreprocessingLayer*>(layer.get());
    const Transformation t = transformation_of(in, kw);
    if (kw.contains("drawn")) {
      // RandomCrop's window for small images is deterministic: keras-cpp must draw Keras's.
      Transformation own = image_layer->get_random_transformation(in[0], true);
      for (const auto& [key, value] : t)
        EXPECT_EQ(own.at(key).item<int64_t>(), value.item<int64_t>()) << key;
    }
    return {image_layer->transform_images(in[0], t, kw["training"].get<bool>())};
  };
}

TEST(ImageLayersGeometricKeras, TransformsAndConfigsMatchKeras) {
  GoldenOps m;
  for (const char* name :
       {"RandomCrop", "RandomErasing", "MixUp", "CutMix", "RandomShear", "RandomPerspective",
        "RandomElasticTransform", "MaxNumBoundingBoxes", "RandAugment", "AugMix"})
    m[name] = images_case(name);
  m["MixUpLabels"] = [](const TensorList& in, const json& kw) -> TensorList {
    auto layer = std::dynamic_pointer_cast<layers::MixUpLayer>(layer_from("MixUp", kw["config"]));
    return {layer->transform_labels(in[0], transformation_of(in, kw))};
  };
  m["CutMixLabels"] = [](const TensorList& in, const json& kw) -> TensorList {
    auto layer = std::dynamic_pointer_cast<layers::CutMixLayer>(layer_from("CutMix", kw["config"]));
    return {layer->transform_labels(in[0], transformation_of(in, kw))};
  };
  m["MaxNumBoundingBoxesBoxes"] = [](const TensorList& in, const json& kw) -> TensorList {
    // Keras does not write fill_value to the config; the case carries it.
    auto layer = std::dynamic_pointer_cast<layers::MaxNumBoundingBoxesLayer>(
        layer_from("MaxNumBoundingBoxes", kw["config"]));
    if (kw["fill_value"].get<int64_t>() != -1) {
      Config c = kw["config"];
      c["fill_value"] = kw["fill_value"];
      layer = std::dynamic_pointer_cast<layers::MaxNumBoundingBoxesLayer>(
          layers::MaxNumBoundingBoxesLayer::from_config(c));
    }
    auto [boxes, labels] = layer->transform_bounding_boxes(in[0], in[1]);
    return {boxes, labels};
  };
  m["ElasticParams"] = [](const TensorList& in, const json&) -> TensorList {
    const auto size = in[0].to_vector<int64_t>();
    auto [alpha, sigma] =
        layers::RandomElasticTransformLayer::elastic_params(size[0], size[1], in[1].item<double>());
    return {ops::convert_to_tensor(std::vector<double>{alpha}, Shape{}),
            ops::convert_to_tensor(std::vector<double>{sigma}, Shape{})};
  };
  EXPECT_EQ(run_oracle("image_layers_geometric", m).size(), 14u);
}

// ---- The random draws ---------------------------------------------------------------------

Tensor images(const Shape& shape, uint64_t seed) {
  return random::uniform(shape, 0.0, 255.0, DType::Float32, random::Seed(static_cast<int>(seed)));
}

double fraction(const Tensor& mask) {
  return ops::mean(ops::cast(mask, DType::Float32)).item<double>();
}

// Per image: whether any value changed.
Tensor changed(const Tensor& x, const Tensor& y) {
  return ops::greater(ops::max(ops::abs(ops::subtract(y, x)), {1, 2, 3}), 1e-4);
}

TEST(ImageLayersGeometricKeras, RandomCropCornersAreUniform) {
  // Pixel (h, w) holds 100 h + w, so the output's first pixel names the drawn corner.
  Tensor rows = ops::reshape(ops::arange(0, 10, 1, DType::Float32), {1, 10, 1, 1});
  Tensor cols = ops::reshape(ops::arange(0, 10, 1, DType::Float32), {1, 1, 10, 1});
  Tensor x = ops::broadcast_to(ops::add(ops::multiply(rows, 100.0f), cols), {2, 10, 10, 1});
  auto crop = layers::RandomCrop(6, 7, {.seed = 3});
  std::map<std::pair<int, int>, int> counts;
  const int draws = 1200;
  for (int i = 0; i < draws; ++i) {
    Tensor y = (*crop)(x, {.training = true});
    ASSERT_EQ(y.shape(), Shape({2, 6, 7, 1}));
    const auto v = static_cast<int>(ops::slice(y, {0, 0, 0, 0}, {1, 1, 1, 1}).item<double>());
    // The window is the input's, whole: the last pixel is 5 rows and 6 columns further.
    EXPECT_EQ(ops::slice(y, {1, 5, 6, 0}, {1, 1, 1, 1}).item<double>(), v + 506);
    ++counts[{v / 100, v % 100}];
  }
  // Corners 0..4 x 0..3, each with probability 1/20.
  EXPECT_EQ(counts.size(), 20u);
  for (const auto& [corner, n] : counts) {
    EXPECT_LE(corner.first, 4);
    EXPECT_LE(corner.second, 3);
    EXPECT_NEAR(n, draws / 20.0, 25) << corner.first << "," << corner.second;
  }
  // Inference returns the images unchanged (Keras 3.15); a symbolic call has the target shape.
  EXPECT_TENSOR_EQ((*crop)(x), x);
  KerasTensor in = Input({10, 10, 1});
  EXPECT_EQ((*crop)(in).shape(), Shape({-1, 6, 7, 1}));
  // A seeded layer repeats.
  auto again = layers::RandomCrop(6, 7, {.seed = 3});
  auto twin = layers::RandomCrop(6, 7, {.seed = 3});
  EXPECT_TENSOR_EQ((*again)(x, {.training = true}), (*twin)(x, {.training = true}));
}

TEST(ImageLayersGeometricKeras, RandomErasingProbabilityAndArea) {
  const int64_t n = 3000;
  Tensor x = ops::full({n, 32, 32, 1}, 0.5f);
  // fill 0 on images of 0.5: erased pixels are exactly the box.
  auto erase = layers::RandomErasing(
      {.factor = Factor(0.2, 0.8), .fill_value = {0.0}, .value_range = {0.0, 1.0}, .seed = 4});
  Tensor y = (*erase)(x, {.training = true});
  Tensor erased_pixels = ops::mean(ops::cast(ops::less(y, 0.25f), DType::Float32), {1, 2, 3});
  Tensor erased = ops::greater(erased_pixels, 0.0f);
  // P(erase) = E[uniform(0.2, 0.8)] = 0.5.
  EXPECT_NEAR(fraction(erased), 0.5, 0.03);
  // The box's area fraction is sqrt(u1) sqrt(u2), u ~ U(0.02, 0.33): E = E[sqrt(u)]^2.
  const double a = 0.02, b = 0.33;
  const double e_sqrt = 2.0 / 3.0 * (std::pow(b, 1.5) - std::pow(a, 1.5)) / (b - a);
  const double mean_area = ops::sum(erased_pixels).item<double>() /
                           ops::sum(ops::cast(erased, DType::Float32)).item<double>();
  EXPECT_NEAR(mean_area, e_sqrt * e_sqrt, 0.01);
  // Default fill: normal noise times 255 clipped to [0, 255]; outputs stay in range.
  Tensor z = (*layers::RandomErasing({.seed = 5}))(images({50, 16, 16, 3}, 6), {.training = true});
  EXPECT_GE(ops::min(z).item<double>(), 0.0);
  EXPECT_LE(ops::max(z).item<double>(), 255.0);
}

TEST(ImageLayersGeometricKeras, MixUpWeightsAreBeta) {
  auto mix = layers::MixUp({.alpha = 0.2, .seed = 6});
  Tensor x = images({4000, 1, 1, 1}, 7);
  Transformation t = mix->get_random_transformation(x);
  Tensor w = ops::cast(t.at("mix_weight"), DType::Float64);
  // Beta(a, a): mean 1/2, variance 1 / (4 (2a + 1)).
  EXPECT_NEAR(ops::mean(w).item<double>(), 0.5, 0.015);
  EXPECT_NEAR(ops::var(w).item<double>(), 1.0 / (4 * 1.4), 0.01);
  // The order is a permutation of the batch.
  auto order = t.at("permutation_order").to_vector<int64_t>();
  std::set<int64_t> seen(order.begin(), order.end());
  EXPECT_EQ(seen.size(), 4000u);
  EXPECT_EQ(*seen.rbegin(), 3999);
  // Labels mix with the same weights: one-hot rows stay distributions.
  Tensor labels = ops::one_hot(ops::mod(ops::arange(0, 4000, 1, DType::Int32), 3), 3);
  Tensor mixed = mix->transform_labels(labels, t);
  EXPECT_TENSOR_NEAR(ops::sum(mixed, {1}), ops::ones({4000}), 1e-5, 1e-5);
  EXPECT_THROW(layers::MixUp({.alpha = 0.0}), ValueError);
}

TEST(ImageLayersGeometricKeras, CutMixBoxesMatchTheirWeights) {
  auto cut = layers::CutMix({.seed = 7});
  const int64_t n = 2000, h = 24, w = 20;
  Tensor x = images({n, h, w, 2}, 8);
  Transformation t = cut->get_random_transformation(x);
  Tensor mix = t.at("mix_weight");
  // E[w] = 1/2 for Beta(a, a), whatever alpha was drawn.
  EXPECT_NEAR(ops::mean(mix).item<double>(), 0.5, 0.03);
  EXPECT_GE(ops::min(mix).item<double>(), 0.0);
  EXPECT_LE(ops::max(mix).item<double>(), 1.0 + 1e-6);
  // The pixels of each box cover 1 - w of its image, up to rounding: a side of length L holds
  // fewer than L + 1 and more than L - 1 pixels, so the count is within Lx + Ly + 1 of the area.
  Tensor covered = ops::mean(ops::cast(t.at("batch_masks"), DType::Float32), {1, 2, 3});
  Tensor gap = ops::abs(ops::subtract(covered, ops::subtract(1.0f, mix)));
  EXPECT_LE(ops::max(gap).item<double>(), 1.0 / h + 1.0 / w + 1.0 / (h * w) + 1e-5);
  EXPECT_GT(ops::max(gap).item<double>(), 0.0);  // the boxes are real-valued: rounding shows
  // Outside the boxes images are untouched.
  Tensor y = cut->transform_images(x, t);
  Tensor outside = ops::logical_not(t.at("batch_masks"));
  EXPECT_EQ(ops::max(ops::where(outside, ops::abs(ops::subtract(y, x)), 0.0f)).item<double>(), 0.0);
  // A single image has nothing to mix with.
  Tensor one = images({5, 5, 3}, 9);
  EXPECT_TENSOR_EQ((*cut)(one, {.training = true}), one);
}

TEST(ImageLayersGeometricKeras, RandomShearDrawsSignedFactors) {
  auto shear = layers::RandomShear(Factor(0.2, 0.4), Factor(0.1, 0.3), {.seed = 8});
  Tensor x = images({3000, 2, 2, 1}, 10);
  Tensor s = shear->get_random_transformation(x).at("shear_factor");
  ASSERT_EQ(s.shape(), Shape({3000, 2}));
  Tensor sx = ops::take(s, Tensor(int64_t{0}), 1), sy = ops::take(s, Tensor(int64_t{1}), 1);
  EXPECT_GE(ops::min(ops::abs(sx)).item<double>(), 0.2 - 1e-6);
  EXPECT_LE(ops::max(ops::abs(sx)).item<double>(), 0.4 + 1e-6);
  EXPECT_GE(ops::min(ops::abs(sy)).item<double>(), 0.1 - 1e-6);
  EXPECT_LE(ops::max(ops::abs(sy)).item<double>(), 0.3 + 1e-6);
  // One sign per image, each sign half the time.
  EXPECT_EQ(fraction(ops::not_equal(ops::sign(sx), ops::sign(sy))), 0.0);
  EXPECT_NEAR(fraction(ops::less(sx, 0.0f)), 0.5, 0.03);
  EXPECT_NEAR(ops::mean(ops::abs(sx)).item<double>(), 0.3, 0.005);
  // Inference passes through; a zero factor is the identity.
  Tensor img = images({2, 5, 5, 3}, 11);
  EXPECT_TENSOR_EQ((*shear)(img), img);
  EXPECT_TENSOR_NEAR((*layers::RandomShear(0.0, 0.0))(img, {.training = true}), img, 1e-6, 1e-4);
  EXPECT_THROW(layers::RandomShear(1.5), ValueError);
  EXPECT_THROW(layers::RandomShear(0.1, 0.1, {.fill_mode = "mirror"}), NotImplementedError);
}

TEST(ImageLayersGeometricKeras, RandomPerspectiveProbabilityAndCorners) {
  auto warp = layers::RandomPerspective({.factor = Factor(0.4, 1.0), .scale = 0.5, .seed = 9});
  Tensor x = images({3000, 6, 8, 1}, 12);
  Transformation t = warp->get_random_transformation(x);
  EXPECT_NEAR(fraction(t.at("apply_perspective")), 0.7, 0.03);
  Tensor start = t.at("start_points"), end = t.at("end_points");
  EXPECT_TENSOR_EQ(ops::slice(start, {0, 0, 0}, {1, 4, 2}),
                   ops::convert_to_tensor(std::vector<float>{0, 0, 7, 0, 0, 5, 7, 5}, {1, 4, 2}));
  // Each coordinate moves by u times itself, |u| <= scale / 2, u uniform (mean |u| = scale / 4).
  Tensor moved = ops::abs(ops::subtract(end, start));
  EXPECT_TENSOR_NEAR(ops::minimum(moved, ops::multiply(start, 0.25f)), moved, 1e-5, 1e-5);
  Tensor far = ops::take(ops::take(end, Tensor(int64_t{3}), 1), Tensor(int64_t{0}), 1);
  EXPECT_NEAR(ops::mean(ops::abs(ops::subtract(far, 7.0f))).item<double>(), 7 * 0.125, 0.05);
  // Images not drawn are untouched; the identity warp (scale 0) changes nothing.
  Tensor y = warp->transform_images(x, t);
  Tensor kept = ops::logical_not(t.at("apply_perspective"));
  EXPECT_EQ(fraction(ops::logical_and(kept, changed(x, y))), 0.0);
  Tensor small = images({4, 6, 8, 3}, 13);
  EXPECT_TENSOR_NEAR((*layers::RandomPerspective({.scale = 0.0}))(small, {.training = true}), small,
                     1e-4, 1e-2);
  EXPECT_THROW(layers::RandomPerspective({.scale = 1.5}), ValueError);
}

TEST(ImageLayersGeometricKeras, RandomElasticTransformDrawsAndClips) {
  auto elastic = layers::RandomElasticTransform(
      {.factor = Factor(0.0, 0.6), .scale = 0.8, .value_range = {0.0, 255.0}, .seed = 10});
  Tensor x = images({2000, 12, 10, 1}, 14);
  Transformation t = elastic->get_random_transformation(x);
  EXPECT_NEAR(fraction(t.at("apply_transform")), 0.3, 0.03);
  const double d = t.at("distortion_factor").item<double>();
  EXPECT_GE(d, 0.0);
  EXPECT_LT(d, 0.8);
  // The chosen images are those displaced; the others are only clipped.
  Tensor y = elastic->transform_images(x, t);
  EXPECT_EQ(fraction(ops::logical_and(ops::logical_not(t.at("apply_transform")), changed(x, y))),
            0.0);
  EXPECT_GE(ops::min(y).item<double>(), 0.0);
  EXPECT_LE(ops::max(y).item<double>(), 255.0);
  // The displacement is elastic_transform's with Keras's alpha and sigma for the drawn factor.
  auto [alpha, sigma] = layers::RandomElasticTransformLayer::elastic_params(12, 10, d);
  Tensor direct = ops::image::elastic_transform(
      x, {.alpha = alpha, .sigma = sigma, .seed = random::Seed(t.at("seed").item<int64_t>())});
  Tensor chosen = ops::reshape(t.at("apply_transform"), {2000, 1, 1, 1});
  EXPECT_TENSOR_NEAR(y, ops::where(chosen, ops::clip(direct, 0.0, 255.0), x), 1e-5, 1e-3);
  EXPECT_GT(fraction(changed(x, y)), 0.2);
  // A seeded layer repeats.
  auto a = layers::RandomElasticTransform({.seed = 11}),
       b = layers::RandomElasticTransform({.seed = 11});
  Tensor few = images({3, 8, 8, 3}, 15);
  EXPECT_TENSOR_EQ((*a)(few, {.training = true}), (*b)(few, {.training = true}));
  EXPECT_THROW(layers::RandomElasticTransform({.fill_mode = "bogus"}), NotImplementedError);
}

TEST(ImageLayersGeometricKeras, MaxNumBoundingBoxesChecksShapes) {
  auto fixed = layers::MaxNumBoundingBoxes(3);
  Tensor img = images({2, 4, 4, 3}, 16);
  EXPECT_TENSOR_EQ((*fixed)(img, {.training = true}), img);
  EXPECT_THROW(fixed->transform_bounding_boxes(ops::zeros({2, 5, 3}), ops::zeros({2, 5})),
               ValueError);
  EXPECT_THROW(fixed->transform_bounding_boxes(ops::zeros({2, 5, 4}), ops::zeros({2, 4})),
               ValueError);
  EXPECT_THROW(layers::MaxNumBoundingBoxes(-1), ValueError);
}

TEST(ImageLayersGeometricKeras, BadArgumentsAreNamed) {
  EXPECT_THROW(layers::RandomCrop(0, 3), ValueError);
  EXPECT_THROW(layers::RandomErasing({.factor = 1.5}), ValueError);
  try {
    layers::RandomErasing({.scale = Factor(2.0, 3.0)});
    ADD_FAILURE() << "RandomErasing accepted scale (2, 3)";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("scale"), std::string::npos) << e.what();
  }
  EXPECT_THROW(layers::RandomErasing({.fill_value = {1.0, 2.0}}), ValueError);
  EXPECT_THROW(layers::CutMix({.factor = -0.5}), ValueError);
  EXPECT_THROW(layers::RandomCrop(2, 2)->operator()(ops::ones({4, 4}), {.training = true}),
               ValueError);
}

// Every layer works in a Functional model and through a .keras-style record.
TEST(ImageLayersGeometricKeras, RecordsRoundTrip) {
  std::vector<std::shared_ptr<Layer>> all = {
      layers::RandomCrop(4, 4, {.seed = 1}),
      layers::RandomErasing({.fill_value = {1.0, 2.0, 3.0}}),
      layers::MixUp({.alpha = 0.3}),
      layers::CutMix({.factor = Factor(0.1, 0.9)}),
      layers::RandomShear(0.3, Factor(0.1, 0.2)),
      layers::RandomPerspective({.scale = 0.4}),
      layers::RandomElasticTransform({.scale = Factor(0.2, 0.5)}),
      layers::MaxNumBoundingBoxes(5, {.bounding_box_format = "xyxy"}),
      layers::RandAugment({.num_ops = 3, .factor = Factor(0.1, 0.7), .seed = 2}),
      layers::AugMix({.chain_depth = 2, .alpha = 0.5, .all_ops = false})};
  for (const auto& layer : all) {
    const Config record = layers::serialize(*layer);
    auto back = layers::deserialize(record);
    EXPECT_EQ(back->class_name(), layer->class_name());
    Config a = layer->get_config(), b = back->get_config();
    a.erase("name");
    b.erase("name");
    EXPECT_EQ(a, b) << layer->class_name();
  }
}

// A Sequential of the layers saved by Keras 3.15 (image_layers_geometric.py) loads, and passes
// images through in inference as Keras's does; saved again by keras-cpp it reads back the same.
TEST(ImageLayersGeometricKeras, KerasSavedModelLoads) {
  auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) + "/image_layers_geometric_model.keras");
  std::vector<std::string> classes;
  for (const auto& layer : model->layers()) classes.push_back(layer->class_name());
  EXPECT_EQ(classes, (std::vector<std::string>{"RandomCrop", "RandomErasing", "MixUp", "CutMix",
                                               "RandomPerspective", "RandomElasticTransform",
                                               "MaxNumBoundingBoxes", "RandAugment", "AugMix"}));
  Tensor x = images({2, 12, 12, 3}, 19);
  EXPECT_TENSOR_EQ(model->predict(x, {.verbose = 0}).single(), x);
  // Training crops (RandomCrop is first) and keeps values in range.
  // (Through RandomCrop alone: the composites would need augmentations this build may lack.)
  Tensor y = (*model->layers()[0])(x, {.training = true});
  EXPECT_EQ(y.shape(), Shape({2, 8, 9, 3}));
  const std::string again = (std::filesystem::temp_directory_path() / "geo_again.keras").string();
  model->save(again);
  EXPECT_EQ(saving::load_model(again)->to_json(), model->to_json());
  if (const char* keep = std::getenv("KERAS_GEO_SAVE_TO")) model->save(keep);  // for Keras
}

bool registered(const std::string& class_name) {
  const auto names = layers::registered_layers();
  return std::find(names.begin(), names.end(), class_name) != names.end();
}

TEST(ImageLayersGeometricKeras, RandAugmentPicksUniformly) {
  auto augment = layers::RandAugment({.num_ops = 8, .seed = 12});
  Tensor x = images({2, 6, 6, 3}, 17);
  std::map<int64_t, int> counts;
  const int calls = 500;
  for (int i = 0; i < calls; ++i) {
    const auto picks = augment->get_random_transformation(x).at("layer_idxes").to_vector<int64_t>();
    ASSERT_EQ(picks.size(), 8u);
    for (int64_t k : picks) ++counts[k];
  }
  EXPECT_EQ(counts.size(), 11u);
  for (const auto& [k, n] : counts) {
    EXPECT_GE(k, 0);
    EXPECT_LE(k, 10);
    EXPECT_NEAR(n, calls * 8 / 11.0, 70) << k;
  }
  // Inference casts only; a symbolic call keeps the shape.
  EXPECT_TENSOR_EQ((*augment)(x), x);
  EXPECT_EQ((*augment)(Input({6, 6, 3})).shape(), Shape({-1, 6, 6, 3}));
  // An augmentation this build lacks is named when picked, never skipped.
  const auto& names = layers::RandAugmentLayer::augmentation_names();
  for (size_t k = 0; k < names.size(); ++k) {
    Transformation t{{"layer_idxes", ops::convert_to_tensor(std::vector<int32_t>{int32_t(k)})}};
    const bool have = augment->augmentation(k) != nullptr;
    if (!have) {
      EXPECT_THROW(augment->transform_images(x, t), NotImplementedError) << names[k];
    } else if (names[k] == "auto_contrast" || names[k] == "equalization") {
      // Deterministic augmentations need no transformation of their own.
      EXPECT_NO_THROW(augment->transform_images(x, t)) << names[k];
    }
  }
  EXPECT_EQ(augment->augmentation(10) != nullptr, registered("Equalization"));
  EXPECT_EQ(augment->augmentation(0) != nullptr, registered("RandomShear"));
  EXPECT_THROW(layers::RandAugment({.factor = 1.5}), ValueError);
}

TEST(ImageLayersGeometricKeras, AugMixDrawsChainsAndWeights) {
  auto augmix = layers::AugMix({.num_chains = 4, .chain_depth = 3, .alpha = 0.5, .seed = 13});
  Tensor x = images({2, 6, 6, 3}, 18);
  std::map<int64_t, int> counts;
  double weight_sum = 0, blend_sum = 0;
  const int calls = 400;
  for (int i = 0; i < calls; ++i) {
    Transformation t = augmix->get_random_transformation(x);
    for (int64_t k : t.at("chain_layers").to_vector<int64_t>()) ++counts[k];
    Tensor w = t.at("chain_mixing_weights");
    EXPECT_NEAR(ops::sum(w).item<double>(), 1.0, 1e-5);
    EXPECT_GE(ops::min(w).item<double>(), 0.0);
    weight_sum += ops::take(w, Tensor(int64_t{0})).item<double>();
    const double b = t.at("weight_sample").item<double>();
    EXPECT_GE(b, 0.0);
    EXPECT_LE(b, 1.0);
    blend_sum += b;
  }
  // Each step: one of the eleven augmentations or none (-1), equally likely.
  EXPECT_EQ(counts.size(), 12u);
  for (const auto& [k, n] : counts) EXPECT_NEAR(n, calls * (4 * 3) / 12.0, 60) << k;
  // Dirichlet(alpha) weights have mean 1 / num_chains; Beta(alpha, alpha) mean 1/2.
  EXPECT_NEAR(weight_sum / calls, 0.25, 0.04);
  EXPECT_NEAR(blend_sum / calls, 0.5, 0.055);
  // Chains of "none" only: the blend of the image with itself, clipped.
  Transformation none{
      {"chain_mixing_weights", ops::convert_to_tensor(std::vector<float>{0.25f, 0.75f})},
      {"weight_sample", Tensor(0.3f)},
      {"chain_layers", ops::full({2, 3}, -1, DType::Int32)}};
  EXPECT_TENSOR_NEAR(augmix->transform_images(x, none), x, 1e-5, 1e-3);
  EXPECT_TENSOR_EQ((*augmix)(x), x);
  // all_ops=false keeps Keras's seven.
  EXPECT_EQ(layers::AugMix({.all_ops = false})->augmentation_names().size(), 7u);
  EXPECT_THROW(layers::AugMix({.alpha = -1.0}), ValueError);
}

}  // namespace
}  // namespace keras

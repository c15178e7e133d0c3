// The preprocessing layers against NumPy / PyTorch (tools/golden/layers_preprocessing.py):
// Rescaling, Normalization (fixed, loaded and adapted statistics), CategoryEncoding,
// Discretization (and its quantile adapt), Resizing, CenterCrop, and the random image layers
// with fixed draws. Plus their symbolic shapes, configs, bad inputs, and the randomness of the
// random layers against closed forms.

#include <gtest/gtest.h>

#include <cmath>

#include "../random/stats.h"
#include "assertions.h"
#include "golden.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/keras.h"
#include "layer_harness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

std::string str(const json& kw, const char* key, const std::string& fallback = "") {
  return kw.contains(key) && kw[key].is_string() ? kw[key].get<std::string>() : fallback;
}

layers::Factor factor(const json& v) {
  return v.is_array() ? layers::Factor(v[0].get<double>(), v[1].get<double>())
                      : layers::Factor(v.get<double>());
}

// Runs a fixture through the harness, or (integer inputs) calls the layer directly.
TensorList run(Layer& layer, const TensorList& in, const json& kw) {
  if (kw.value("no_grad", false)) {
    CallContext ctx;
    if (kw.contains("training")) ctx.training = kw["training"].get<bool>();
    return {layer(in[0], ctx)};
  }
  return run_layer_fixture(layer, in, kw);
}

// Sets the global image_data_format for the lifetime of a scope.
struct DataFormatScope {
  explicit DataFormatScope(const std::string& format) : saved(config::image_data_format()) {
    config::set_image_data_format(format);
  }
  ~DataFormatScope() { config::set_image_data_format(saved); }
  std::string saved;
};

layers::ScaleValue scale_value(const json& v) {
  if (v.is_number()) return v.get<double>();
  auto values = v.get<std::vector<double>>();
  return layers::ScaleValue(values, Shape{static_cast<int64_t>(values.size())});
}

Tensor tensor_or_none(const json& v) {
  if (v.is_null()) return Tensor();
  if (v.is_number()) return Tensor(v.get<double>());
  std::vector<double> values;
  std::function<void(const json&)> collect = [&](const json& j) {
    if (j.is_array())
      for (const auto& e : j) collect(e);
    else
      values.push_back(j.get<double>());
  };
  collect(v);
  Tensor flat = ops::convert_to_tensor(values);
  std::vector<int64_t> shape;
  for (const json* level = &v; level->is_array(); level = &(*level)[0])
    shape.push_back(static_cast<int64_t>(level->size()));
  return ops::reshape(flat, Shape(shape.begin(), shape.end()));
}

GoldenOps preprocessing_ops() {
  GoldenOps m;
  m["rescaling"] = [](const TensorList& in, const json& kw) {
    DataFormatScope format(kw["data_format"].get<std::string>());
    auto layer = layers::Rescaling(scale_value(kw["scale"]), {.offset = scale_value(kw["offset"])});
    return run(*layer, in, kw);
  };
  m["normalization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Normalization({.axis = kw["axis"].get<std::vector<int>>(),
                                        .mean = tensor_or_none(kw["mean"]),
                                        .variance = tensor_or_none(kw["variance"]),
                                        .invert = kw["invert"].get<bool>()});
    return run(*layer, in, kw);
  };
  m["normalization_adapt"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Normalization({.axis = kw["axis"].get<std::vector<int>>()});
    const int64_t batches = kw["batches"].get<int64_t>();
    if (batches == 0) layer->adapt(in[0]);
    else layer->adapt(ops::split(in[0], batches, 0));
    return TensorList{layer->adapt_mean().value(), layer->adapt_variance().value()};
  };
  m["category_encoding"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::CategoryEncoding(kw["num_tokens"].get<int64_t>(),
                                          {.output_mode = kw["output_mode"].get<std::string>()});
    if (in.size() == 2) return layer(TensorList{in[0], in[1]});
    return TensorList{layer(in[0])};
  };
  m["discretization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Discretization(
        {.bin_boundaries = kw["bin_boundaries"].get<std::vector<double>>(),
         .output_mode = kw["output_mode"].get<std::string>()});
    return TensorList{layer(in[0])};
  };
  m["discretization_adapt"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Discretization({.num_bins = kw["num_bins"].get<int64_t>(),
                                         .epsilon = kw["epsilon"].get<double>()});
    layer->adapt(in);
    const auto& b = *layer->bin_boundaries();
    return TensorList{ops::convert_to_tensor(b)};
  };
  m["resizing"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Resizing(kw["height"].get<int64_t>(), kw["width"].get<int64_t>(),
                                  {.interpolation = str(kw, "interpolation"),
                                   .crop_to_aspect_ratio = kw["crop_to_aspect_ratio"].get<bool>(),
                                   .pad_to_aspect_ratio = kw["pad_to_aspect_ratio"].get<bool>(),
                                   .fill_value = kw["fill_value"].get<double>(),
                                   .antialias = kw["antialias"].get<bool>(),
                                   .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["center_crop"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::CenterCrop(kw["height"].get<int64_t>(), kw["width"].get<int64_t>(),
                                    {.data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["random_flip"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::RandomFlip({.seed = 1, .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["random_rotation"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::RandomRotation(factor(kw["factor"]),
                                        {.fill_mode = str(kw, "fill_mode"),
                                         .interpolation = str(kw, "interpolation"),
                                         .seed = 3,
                                         .fill_value = kw["fill_value"].get<double>(),
                                         .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["random_zoom"] = [](const TensorList& in, const json& kw) {
    std::optional<layers::Factor> width;
    if (!kw["width_factor"].is_null()) width = factor(kw["width_factor"]);
    auto layer = layers::RandomZoom(factor(kw["height_factor"]),
                                    {.width_factor = width,
                                     .fill_mode = str(kw, "fill_mode"),
                                     .interpolation = str(kw, "interpolation"),
                                     .seed = 4,
                                     .fill_value = kw["fill_value"].get<double>(),
                                     .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["random_translation"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::RandomTranslation(factor(kw["height_factor"]), factor(kw["width_factor"]),
                                           {.fill_mode = str(kw, "fill_mode"),
                                            .interpolation = str(kw, "interpolation"),
                                            .seed = 5,
                                            .fill_value = kw["fill_value"].get<double>(),
                                            .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["random_contrast"] = [](const TensorList& in, const json& kw) {
    auto vr = kw["value_range"].get<std::vector<double>>();
    auto layer = layers::RandomContrast(factor(kw["factor"]),
                                        {.value_range = {vr[0], vr[1]},
                                         .seed = 6,
                                         .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  m["random_brightness"] = [](const TensorList& in, const json& kw) {
    auto vr = kw["value_range"].get<std::vector<double>>();
    auto layer = layers::RandomBrightness(factor(kw["factor"]),
                                          {.value_range = {vr[0], vr[1]},
                                           .seed = 7,
                                           .data_format = str(kw, "data_format")});
    return run(*layer, in, kw);
  };
  return m;
}

TEST(PreprocessingGolden, MatchesReferences) {
  auto exercised = run_golden("layers_preprocessing", preprocessing_ops());
  EXPECT_EQ(exercised.size(), 14u);
}

// ---- every layer: symbolic shapes and configs ---------------------------------------------

struct Example {
  std::string name;
  std::function<std::shared_ptr<Layer>()> make;
  Shape input;  // without the batch axis
  DType dtype = DType::Float32;
};

std::vector<Example> examples() {
  Tensor mean = ops::convert_to_tensor(std::vector<double>{1, 2, 3});
  return {
      {"Rescaling", [] { return layers::Rescaling(1.0 / 255, {.offset = -0.5}); }, {8, 8, 3}},
      {"RescalingArray", [] { return layers::Rescaling({0.5, 1.0, 2.0}); }, {4, 3}},
      {"Normalization", [] { return layers::Normalization(); }, {5}},
      {"NormalizationFixed",
       [mean] { return layers::Normalization({.axis = {-1}, .mean = mean, .variance = mean}); },
       {2, 3}},
      {"NormalizationNone", [] { return layers::Normalization({.axis = {}, .mean = 2.0, .variance = 4.0}); },
       {3, 4}},
      {"CategoryEncoding", [] { return layers::CategoryEncoding(6); }, {4}, DType::Int32},
      {"CategoryEncodingOneHot",
       [] { return layers::CategoryEncoding(6, {.output_mode = "one_hot"}); }, {3}, DType::Int32},
      {"CategoryEncodingCount",
       [] { return layers::CategoryEncoding(5, {.output_mode = "count"}); }, {2}, DType::Int32},
      {"Discretization",
       [] { return layers::Discretization({.bin_boundaries = std::vector<double>{0.0, 1.0}}); },
       {4}},
      {"DiscretizationOneHot",
       [] {
         return layers::Discretization(
             {.bin_boundaries = std::vector<double>{0.0, 1.0}, .output_mode = "one_hot"});
       },
       {4}},
      {"Resizing", [] { return layers::Resizing(5, 7, {.interpolation = "bicubic"}); }, {9, 6, 3}},
      {"ResizingCf",
       [] { return layers::Resizing(5, 7, {.crop_to_aspect_ratio = true, .data_format = "channels_first"}); },
       {2, 9, 6}},
      {"CenterCrop", [] { return layers::CenterCrop(4, 3); }, {6, 6, 2}},
      {"CenterCropSmaller", [] { return layers::CenterCrop(8, 3); }, {6, 6, 2}},
      {"RandomFlip", [] { return layers::RandomFlip("horizontal", {.seed = 3}); }, {5, 6, 3}},
      {"RandomRotation",
       [] { return layers::RandomRotation({-0.2, 0.3}, {.fill_mode = "constant", .seed = 2}); },
       {5, 6, 3}},
      {"RandomZoom",
       [] { return layers::RandomZoom(0.2, {.width_factor = layers::Factor(-0.3, 0.1)}); },
       {5, 6, 1}},
      {"RandomTranslation",
       [] { return layers::RandomTranslation(0.1, {-0.2, 0.2}, {.interpolation = "nearest"}); },
       {5, 6, 3}},
      {"RandomContrast", [] { return layers::RandomContrast(0.5, {.seed = 9}); }, {5, 6, 3}},
      {"RandomBrightness",
       [] { return layers::RandomBrightness({-0.1, 0.2}, {.value_range = {0, 1}}); }, {5, 6, 3}},
  };
}

Tensor example_input(const Example& e, int64_t batch) {
  Shape s{batch};
  for (int64_t d : e.input) s.push_back(d);
  if (e.dtype == DType::Int32) return ops::cast(random::randint(s, 0, 5, DType::Int32, 1), e.dtype);
  return random::uniform(s, 0.0, 2.0, e.dtype, 2);
}

TEST(PreprocessingLayers, SymbolicShapesMatchEager) {
  for (const Example& e : examples()) {
    for (bool training : {false, true}) {
      SCOPED_TRACE(e.name + (training ? " (training)" : ""));
      auto layer = e.make();
      KerasTensor in = Input(e.input, {.dtype = e.dtype});
      KerasTensor out = (*layer)(in, CallContext{.training = training});
      Tensor eager = (*layer)(example_input(e, 3), CallContext{.training = training});
      Shape expected = eager.shape();
      expected[0] = -1;
      EXPECT_EQ(out.shape(), expected);
      EXPECT_EQ(out.dtype(), eager.dtype());
    }
  }
}

TEST(PreprocessingLayers, ConfigsRoundTrip) {
  for (const Example& e : examples()) {
    SCOPED_TRACE(e.name);
    auto layer = e.make();
    Config c = layer->get_config();
    auto again = layers::from_config(layer->class_name(), c);
    EXPECT_EQ(again->class_name(), layer->class_name());
    EXPECT_EQ(again->get_config(), c);
    auto record = layers::serialize(*layer);
    EXPECT_EQ(record["class_name"], layer->class_name());
    EXPECT_EQ(layers::deserialize(record)->get_config(), c);
  }
}

TEST(PreprocessingLayers, ConfigKeysAreKeras) {
  auto keys = [](const Config& c) {
    std::vector<std::string> k;
    for (auto it = c.begin(); it != c.end(); ++it) k.push_back(it.key());
    std::sort(k.begin(), k.end());
    return k;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(keys(layers::Rescaling(0.5)->get_config()),
            V({"dtype", "name", "offset", "scale", "trainable"}));
  EXPECT_EQ(keys(layers::Normalization()->get_config()),
            V({"axis", "dtype", "invert", "mean", "name", "trainable", "variance"}));
  EXPECT_EQ(keys(layers::CategoryEncoding(3)->get_config()),
            V({"dtype", "name", "num_tokens", "output_mode", "trainable"}));
  EXPECT_EQ(keys(layers::Discretization({.num_bins = 3})->get_config()),
            V({"bin_boundaries", "dtype", "epsilon", "name", "num_bins", "output_mode", "sparse"}));
  EXPECT_EQ(keys(layers::Resizing(2, 3)->get_config()),
            V({"antialias", "crop_to_aspect_ratio", "data_format", "dtype", "fill_mode",
               "fill_value", "height", "interpolation", "name", "pad_to_aspect_ratio",
               "trainable", "width"}));
  EXPECT_EQ(keys(layers::CenterCrop(2, 3)->get_config()),
            V({"data_format", "dtype", "height", "name", "trainable", "width"}));
  EXPECT_EQ(keys(layers::RandomFlip()->get_config()),
            V({"data_format", "dtype", "mode", "name", "seed", "trainable"}));
  EXPECT_EQ(keys(layers::RandomRotation(0.1)->get_config()),
            V({"data_format", "dtype", "factor", "fill_mode", "fill_value", "interpolation", "name",
               "seed", "trainable"}));
  EXPECT_EQ(keys(layers::RandomZoom(0.1)->get_config()),
            V({"data_format", "dtype", "fill_mode", "fill_value", "height_factor",
               "interpolation", "name", "seed", "trainable", "width_factor"}));
  EXPECT_EQ(keys(layers::RandomTranslation(0.1, 0.2)->get_config()),
            V({"data_format", "dtype", "fill_mode", "fill_value", "height_factor",
               "interpolation", "name", "seed", "trainable", "width_factor"}));
  EXPECT_EQ(keys(layers::RandomContrast(0.1)->get_config()),
            V({"data_format", "dtype", "factor", "name", "seed", "trainable", "value_range"}));
  EXPECT_EQ(keys(layers::RandomBrightness(0.1)->get_config()),
            V({"data_format", "dtype", "factor", "name", "seed", "trainable", "value_range"}));
}

TEST(PreprocessingLayers, ConfigValuesAsKerasWritesThem) {
  Config rot = layers::RandomRotation(0.2, {.seed = 5})->get_config();
  EXPECT_EQ(rot["factor"], Config::array({-0.2, 0.2}));
  EXPECT_EQ(rot["seed"], 5);
  EXPECT_EQ(rot["data_format"], "channels_last");
  EXPECT_TRUE(layers::RandomFlip()->get_config()["seed"].is_null());
  // RandomContrast: a number f is (0, f), Keras's [0, 1] bounds.
  EXPECT_EQ(layers::RandomContrast(0.3)->get_config()["factor"], Config::array({0.0, 0.3}));
  EXPECT_EQ(layers::RandomZoom(0.3)->get_config()["height_factor"], 0.3);
  EXPECT_TRUE(layers::RandomZoom(0.3)->get_config()["width_factor"].is_null());
  Config norm = layers::Normalization({.mean = 2.0, .variance = 3.0})->get_config();
  EXPECT_EQ(norm["mean"], 2.0);
  EXPECT_EQ(norm["axis"], Config::array({-1}));
  EXPECT_TRUE(layers::Normalization()->get_config()["mean"].is_null());
  EXPECT_EQ(layers::Rescaling({0.5, 2.0})->get_config()["scale"], Config::array({0.5, 2.0}));
  Config d = layers::Discretization({.bin_boundaries = std::vector<double>{0.5}})->get_config();
  EXPECT_EQ(d["dtype"], "float32");
  EXPECT_TRUE(d["num_bins"].is_null());

  // Configs Keras writes load (numbers as ints, numpy records, older keys).
  auto r = layers::from_config(
      "Rescaling", Config::parse(R"({"name": "r", "scale": {"class_name": "__numpy__",
          "config": {"value": [0.5, 0.25], "dtype": "float32"}}, "offset": 0})"));
  EXPECT_TENSOR_NEAR(r->call(ops::ones({1, 2}), {}), make({0.5, 0.25}, {1, 2}), 0, 0);
  auto enc = layers::from_config(
      "CategoryEncoding",
      Config::parse(R"({"name": "e", "num_tokens": 3, "output_mode": "binary", "sparse": false})"));
  EXPECT_EQ(enc->get_config()["output_mode"], "multi_hot");
  auto adapted = layers::from_config(
      "Discretization",
      Config::parse(R"({"bin_boundaries": [0.0, 1.0], "num_bins": 3, "epsilon": 0.01,
          "output_mode": "int", "sparse": false, "name": "d", "dtype": "float32"})"));
  EXPECT_TENSOR_EQ(adapted->call(make({-1, 0.5, 2}, {3}), {}),
                   ops::convert_to_tensor(std::vector<int32_t>{0, 1, 2}));
  auto norm2 = layers::from_config(
      "Normalization", Config::parse(R"({"name": "n", "axis": null, "mean": 1.0,
          "variance": 4, "invert": false, "dtype": {"module": "keras",
          "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": null}})"));
  EXPECT_TENSOR_NEAR((*norm2)(make({3, 5}, {2})), make({1, 2}, {2}), 1e-6, 1e-6);
}

// ---- Normalization -------------------------------------------------------------------------

TEST(Normalization, WeightsAreKerasState) {
  auto norm = layers::Normalization({.axis = {1}});
  norm->ensure_built({Shape{-1, 4, 2}}, false);
  auto w = norm->weights();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].name(), "mean");
  EXPECT_EQ(w[1].name(), "variance");
  EXPECT_EQ(w[2].name(), "count");
  EXPECT_EQ(w[0].shape(), Shape({4}));
  EXPECT_EQ(w[2].shape(), Shape({}));
  EXPECT_EQ(w[2].dtype(), DType::Int32);
  EXPECT_TRUE(norm->trainable_weights().empty());
  EXPECT_EQ(norm->non_trainable_weights().size(), 3u);
  // Unadapted: mean 0 and variance 1, the identity.
  Tensor x = random::normal({3, 4, 2}, 0, 1, std::nullopt, 1);
  EXPECT_TENSOR_NEAR((*norm)(x), x, 1e-6, 1e-6);
  // Loaded weights take effect (what loading a saved file does).
  norm->set_weights({ops::full({4}, 1.0), ops::full({4}, 4.0), ops::zeros({}, DType::Int32)});
  EXPECT_TENSOR_NEAR((*norm)(x), ops::divide(ops::subtract(x, 1.0), 2.0), 1e-6, 1e-6);
  // Fixed statistics are constants, not weights.
  EXPECT_TRUE(layers::Normalization({.mean = 1.0, .variance = 2.0})->weights().empty());
}

TEST(Normalization, AdaptThenCallStandardizes) {
  Tensor data = ops::add(ops::multiply(random::normal({200, 3}, 0, 1, std::nullopt, 4), 3.0), 5.0);
  auto norm = layers::Normalization();
  norm->adapt(data);
  Tensor y = (*norm)(data);
  EXPECT_TENSOR_NEAR(ops::mean(y, 0), ops::zeros({3}), 0, 1e-5);
  EXPECT_TENSOR_NEAR(ops::var(y, 0), ops::ones({3}), 0, 1e-4);
  // invert undoes it.
  auto inv = layers::Normalization({.invert = true});
  inv->adapt(data);
  EXPECT_TENSOR_NEAR((*inv)(y), data, 1e-5, 1e-4);
  // Integer data adapts in floats.
  auto ints = layers::Normalization({.axis = {}});
  ints->adapt(ops::convert_to_tensor(std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_TENSOR_NEAR((*ints)(make({1, 2, 3}, {3})),
                     make({-1.4142135, -0.70710677, 0.0}, {3}), 1e-6, 1e-6);
}

TEST(Normalization, BadArguments) {
  EXPECT_THROW(layers::Normalization({.mean = 1.0}), ValueError);
  EXPECT_THROW(layers::Normalization({.mean = ops::ones({3}), .variance = ops::ones({2})}), ValueError);
  EXPECT_THROW(layers::Normalization({.axis = {}, .mean = ops::ones({3}), .variance = ops::ones({3})}),
               ValueError);
  EXPECT_THROW((*layers::Normalization({.axis = {2}}))(ops::ones({2, 3})), ValueError);
  EXPECT_THROW((*layers::Normalization({.axis = {-1}, .mean = ops::ones({4}),
                                         .variance = ops::ones({4})}))(ops::ones({2, 3})),
               ValueError);
  auto norm = layers::Normalization();
  norm->adapt(ops::ones({4, 3}));
  EXPECT_THROW(norm->adapt(ops::ones({4, 2})), ValueError);
  try {
    (*norm)(ops::ones({4, 5}));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(4, 5)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(norm->adapt(TensorList{}), ValueError);
  EXPECT_THROW(layers::Normalization({.mean = 1.0, .variance = 1.0})->adapt(ops::ones({2, 1})),
               ValueError);
  // A kept axis of unknown extent cannot be built.
  EXPECT_THROW((*layers::Normalization({.axis = {0}}))(Input({3})), ValueError);
}

TEST(Normalization, MasksPassThrough) {
  auto emb = layers::Rescaling(2.0);
  EXPECT_TRUE(emb->supports_masking());
  EXPECT_TRUE(layers::Normalization()->supports_masking());
}

// ---- CategoryEncoding and Discretization ---------------------------------------------------

TEST(CategoryEncoding, BadArguments) {
  EXPECT_THROW(layers::CategoryEncoding(0), ValueError);
  EXPECT_THROW(layers::CategoryEncoding(3, {.output_mode = "tf_idf"}), ValueError);
  EXPECT_THROW(layers::CategoryEncoding(3, {.sparse = true}), NotImplementedError);
  auto multi = layers::CategoryEncoding(3);
  EXPECT_THROW(multi(ops::zeros({2, 2, 2}, DType::Int32)), ValueError);
  auto one_hot = layers::CategoryEncoding(3, {.output_mode = "one_hot"});
  EXPECT_THROW(one_hot(TensorList{ops::zeros({2}, DType::Int32), ops::ones({2})}), ValueError);
  auto count = layers::CategoryEncoding(3, {.output_mode = "count"});
  EXPECT_THROW(count(TensorList{ops::zeros({2, 2}, DType::Int32), ops::ones({2, 3})}), ValueError);
  EXPECT_THROW(layers::from_config("CategoryEncoding", Config::parse(R"({"num_tokens": null})")),
               ValueError);
}

TEST(Discretization, BadArgumentsAndState) {
  EXPECT_THROW(layers::Discretization({}), ValueError);
  EXPECT_THROW(layers::Discretization({.bin_boundaries = std::vector<double>{1.0}, .num_bins = 2}),
               ValueError);
  EXPECT_THROW(layers::Discretization({.num_bins = -1}), ValueError);
  EXPECT_THROW(layers::Discretization({.num_bins = 2, .output_mode = "tf_idf"}), ValueError);
  EXPECT_THROW(layers::Discretization({.num_bins = 2, .sparse = true}), NotImplementedError);
  EXPECT_THROW(layers::Discretization({.bin_boundaries = std::vector<double>{2.0, 1.0}}), ValueError);
  auto unadapted = layers::Discretization({.num_bins = 3});
  EXPECT_THROW(unadapted(ops::ones({2})), ValueError);
  auto fixed = layers::Discretization({.bin_boundaries = std::vector<double>{0.0}});
  EXPECT_THROW(fixed->adapt(ops::ones({4})), ValueError);
  // After adapt() the boundaries are part of the config (and num_bins stays).
  auto q = layers::Discretization({.num_bins = 4});
  q->adapt(make({-1.5, 1.0, 3.4, .5, 0.0, 3.0, 1.3, 0.0}, {2, 4}));
  Config c = q->get_config();
  EXPECT_EQ(c["num_bins"], 4);
  ASSERT_EQ(c["bin_boundaries"].size(), 3u);
  EXPECT_EQ(layers::from_config("Discretization", c)->get_config(), c);
  // Re-adapting starts over.
  q->adapt(make({10, 20, 30, 40}, {4}));
  EXPECT_EQ((*q->bin_boundaries())[0], 10.0);
}

// ---- image layers --------------------------------------------------------------------------

TEST(ImageLayers, BadArguments) {
  EXPECT_THROW(layers::Resizing(0, 3), ValueError);
  EXPECT_THROW(layers::Resizing(2, 3, {.interpolation = "area"}), ValueError);
  EXPECT_THROW(layers::Resizing(2, 3, {.crop_to_aspect_ratio = true, .pad_to_aspect_ratio = true}),
               ValueError);
  EXPECT_THROW(layers::Resizing(2, 3, {.fill_mode = "reflect"}), ValueError);
  EXPECT_THROW(layers::Resizing(2, 3, {.data_format = "NCHW"}), ValueError);
  EXPECT_THROW(layers::CenterCrop(-1, 3), ValueError);
  EXPECT_THROW(layers::RandomFlip("diagonal"), ValueError);
  EXPECT_THROW(layers::RandomRotation(1.5), ValueError);
  EXPECT_THROW(layers::RandomRotation({2.0, 3.0}), ValueError);
  EXPECT_THROW(layers::RandomRotation(0.1, {.fill_mode = "mirror"}), NotImplementedError);
  EXPECT_THROW(layers::RandomRotation(0.1, {.interpolation = "bicubic"}), NotImplementedError);
  EXPECT_THROW(layers::RandomZoom(-1.0), ValueError);
  EXPECT_THROW(layers::RandomZoom(0.2, {.width_factor = layers::Factor(1.5)}), ValueError);
  EXPECT_THROW(layers::RandomTranslation(0.1, -1.2), ValueError);
  EXPECT_THROW(layers::RandomContrast(-0.1), ValueError);
  EXPECT_THROW(layers::RandomContrast(1.5), ValueError);
  EXPECT_THROW(layers::RandomBrightness(1.2), ValueError);
  EXPECT_THROW(layers::Factor({0.1, 0.2, 0.3}), ValueError);
  // Images must have rank 3 or 4; the message names the shape.
  for (const auto& e : examples()) {
    if (e.name.rfind("Random", 0) != 0 && e.name.rfind("Resizing", 0) != 0 &&
        e.name.rfind("CenterCrop", 0) != 0)
      continue;
    SCOPED_TRACE(e.name);
    auto layer = e.make();
    try {
      (*layer)(ops::ones({4, 5}), CallContext{.training = true});
      ADD_FAILURE() << "no error";
    } catch (const ValueError& err) {
      EXPECT_NE(std::string(err.what()).find("(4, 5)"), std::string::npos) << err.what();
    }
  }
}

TEST(ImageLayers, ResizingKeepsIntegerImagesAndCastsFloats) {
  Tensor u8 = ops::cast(random::randint({2, 5, 5, 3}, 0, 256, DType::Int32, 3), DType::UInt8);
  EXPECT_EQ((*layers::Resizing(3, 3))(u8).dtype(), DType::UInt8);
  EXPECT_EQ((*layers::Resizing(3, 3))(ops::ones({1, 4, 4, 1}, DType::Float64)).dtype(),
            DType::Float32);
  EXPECT_EQ((*layers::CenterCrop(3, 3))(u8).dtype(), DType::Float32);
  EXPECT_EQ((*layers::RandomFlip())(u8).dtype(), DType::Float32);
  // Resizing to the input size is the identity.
  Tensor x = random::uniform({2, 5, 6, 3}, 0, 1, std::nullopt, 8);
  EXPECT_TENSOR_EQ((*layers::Resizing(5, 6, {.interpolation = "bicubic"}))(x), x);
}

// The per-image parameter a transform used, read back from its effect.
std::vector<double> flat(const Tensor& t) { return ops::cast(t, DType::Float64).to_vector<double>(); }

TEST(RandomLayers, SameSeedSameDrawsAndTheGeneratorAdvances) {
  Tensor x = random::uniform({4, 6, 7, 3}, 0, 1, std::nullopt, 1);
  CallContext train{.training = true};
  for (const auto& e : examples()) {
    if (e.name.rfind("Random", 0) != 0) continue;
    SCOPED_TRACE(e.name);
    Config c = e.make()->get_config();
    c["seed"] = 1234;
    c["name"] = e.name + "_a";
    auto a = layers::from_config(e.make()->class_name(), c);
    c["name"] = e.name + "_b";
    auto b = layers::from_config(e.make()->class_name(), c);
    Tensor ya = (*a)(x, train), yb = (*b)(x, train);
    EXPECT_TENSOR_EQ(ya, yb);
    // A second call draws again (different transformations, almost surely).
    Tensor ya2 = (*a)(x, train);
    EXPECT_FALSE(tensors_near(ya2, ya, 0, 0)) << "the generator did not advance";
    // Not training: the identity.
    EXPECT_TENSOR_EQ((*a)(x), x);
  }
}

TEST(RandomLayers, CallIsTheDrawnTransformation) {
  Tensor x = random::uniform({3, 5, 6, 2}, 0, 1, std::nullopt, 2);
  auto rot = layers::RandomRotation(0.3, {.seed = 11});
  auto twin = layers::RandomRotation(0.3, {.seed = 11});
  auto t = twin->get_random_transformation(x);
  ASSERT_TRUE(t.count("angle"));
  EXPECT_EQ(t["angle"].shape(), Shape({3}));
  EXPECT_EQ(t["rotation_matrix"].shape(), Shape({3, 8}));
  EXPECT_TENSOR_EQ((*rot)(x, CallContext{.training = true}), twin->transform_images(x, t));
  // A rank-3 image draws one unbatched transformation.
  auto one = twin->get_random_transformation(ops::ones({5, 6, 2}));
  EXPECT_EQ(one["rotation_matrix"].shape(), Shape({8}));
  // Not training draws nothing.
  EXPECT_TRUE(twin->get_random_transformation(x, false).empty());
  // An explicit seed overrides the generator.
  auto s1 = twin->get_random_transformation(x, true, random::Seed(5));
  auto s2 = twin->get_random_transformation(x, true, random::Seed(5));
  EXPECT_TENSOR_EQ(s1["angle"], s2["angle"]);
}

TEST(RandomLayers, DrawsFollowTheirClosedForms) {
  const int64_t n = 4000;
  Tensor x = ops::ones({n, 2, 2, 1});
  // Rotation angle ~ U(-0.2 * 360, 0.3 * 360): mean 18, variance 180^2 / 12.
  auto rot = layers::RandomRotation({-0.2, 0.3}, {.seed = 1});
  auto angles = flat(rot->get_random_transformation(x)["angle"]);
  EXPECT_TRUE(moments_match(angles, 18.0, 180.0 * 180.0 / 12, -1.2));
  EXPECT_GE(sample_moments(angles).min, -72.0);
  EXPECT_LE(sample_moments(angles).max, 108.0);
  // Zoom ~ 1 + U(-0.3, 0.1) (width) and 1 + U(-0.2, 0.2) (height), drawn independently.
  auto zoom = layers::RandomZoom(0.2, {.width_factor = layers::Factor(-0.3, 0.1), .seed = 2});
  auto tz = zoom->get_random_transformation(x);
  EXPECT_TRUE(moments_match(flat(tz["height_zoom"]), 1.0, 0.16 / 12, -1.2));
  EXPECT_TRUE(moments_match(flat(tz["width_zoom"]), 0.9, 0.16 / 12, -1.2));
  // Translations in pixels: U(-0.1, 0.1) * height and U(-0.2, 0.2) * width (2 x 2 here).
  auto shift = layers::RandomTranslation(0.1, {-0.2, 0.2}, {.seed = 3});
  auto tr = flat(shift->get_random_transformation(x)["translations"]);
  std::vector<double> tx, ty;
  for (size_t i = 0; i < tr.size(); i += 2) tx.push_back(tr[i]), ty.push_back(tr[i + 1]);
  EXPECT_TRUE(moments_match(tx, 0.0, 0.64 / 12, -1.2));
  EXPECT_TRUE(moments_match(ty, 0.0, 0.16 / 12, -1.2));
  // Contrast factor ~ U(1 - 0, 1 + 0.5) for factor 0.5 (Keras's (0, f)).
  auto contrast = layers::RandomContrast(0.5, {.seed = 4});
  EXPECT_TRUE(moments_match(flat(contrast->get_random_transformation(x)["contrast_factor"]), 1.25,
                            0.25 / 12, -1.2));
  // Brightness delta ~ U(-0.1, 0.2) * 255.
  auto bright = layers::RandomBrightness({-0.1, 0.2}, {.seed = 5});
  EXPECT_TRUE(moments_match(flat(bright->get_random_transformation(x)["rgb_delta"]), 0.05 * 255,
                            0.09 * 255 * 255 / 12, -1.2));
  // Flips: Bernoulli(1/2) per image.
  auto flip = layers::RandomFlip({.seed = 6});
  auto flips = flat(flip->get_random_transformation(x)["flips"]);
  EXPECT_TRUE(chi_square_fits(histogram(flips, 2), {0.5, 0.5}));
}

TEST(RandomLayers, FlipIsAllOrNothingPerImage) {
  const int64_t n = 400;
  Tensor x = random::uniform({n, 3, 4, 2}, 0, 1, std::nullopt, 9);
  for (std::string mode : {"horizontal", "vertical", "horizontal_and_vertical"}) {
    SCOPED_TRACE(mode);
    auto flip = layers::RandomFlip(mode, {.seed = 2});
    Tensor y = (*flip)(x, CallContext{.training = true});
    Tensor flipped = x;
    if (mode != "vertical") flipped = ops::flip(flipped, 2);
    if (mode != "horizontal") flipped = ops::flip(flipped, 1);
    Tensor same = ops::all(ops::equal(y, x), {1, 2, 3});
    Tensor turned = ops::all(ops::equal(y, flipped), {1, 2, 3});
    EXPECT_TRUE(ops::all(ops::logical_or(same, turned)).item<bool>());
    std::vector<double> counts(2, 0.0);
    for (bool b : turned.to_vector<bool>()) counts[b ? 1 : 0] += 1;
    EXPECT_TRUE(chi_square_fits(counts, {0.5, 0.5}));
  }
}

TEST(RandomLayers, ContrastScalesEachImageAboutItsMean) {
  // Inside value_range (0, 255) even after scaling by 1.6, so nothing is clipped.
  Tensor x = random::uniform({64, 5, 4, 3}, 100, 150, std::nullopt, 3);
  auto contrast = layers::RandomContrast({0.2, 0.6}, {.seed = 8});
  Tensor y = (*contrast)(x, CallContext{.training = true});
  // y = (x - mean) f + mean with one f per image (mean per image and channel): f by least
  // squares, then the residual of the closed form.
  Tensor mean = ops::mean(x, {1, 2}, true);
  Tensor dx = ops::subtract(x, mean), dy = ops::subtract(y, mean);
  Tensor f = ops::divide(ops::sum(ops::multiply(dx, dy), {1, 2, 3}, true),
                         ops::sum(ops::multiply(dx, dx), {1, 2, 3}, true));
  EXPECT_TENSOR_NEAR(y, ops::add(ops::multiply(dx, f), mean), 1e-4, 1e-3);
  auto m = sample_moments(flat(f));
  EXPECT_GE(m.min, 0.8 - 1e-4);
  EXPECT_LE(m.max, 1.6 + 1e-4);
  EXPECT_LT(m.min, 0.9);  // 64 draws from U(0.8, 1.6) spread out
  EXPECT_GT(m.max, 1.5);
}

TEST(RandomLayers, SymbolicCallsDoNotAdvanceTheGenerator) {
  auto rot = layers::RandomRotation(0.2, {.seed = 3});
  auto twin = layers::RandomRotation(0.2, {.seed = 3});
  KerasTensor in = Input({5, 5, 1});
  (*rot)(in, CallContext{.training = true});
  Tensor x = random::uniform({2, 5, 5, 1}, 0, 1, std::nullopt, 1);
  EXPECT_TENSOR_EQ((*rot)(x, CallContext{.training = true}),
                   (*twin)(x, CallContext{.training = true}));
}

TEST(PreprocessingLayers, WorkInAModel) {
  auto model = Sequential({Input({8, 8, 3}), layers::Rescaling(1.0 / 255),
                           layers::RandomFlip({.seed = 1}), layers::RandomRotation(0.1),
                           layers::Resizing(4, 4), layers::CenterCrop(2, 2)});
  Tensor x = ops::full({2, 8, 8, 3}, 255.0);
  Tensor y = model(x);
  EXPECT_EQ(y.shape(), Shape({2, 2, 2, 3}));
  EXPECT_TENSOR_NEAR(y, ops::ones({2, 2, 2, 3}), 1e-6, 1e-6);
}

}  // namespace
}  // namespace keras

// The merging and reshaping layers' symbolic shapes, configs (as Keras 3.10 writes them),
// argument forms, bad inputs and Functional/Sequential use.

#include <gtest/gtest.h>

#include <functional>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;
using Factory = std::function<std::shared_ptr<Layer>()>;

// Sizes 0, 1, 2, ... as a float32 tensor of `shape`.
Tensor iota(const Shape& shape) {
  return ops::reshape(ops::arange(0.0, static_cast<double>(shape.numel()), 1.0, DType::Float32),
                      shape);
}

Shape with_unknown_batch(Shape s) {
  s[0] = kUnknownDim;
  return s;
}

// Calling the layer on Inputs gives the eager output's shape with the batch axis unknown.
void expect_symbolic_matches_eager(const Factory& factory, const std::vector<Shape>& shapes,
                                   bool list_call) {
  std::vector<KerasTensor> symbolic;
  TensorList eager;
  for (const Shape& s : shapes) {
    symbolic.push_back(Input(Shape(s.begin() + 1, s.end())));
    eager.push_back(iota(s));
  }
  auto sym_layer = factory();
  auto eager_layer = factory();
  KerasTensor y = list_call ? (*sym_layer)(symbolic).at(0) : (*sym_layer)(symbolic[0]);
  Tensor z = list_call ? (*eager_layer)(eager).at(0) : (*eager_layer)(eager[0]);
  EXPECT_EQ(y.shape(), with_unknown_batch(z.shape()))
      << sym_layer->class_name() << ": symbolic " << shape_string(y.shape()) << " vs eager "
      << z.shape();
  EXPECT_EQ(y.dtype(), z.dtype()) << sym_layer->class_name();
}

TEST(MergingSymbolic, ShapesMatchEager) {
  using namespace layers;  // NOLINT
  const std::vector<Shape> same{{2, 3, 4}, {2, 3, 4}};
  const std::vector<Shape> ranks{{2, 4}, {2, 3, 4}};
  expect_symbolic_matches_eager([] { return Add(); }, same, true);
  expect_symbolic_matches_eager([] { return Add(); }, ranks, true);
  expect_symbolic_matches_eager([] { return Subtract(); }, same, true);
  expect_symbolic_matches_eager([] { return Multiply(); }, {{2, 1, 4}, {2, 3, 4}}, true);
  expect_symbolic_matches_eager([] { return Average(); }, {{2, 3}, {2, 3}, {2, 3}}, true);
  expect_symbolic_matches_eager([] { return Maximum(); }, ranks, true);
  expect_symbolic_matches_eager([] { return Minimum(); }, same, true);
  expect_symbolic_matches_eager([] { return Concatenate(); }, {{2, 3, 4}, {2, 3, 5}}, true);
  expect_symbolic_matches_eager([] { return Concatenate(1); }, {{2, 3, 4}, {2, 1, 4}}, true);
  expect_symbolic_matches_eager([] { return Dot(-1); }, {{2, 4}, {2, 4}}, true);
  expect_symbolic_matches_eager([] { return Dot({1, 2}); }, {{2, 3, 5}, {2, 10, 3}}, true);
  expect_symbolic_matches_eager([] { return Dot({3, 1}, {.normalize = true}); },
                                {{2, 3, 4, 5}, {2, 5, 6}}, true);
}

TEST(ReshapingSymbolic, ShapesMatchEager) {
  using namespace layers;  // NOLINT
  expect_symbolic_matches_eager([] { return Flatten(); }, {{2, 3, 4, 5}}, false);
  expect_symbolic_matches_eager([] { return Flatten({.data_format = "channels_first"}); },
                                {{2, 3, 4, 5}}, false);
  expect_symbolic_matches_eager([] { return Flatten(); }, {{3}}, false);
  expect_symbolic_matches_eager([] { return Reshape({3, 4}); }, {{2, 12}}, false);
  expect_symbolic_matches_eager([] { return Reshape({-1, 2, 2}); }, {{2, 3, 4}}, false);
  expect_symbolic_matches_eager([] { return Permute({2, 1}); }, {{2, 3, 4}}, false);
  expect_symbolic_matches_eager([] { return Permute({3, 1, 2}); }, {{2, 3, 4, 5}}, false);
  expect_symbolic_matches_eager([] { return RepeatVector(3); }, {{2, 4}}, false);
  expect_symbolic_matches_eager([] { return Cropping1D({1, 2}); }, {{2, 6, 3}}, false);
  expect_symbolic_matches_eager([] { return Cropping2D({{1, 2}, {0, 1}}); }, {{2, 6, 5, 3}},
                                false);
  expect_symbolic_matches_eager(
      [] { return Cropping2D(1, {.data_format = "channels_first"}); }, {{2, 3, 6, 5}}, false);
  expect_symbolic_matches_eager([] { return Cropping3D(); }, {{2, 4, 5, 6, 2}}, false);
  expect_symbolic_matches_eager([] { return ZeroPadding1D(); }, {{2, 4, 3}}, false);
  expect_symbolic_matches_eager([] { return ZeroPadding1D({2, 0}, {.data_format = "channels_first"}); },
                                {{2, 3, 4}}, false);
  expect_symbolic_matches_eager([] { return ZeroPadding2D({1, 2}); }, {{2, 4, 3, 2}}, false);
  expect_symbolic_matches_eager([] { return ZeroPadding3D(); }, {{2, 2, 3, 4, 1}}, false);
  expect_symbolic_matches_eager([] { return UpSampling1D(3); }, {{2, 4, 3}}, false);
  expect_symbolic_matches_eager([] { return UpSampling2D({2, 3}); }, {{2, 3, 4, 2}}, false);
  expect_symbolic_matches_eager(
      [] {
        return UpSampling2D(2, {.data_format = "channels_first", .interpolation = "bilinear"});
      },
      {{2, 2, 3, 4}}, false);
  expect_symbolic_matches_eager([] { return UpSampling3D({1, 2, 3}); }, {{2, 2, 3, 2, 1}},
                                false);
}

TEST(ReshapingSymbolic, UnknownAxesStayUnknown) {
  // Keras: (None, None, 4) -> Flatten -> (None, None); Reshape((-1, 2)) -> (None, None, 2);
  // cropping and upsampling an unknown axis leave it unknown.
  KerasTensor x = Input({-1, 4});
  EXPECT_EQ(layers::Flatten()(x).shape(), Shape({-1, -1}));
  EXPECT_EQ(layers::Reshape({-1, 2})(x).shape(), Shape({-1, -1, 2}));
  EXPECT_EQ(layers::Cropping1D(1)(x).shape(), Shape({-1, -1, 4}));
  EXPECT_EQ(layers::UpSampling1D(2)(x).shape(), Shape({-1, -1, 4}));
  EXPECT_EQ(layers::ZeroPadding1D(1)(x).shape(), Shape({-1, -1, 4}));
  EXPECT_EQ(layers::Concatenate(1)(std::vector<KerasTensor>{x, Input({3, 4})}).at(0).shape(),
            Shape({-1, -1, 4}));
}

// ---- configs ---------------------------------------------------------------------------------

// get_config -> from_config -> get_config, and serialize -> deserialize, are lossless.
void expect_round_trip(const Layer& layer) {
  Config c = layer.get_config();
  auto again = layers::from_config(layer.class_name(), c);
  EXPECT_EQ(again->class_name(), layer.class_name());
  EXPECT_EQ(again->get_config(), c) << layer.class_name();
  auto revived = layers::deserialize(layers::serialize(layer));
  EXPECT_EQ(revived->get_config(), c) << layer.class_name();
}

// The config's keys besides the base ones.
std::vector<std::string> own_keys(const Config& c) {
  std::vector<std::string> keys;
  for (auto it = c.begin(); it != c.end(); ++it)
    if (it.key() != "name" && it.key() != "trainable" && it.key() != "dtype") keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(MergingConfig, RoundTripsAndMatchesKeras) {
  using namespace layers;  // NOLINT
  for (auto layer : std::vector<std::shared_ptr<Layer>>{Add(), Subtract(), Multiply(), Average(),
                                                         Maximum(), Minimum({.name = "lowest"})}) {
    expect_round_trip(*layer);
    EXPECT_TRUE(own_keys(layer->get_config()).empty()) << layer->class_name();
  }
  auto cat = Concatenate(1, {.name = "joined"});
  expect_round_trip(*cat);
  EXPECT_EQ(cat->get_config()["axis"], 1);
  EXPECT_EQ(cat->get_config()["name"], "joined");
  EXPECT_EQ(Concatenate()->get_config()["axis"], -1);
  EXPECT_EQ(own_keys(cat->get_config()), (std::vector<std::string>{"axis"}));
  auto dot = Dot({1, 2}, {.normalize = true});
  expect_round_trip(*dot);
  EXPECT_EQ(dot->get_config()["axes"], Config::array({1, 2}));
  EXPECT_EQ(dot->get_config()["normalize"], true);
  auto dot1 = Dot(-1);
  expect_round_trip(*dot1);
  EXPECT_EQ(dot1->get_config()["axes"], -1);
  EXPECT_EQ(dot1->get_config()["normalize"], false);
  EXPECT_EQ(own_keys(dot1->get_config()), (std::vector<std::string>{"axes", "normalize"}));
}

TEST(MergingConfig, ReadsKerasConfigs) {
  // Configs as Keras 3.10 writes them.
  Config dot = Config::parse(R"({"name": "dot_7", "trainable": true,
      "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
                "registered_name": null}, "axes": [1, 2], "normalize": false})");
  auto layer = layers::from_config("Dot", dot);
  EXPECT_EQ(layer->name(), "dot_7");
  EXPECT_EQ(layer->get_config(), dot);
  Config add = Config::parse(R"({"name": "add_3", "trainable": false, "dtype": "float64"})");
  auto a = layers::from_config("Add", add);
  EXPECT_FALSE(a->trainable());
  EXPECT_EQ(a->compute_dtype(), DType::Float64);
}

TEST(ReshapingConfig, RoundTripsAndMatchesKeras) {
  using namespace layers;  // NOLINT
  auto fl = Flatten();
  expect_round_trip(*fl);
  EXPECT_EQ(fl->get_config()["data_format"], "channels_last");
  EXPECT_EQ(own_keys(fl->get_config()), (std::vector<std::string>{"data_format"}));

  auto rs = Reshape({-1, 2, 2});
  expect_round_trip(*rs);
  EXPECT_EQ(rs->get_config()["target_shape"], Config::array({-1, 2, 2}));

  auto pm = Permute({2, 1});
  expect_round_trip(*pm);
  EXPECT_EQ(pm->get_config()["dims"], Config::array({2, 1}));

  auto rv = RepeatVector(4);
  expect_round_trip(*rv);
  EXPECT_EQ(rv->get_config()["n"], 4);

  auto c1 = Cropping1D();
  expect_round_trip(*c1);
  EXPECT_EQ(c1->get_config()["cropping"], Config::array({1, 1}));
  EXPECT_EQ(own_keys(c1->get_config()), (std::vector<std::string>{"cropping"}));
  EXPECT_EQ(Cropping1D(3)->get_config()["cropping"], Config::array({3, 3}));

  auto c2 = Cropping2D();
  EXPECT_EQ(c2->get_config()["cropping"], Config::parse("[[0, 0], [0, 0]]"));
  auto c2b = Cropping2D({1, {2, 3}}, {.data_format = "channels_first"});
  expect_round_trip(*c2b);
  EXPECT_EQ(c2b->get_config()["cropping"], Config::parse("[[1, 1], [2, 3]]"));
  EXPECT_EQ(c2b->get_config()["data_format"], "channels_first");
  EXPECT_EQ(Cropping2D(2)->get_config()["cropping"], Config::parse("[[2, 2], [2, 2]]"));
  EXPECT_EQ(Cropping2D({1, 2})->get_config()["cropping"], Config::parse("[[1, 1], [2, 2]]"));

  auto c3 = Cropping3D();
  expect_round_trip(*c3);
  EXPECT_EQ(c3->get_config()["cropping"], Config::parse("[[1, 1], [1, 1], [1, 1]]"));
  EXPECT_EQ(own_keys(c3->get_config()), (std::vector<std::string>{"cropping", "data_format"}));

  auto z1 = ZeroPadding1D();
  expect_round_trip(*z1);
  EXPECT_EQ(z1->get_config()["padding"], Config::array({1, 1}));
  EXPECT_EQ(own_keys(z1->get_config()), (std::vector<std::string>{"data_format", "padding"}));
  auto z2 = ZeroPadding2D();
  expect_round_trip(*z2);
  EXPECT_EQ(z2->get_config()["padding"], Config::parse("[[1, 1], [1, 1]]"));
  auto z3 = ZeroPadding3D({{0, 1}, 2, {3, 4}});
  expect_round_trip(*z3);
  EXPECT_EQ(z3->get_config()["padding"], Config::parse("[[0, 1], [2, 2], [3, 4]]"));

  auto u1 = UpSampling1D();
  expect_round_trip(*u1);
  EXPECT_EQ(u1->get_config()["size"], 2);
  auto u2 = UpSampling2D(2, {.interpolation = "BILINEAR"});
  expect_round_trip(*u2);
  EXPECT_EQ(u2->get_config()["size"], Config::array({2, 2}));
  EXPECT_EQ(u2->get_config()["interpolation"], "bilinear");
  EXPECT_EQ(own_keys(u2->get_config()),
            (std::vector<std::string>{"data_format", "interpolation", "size"}));
  auto u3 = UpSampling3D({1, 2, 3});
  expect_round_trip(*u3);
  EXPECT_EQ(u3->get_config()["size"], Config::array({1, 2, 3}));
  EXPECT_EQ(own_keys(u3->get_config()), (std::vector<std::string>{"data_format", "size"}));
}

TEST(ReshapingConfig, ReadsKerasForms) {
  // Keras accepts an int or a flat pair where a pair of pairs is written.
  Config c = Config::parse(R"({"cropping": 2, "data_format": "channels_last"})");
  EXPECT_EQ(layers::from_config("Cropping2D", c)->get_config()["cropping"],
            Config::parse("[[2, 2], [2, 2]]"));
  c = Config::parse(R"({"padding": [1, 2, 3]})");
  EXPECT_EQ(layers::from_config("ZeroPadding3D", c)->get_config()["padding"],
            Config::parse("[[1, 1], [2, 2], [3, 3]]"));
  c = Config::parse(R"({"size": 3})");
  EXPECT_EQ(layers::from_config("UpSampling2D", c)->get_config()["size"], Config::array({3, 3}));
}

TEST(ReshapingConfig, DataFormatDefaultsToTheGlobalSetting) {
  const std::string saved = config::image_data_format();
  config::set_image_data_format("channels_first");
  auto up = layers::UpSampling2D();
  auto flat = layers::Flatten();
  config::set_image_data_format(saved);
  EXPECT_EQ(up->data_format(), "channels_first");
  EXPECT_EQ(flat->data_format(), "channels_first");
  EXPECT_EQ(up(iota({1, 2, 3, 4})).shape(), Shape({1, 2, 6, 8}));
  EXPECT_EQ(layers::Flatten()->data_format(), saved);
}

TEST(Layers, AutomaticNames) {
  backend::clear_session();
  EXPECT_EQ(layers::UpSampling2D()->name(), "up_sampling2d");
  EXPECT_EQ(layers::ZeroPadding2D()->name(), "zero_padding2d");
  EXPECT_EQ(layers::RepeatVector(2)->name(), "repeat_vector");
  EXPECT_EQ(layers::Cropping1D()->name(), "cropping1d");
  EXPECT_EQ(layers::Concatenate()->name(), "concatenate");
  EXPECT_EQ(layers::Concatenate()->name(), "concatenate_1");
}

// ---- behaviour -------------------------------------------------------------------------------

TEST(Merging, FunctionalFormsMatchLayers) {
  Tensor a = make({1, 2, 3, 4}, {2, 2}), b = make({5, 6, 7, 8}, {2, 2});
  EXPECT_TENSOR_EQ(layers::add({a, b}), make({6, 8, 10, 12}, {2, 2}));
  EXPECT_TENSOR_EQ(layers::subtract({a, b}), make({-4, -4, -4, -4}, {2, 2}));
  EXPECT_TENSOR_EQ(layers::multiply({a, b}), make({5, 12, 21, 32}, {2, 2}));
  EXPECT_TENSOR_EQ(layers::average({a, b}), make({3, 4, 5, 6}, {2, 2}));
  EXPECT_TENSOR_EQ(layers::maximum({a, b}), b);
  EXPECT_TENSOR_EQ(layers::minimum({a, b}), a);
  EXPECT_TENSOR_EQ(layers::concatenate({a, b}), make({1, 2, 5, 6, 3, 4, 7, 8}, {2, 4}));
  EXPECT_TENSOR_EQ(layers::concatenate({a, b}, 0), make({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2}));
  EXPECT_TENSOR_EQ(layers::dot({a, b}, 1), make({17, 53}, {2, 1}));
  // Cosine proximity of (1, 0) and (1, 1): 1 / sqrt(2).
  Tensor c = layers::dot({make({1, 0}, {1, 2}), make({1, 1}, {1, 2})}, -1, {.normalize = true});
  EXPECT_NEAR(c.item<float>(), 1.0 / std::sqrt(2.0), 1e-6);

  auto x = Input({3}), y = Input({3});
  EXPECT_EQ(layers::add({x, y}).shape(), Shape({-1, 3}));
  EXPECT_EQ(layers::concatenate({x, y}).shape(), Shape({-1, 6}));
  EXPECT_EQ(layers::dot({x, y}, 1).shape(), Shape({-1, 1}));
  EXPECT_EQ(layers::subtract({x, y}, {.name = "diff"}).node()->layer->name(), "diff");
}

TEST(Merging, MixedDtypesComputeInThePolicyDtype) {
  Tensor a = ops::ones({2, 2}, DType::Float64), b = ops::ones({2, 2});
  EXPECT_EQ(layers::add({a, b}).dtype(), DType::Float32);
  EXPECT_EQ(layers::Add({.dtype = "float64"})(TensorList{a, b}).at(0).dtype(), DType::Float64);
  Tensor i = ops::ones({2, 2}, DType::Int32);
  EXPECT_EQ(layers::add({i, i}).dtype(), DType::Int32);
}

TEST(Merging, ModelsTrainThroughMerges) {
  // A two-branch model: the gradient reaches both Dense layers through Concatenate and Add.
  auto in = Input({3});
  auto d1 = layers::Dense(2, {.kernel_initializer = "ones"});
  auto d2 = layers::Dense(2, {.kernel_initializer = "ones"});
  auto h1 = d1(in), h2 = d2(in);
  auto out = layers::Dense(1, {.kernel_initializer = "ones"})(
      layers::concatenate({layers::add({h1, h2}), layers::multiply({h1, h2})}));
  auto model = Functional(in, out);
  EXPECT_EQ(out.shape(), Shape({-1, 1}));
  Tensor x = make({1, 2, 3}, {1, 3});
  // h1 = h2 = (6, 6): add -> (12, 12), multiply -> (36, 36), sum -> 96.
  EXPECT_NEAR(model(x).item<float>(), 96.0f, 1e-4);
  GradientTape tape;
  Tensor loss = ops::sum(model(x));
  Tensor g = tape.gradient(loss, d1->kernel_variable().value());
  ASSERT_TRUE(g.defined());
  // d/dk1[i][j] = x_i * (1 + h2_j) = x_i * 7.
  EXPECT_TENSOR_NEAR(g, make({7, 7, 14, 14, 21, 21}, {3, 2}), 1e-5, 1e-5);
}

TEST(Reshaping, SequentialImageModel) {
  auto model = Sequential({Input({4, 4, 1}), layers::ZeroPadding2D(1), layers::Cropping2D(1),
                           layers::UpSampling2D(2), layers::Flatten(), layers::RepeatVector(2),
                           layers::Permute({2, 1}), layers::Reshape({-1})});
  Tensor x = iota({2, 4, 4, 1});
  Tensor y = model(x);
  EXPECT_EQ(y.shape(), Shape({2, 128}));
  // Zero padding then cropping by one is the identity; nearest upsampling repeats pixels
  // (0, 0, 1, 1, ...), and RepeatVector + Permute interleave two copies of that.
  EXPECT_EQ(ops::slice(y, {0, 0}, {1, 8}).to_vector<float>(),
            (std::vector<float>{0, 0, 0, 0, 1, 1, 1, 1}));
  std::string table = model->summary_string();
  EXPECT_NE(table.find("up_sampling2d"), std::string::npos) << table;
  EXPECT_NE(table.find("(None, 128)"), std::string::npos) << table;
}

TEST(Reshaping, ChannelsFirstFlattenMatchesChannelsLast) {
  // Flatten(channels_first) flattens in channels_last order.
  Tensor cl = iota({2, 3, 4, 5});
  Tensor cf = ops::transpose(cl, {0, 3, 1, 2});
  EXPECT_TENSOR_EQ(layers::Flatten({.data_format = "channels_first"})(cf),
                   layers::Flatten()(cl));
}

TEST(Reshaping, BilinearUpsamplingClosedForm) {
  // One row (0, 1) enlarged twice: samples at -0.25, 0.25, 0.75, 1.25 -> clamp, 0.25, 0.75,
  // clamp (half-pixel centers).
  Tensor x = make({0, 1}, {1, 1, 2, 1});
  Tensor y = layers::UpSampling2D({1, 2}, {.interpolation = "bilinear"})(x);
  EXPECT_TENSOR_NEAR(y, make({0, 0.25, 0.75, 1}, {1, 1, 4, 1}), 1e-7, 1e-7);
  // Constant images stay constant.
  Tensor c = ops::full({1, 3, 2, 2}, 2.5);
  EXPECT_TENSOR_NEAR(layers::UpSampling2D(3, {.interpolation = "bilinear"})(c),
                     ops::full({1, 9, 6, 2}, 2.5), 1e-6, 1e-6);
}

// ---- bad inputs ------------------------------------------------------------------------------

// Runs `f`, expecting a ValueError whose message contains every one of `parts`.
template <typename F>
void expect_value_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no ValueError";
  } catch (const ValueError& e) {
    for (const auto& p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
  }
}

TEST(MergingErrors, BadInputsAreNamed) {
  Tensor a = ops::ones({2, 3}), b = ops::ones({2, 4}), c = ops::ones({3, 3});
  expect_value_error([&] { layers::Add({.name = "plus"})(TensorList{a, b}); },
                     {"plus", "incompatible shapes", "(3,)", "(4,)"});
  expect_value_error([&] { layers::add({a, c}); }, {"different batch sizes", "(2, 3)", "(3, 3)"});
  expect_value_error([&] { layers::subtract({a, a, a}); }, {"exactly 2 inputs"});
  expect_value_error([&] { layers::Add()(a); }, {"list of inputs"});
  auto built = layers::Maximum();
  built(TensorList{a, a});
  expect_value_error([&] { built(a); }, {"list of inputs"});
  expect_value_error([&] { layers::concatenate({a, ops::ones({2, 3, 1})}); },
                     {"Concatenate", "matching shapes", "(2, 3, 1)"});
  expect_value_error([&] { layers::concatenate({a, c}); }, {"matching shapes"});
  expect_value_error([&] { layers::concatenate({a, a}, 2); }, {"out of range"});
  expect_value_error([&] { layers::dot({a, b}, 1); }, {"Dot", "3", "4"});
  expect_value_error([&] { layers::dot({a, a, a}, 1); }, {"2 inputs"});
  expect_value_error([&] { layers::dot({a, a}, 0); }, {"axis 0"});
  expect_value_error([&] { layers::Dot({1, 2, 3}); }, {"two elements"});
  expect_value_error([&] { layers::dot({a, a}, 5); }, {"out of range"});
  // Symbolic calls check the same way.
  expect_value_error([&] { layers::add({Input({3}), Input({4})}); }, {"incompatible shapes"});
  expect_value_error([&] { layers::dot({Input({3}), Input({4})}, -1); }, {"Dot"});
}

TEST(ReshapingErrors, BadArgumentsAreNamed) {
  expect_value_error([] { layers::Reshape({-1, -1}); }, {"at most one unknown"});
  expect_value_error([] { layers::Reshape({-2, 3}); }, {"non-negative"});
  expect_value_error([] { layers::Permute({1, 3}); }, {"dims=(1, 3)"});
  expect_value_error([] { layers::Permute({0, 1}); }, {"start from 1"});
  expect_value_error([] { layers::RepeatVector(0); }, {"n=0"});
  expect_value_error([] { layers::Cropping1D({-1, 2}); }, {"cropping"});
  expect_value_error([] { layers::Cropping2D(-1); }, {"cannot be negative"});
  expect_value_error([] { layers::Cropping2D({1, 2, 3}); }, {"2 elements"});
  expect_value_error([] { layers::Cropping3D({{1, 1}, {1, -1}, 0}); }, {"2nd entry of cropping"});
  expect_value_error([] { layers::ZeroPadding2D({{1, 1}}); }, {"2 elements"});
  expect_value_error([] { layers::ZeroPadding1D(-2); }, {"padding"});
  expect_value_error([] { layers::UpSampling1D(0); }, {"size=0"});
  expect_value_error([] { layers::UpSampling2D({2, 0}); }, {"size", "> 0"});
  expect_value_error([] { layers::UpSampling3D({2, 2}); }, {"size", "3 integers"});
  expect_value_error([] { layers::UpSampling2D(2, {.interpolation = "bicubic"}); },
                     {"bicubic", "nearest", "bilinear"});
  expect_value_error([] { layers::Flatten({.data_format = "channels_middle"}); },
                     {"channels_middle"});
}

TEST(ReshapingErrors, BadInputsAreNamed) {
  expect_value_error([] { layers::Reshape({5}, {.name = "rs"})(ops::ones({2, 6})); },
                     {"rs", "(2, 6)", "(5,)"});
  expect_value_error([] { layers::Reshape({-1, 4})(ops::ones({2, 6})); }, {"cannot be divided"});
  expect_value_error([] { layers::Permute({2, 1})(ops::ones({2, 3})); },
                     {"expected ndim=3", "found ndim=2"});
  expect_value_error([] { layers::RepeatVector(2)(ops::ones({2, 3, 4})); },
                     {"expected ndim=2", "(2, 3, 4)"});
  expect_value_error([] { layers::Cropping1D({2, 2})(ops::ones({1, 4, 2})); },
                     {"cropping", "(1, 4, 2)"});
  expect_value_error([] { layers::Cropping2D({{1, 1}, {2, 2}})(ops::ones({1, 5, 4, 1})); },
                     {"smaller than"});
  expect_value_error([] { layers::Cropping3D()(ops::ones({1, 3, 3, 2, 1})); }, {"smaller than"});
  expect_value_error([] { layers::ZeroPadding2D()(ops::ones({2, 3, 3})); }, {"expected ndim=4"});
  expect_value_error([] { layers::UpSampling3D()(ops::ones({2, 3, 3, 1})); }, {"expected ndim=5"});
  expect_value_error([] { layers::Flatten()(Tensor(1.0f)); }, {"min_ndim=1"});
  // Symbolic calls check the same way.
  expect_value_error([] { layers::Cropping1D(3)(Input({5, 2})); }, {"smaller than"});
  expect_value_error([] { layers::RepeatVector(2)(Input({2, 3})); }, {"expected ndim=2"});
}

}  // namespace
}  // namespace keras

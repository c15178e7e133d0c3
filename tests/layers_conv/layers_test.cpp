// The convolution and pooling layers beyond the PyTorch fixtures: symbolic shapes against the
// eager ones and against Keras's output-size formulas ("same", "causal", transposed), weights
// (names, Keras layouts, order), configs (round trips, a config Keras 3.10 wrote), masks,
// causality, and bad arguments and inputs.

#include <gtest/gtest.h>

#include <functional>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

// ---- every layer, with a sample input --------------------------------------------------------

struct Sample {
  std::string class_name;
  std::function<std::shared_ptr<Layer>()> make;
  Shape input;  // without the batch axis
};

std::vector<Sample> samples() {
  using namespace layers;  // NOLINT
  const std::string cf = "channels_first";
  return {
      {"Conv1D",
       [] { return Conv1D(4, 3, {.padding = "causal", .dilation_rate = 2, .activation = "relu"}); },
       {9, 2}},
      {"Conv1D",
       [] { return Convolution1D(4, 3, {.strides = 2, .padding = "same", .groups = 2}); },
       {9, 4}},
      {"Conv2D",
       [] {
         return Conv2D(3, {3, 2},
                       {.strides = {2, 1},
                        .padding = "same",
                        .kernel_initializer = initializers::HeNormal(3),
                        .kernel_regularizer = "l2",
                        .bias_constraint = "non_neg"});
       },
       {7, 6, 2}},
      {"Conv2D",
       [cf] { return Convolution2D(4, 2, {.data_format = cf, .dilation_rate = 2}); },
       {3, 7, 6}},
      {"Conv3D", [] { return Conv3D(2, 2, {.use_bias = false}); }, {4, 3, 5, 2}},
      {"Conv3D",
       [cf] {
         return Convolution3D(2, {2, 1, 2}, {.strides = 2, .padding = "same", .data_format = cf});
       },
       {2, 5, 4, 3}},
      {"Conv1DTranspose",
       [] { return Conv1DTranspose(3, 3, {.strides = 2, .padding = "same"}); },
       {5, 2}},
      {"Conv1DTranspose",
       [cf] { return Convolution1DTranspose(3, 2, {.strides = 3, .data_format = cf}); },
       {2, 4}},
      {"Conv2DTranspose",
       [] {
         return Conv2DTranspose(
             2, 3, {.strides = {{2, 3}}, .output_padding = {{1, 2}}, .activation = "tanh"});
       },
       {3, 4, 2}},
      {"Conv2DTranspose",
       [cf] {
         return Convolution2DTranspose(2, 3,
                                       {.padding = "same", .data_format = cf, .dilation_rate = 2});
       },
       {2, 4, 5}},
      {"Conv3DTranspose", [] { return Conv3DTranspose(2, 2, {.strides = 2}); }, {2, 3, 2, 2}},
      {"Conv3DTranspose",
       [cf] {
         return Convolution3DTranspose(
             2, 3, {.strides = {{1, 2, 2}}, .padding = "same", .data_format = cf});
       },
       {2, 2, 3, 3}},
      {"DepthwiseConv1D",
       [] { return DepthwiseConv1D(3, {.strides = 2, .padding = "same", .depth_multiplier = 2}); },
       {7, 3}},
      {"DepthwiseConv1D",
       [cf] { return DepthwiseConv1D(2, {.data_format = cf, .depthwise_regularizer = "l1"}); },
       {3, 7}},
      {"DepthwiseConv2D",
       [] { return DepthwiseConv2D(3, {.depth_multiplier = 3, .activation = "relu"}); },
       {6, 5, 2}},
      {"DepthwiseConv2D",
       [cf] {
         return DepthwiseConv2D({2, 3}, {.strides = 2, .data_format = cf, .dilation_rate = 2});
       },
       {2, 9, 8}},
      {"SeparableConv1D",
       [] { return SeparableConv1D(4, 3, {.padding = "same", .depth_multiplier = 2}); },
       {8, 3}},
      {"SeparableConv1D",
       [cf] {
         return SeparableConvolution1D(2, 2, {.strides = 2, .data_format = cf, .use_bias = false});
       },
       {3, 8}},
      {"SeparableConv2D",
       [] {
         return SeparableConv2D(
             4, 3, {.pointwise_initializer = "ones", .pointwise_constraint = "max_norm"});
       },
       {6, 6, 2}},
      {"SeparableConv2D",
       [cf] {
         return SeparableConvolution2D(3, 2,
                                       {.padding = "same", .data_format = cf, .dilation_rate = 2});
       },
       {2, 5, 6}},
      {"MaxPooling1D", [] { return MaxPooling1D(); }, {9, 3}},
      {"MaxPooling1D",
       [cf] { return MaxPool1D(3, {.strides = 2, .padding = "same", .data_format = cf}); },
       {3, 8}},
      {"MaxPooling2D",
       [] {
         return MaxPooling2D({3, 2}, {.strides = 1});
       },
       {6, 5, 2}},
      {"MaxPooling2D",
       [cf] { return MaxPool2D(2, {.padding = "same", .data_format = cf}); },
       {2, 5, 7}},
      {"MaxPooling3D", [] { return MaxPooling3D(); }, {4, 5, 4, 2}},
      {"MaxPooling3D",
       [cf] {
         return MaxPool3D(2, {.strides = {{1, 2, 2}}, .padding = "same", .data_format = cf});
       },
       {2, 3, 5, 4}},
      {"AveragePooling1D", [] { return AveragePooling1D(2, {.strides = 1}); }, {7, 3}},
      {"AveragePooling1D",
       [cf] { return AvgPool1D(3, {.padding = "same", .data_format = cf}); },
       {3, 8}},
      {"AveragePooling2D", [] { return AveragePooling2D(2, {.padding = "same"}); }, {5, 5, 2}},
      {"AveragePooling2D",
       [cf] {
         return AvgPool2D({2, 3}, {.data_format = cf});
       },
       {2, 6, 7}},
      {"AveragePooling3D", [] { return AveragePooling3D(2); }, {4, 4, 4, 2}},
      {"AveragePooling3D",
       [cf] { return AvgPool3D(3, {.strides = 2, .padding = "same", .data_format = cf}); },
       {2, 5, 4, 3}},
      {"GlobalMaxPooling1D", [] { return GlobalMaxPooling1D(); }, {6, 3}},
      {"GlobalMaxPooling1D",
       [cf] { return GlobalMaxPool1D({.data_format = cf, .keepdims = true}); },
       {3, 6}},
      {"GlobalMaxPooling2D", [] { return GlobalMaxPooling2D({.keepdims = true}); }, {4, 5, 3}},
      {"GlobalMaxPooling2D", [cf] { return GlobalMaxPool2D({.data_format = cf}); }, {3, 4, 5}},
      {"GlobalMaxPooling3D", [] { return GlobalMaxPooling3D(); }, {2, 3, 4, 3}},
      {"GlobalMaxPooling3D",
       [cf] { return GlobalMaxPool3D({.data_format = cf, .keepdims = true}); },
       {3, 2, 3, 4}},
      {"GlobalAveragePooling1D", [] { return GlobalAveragePooling1D(); }, {6, 3}},
      {"GlobalAveragePooling1D",
       [cf] { return GlobalAvgPool1D({.data_format = cf, .keepdims = true}); },
       {3, 6}},
      {"GlobalAveragePooling2D",
       [] { return GlobalAveragePooling2D({.keepdims = true}); },
       {4, 5, 3}},
      {"GlobalAveragePooling2D", [cf] { return GlobalAvgPool2D({.data_format = cf}); }, {3, 4, 5}},
      {"GlobalAveragePooling3D", [] { return GlobalAveragePooling3D(); }, {2, 3, 4, 3}},
      {"GlobalAveragePooling3D",
       [cf] { return GlobalAvgPool3D({.data_format = cf, .keepdims = true}); },
       {3, 2, 3, 4}},
      {"AdaptiveAveragePooling1D", [] { return AdaptiveAveragePooling1D(4); }, {10, 3}},
      {"AdaptiveAveragePooling1D",
       [cf] { return AdaptiveAveragePooling1D({3}, {.data_format = cf}); },
       {3, 7}},
      {"AdaptiveAveragePooling2D",
       [] {
         return AdaptiveAveragePooling2D({3, 2});
       },
       {7, 5, 2}},
      {"AdaptiveAveragePooling2D",
       [cf] { return AdaptiveAveragePooling2D(5, {.data_format = cf}); },
       {2, 3, 4}},
      {"AdaptiveAveragePooling3D",
       [] {
         return AdaptiveAveragePooling3D({2, 3, 2});
       },
       {5, 4, 6, 2}},
      {"AdaptiveAveragePooling3D",
       [cf] { return AdaptiveAveragePooling3D(2, {.data_format = cf}); },
       {2, 5, 4, 3}},
      {"AdaptiveMaxPooling1D", [] { return AdaptiveMaxPooling1D(4); }, {10, 3}},
      {"AdaptiveMaxPooling1D",
       [cf] { return AdaptiveMaxPooling1D(3, {.data_format = cf}); },
       {3, 7}},
      {"AdaptiveMaxPooling2D",
       [] {
         return AdaptiveMaxPooling2D({3, 2});
       },
       {7, 5, 2}},
      {"AdaptiveMaxPooling2D",
       [cf] { return AdaptiveMaxPooling2D(5, {.data_format = cf}); },
       {2, 3, 4}},
      {"AdaptiveMaxPooling3D",
       [] {
         return AdaptiveMaxPooling3D({2, 3, 2});
       },
       {5, 4, 6, 2}},
      {"AdaptiveMaxPooling3D",
       [cf] { return AdaptiveMaxPooling3D(2, {.data_format = cf}); },
       {2, 5, 4, 3}},
  };
}

Shape with_batch(int64_t batch, const Shape& s) {
  Shape out{batch};
  for (int64_t d : s) out.push_back(d);
  return out;
}

TEST(ConvLayers, EveryClassIsSampledAndRegistered) {
  std::set<std::string> sampled;
  for (const Sample& s : samples()) sampled.insert(s.class_name);
  EXPECT_EQ(sampled.size(), 28u);
  auto registered = layers::registered_layers();
  for (const std::string& c : sampled)
    EXPECT_NE(std::find(registered.begin(), registered.end(), c), registered.end()) << c;
}

TEST(ConvLayers, SymbolicShapesMatchEagerShapes) {
  for (const Sample& s : samples()) {
    SCOPED_TRACE(s.class_name);
    auto layer = s.make();
    EXPECT_EQ(layer->class_name(), s.class_name);
    KerasTensor out = (*layer)(Input(s.input));
    Tensor y = (*layer)(random::normal(with_batch(2, s.input), 0, 1, std::nullopt, 7));
    EXPECT_EQ(out.shape(), with_batch(-1, Shape(y.shape().begin() + 1, y.shape().end())));
    EXPECT_EQ(out.shape()[0], -1);
    EXPECT_EQ(out.dtype(), y.dtype());
  }
}

TEST(ConvLayers, UnknownSpatialDimensionsStayUnknown) {
  // Input(None, None, C): the channel axis is known, the spatial ones are not.
  for (const Sample& s : samples()) {
    SCOPED_TRACE(s.class_name);
    auto layer = s.make();
    const bool channels_first = layer->get_config()["data_format"] == "channels_first";
    Shape in = s.input;
    for (int i = 0; i < in.rank(); ++i)
      if (channels_first ? i > 0 : i < in.rank() - 1) in[i] = -1;
    KerasTensor out = (*layer)(Input(in));
    const bool global = s.class_name.rfind("Global", 0) == 0;
    const bool adaptive = s.class_name.rfind("Adaptive", 0) == 0;
    for (int i = 1; i < out.shape().rank(); ++i) {
      const bool channel_axis = channels_first ? i == 1 : i == out.shape().rank() - 1;
      if (channel_axis || global || adaptive)
        EXPECT_GT(out.shape()[i], 0) << i;
      else
        EXPECT_EQ(out.shape()[i], -1) << i;
    }
  }
}

// ---- output sizes against Keras's formulas ---------------------------------------------------

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

TEST(ConvShapes, ValidSameAndCausalArithmetic) {
  for (int64_t n : {5, 6, 7, 10, 13})
    for (int64_t k : {1, 2, 3, 4})
      for (int64_t s : {1, 2, 3}) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " k=" << k << " s=" << s);
        auto valid = layers::Conv1D(2, k, {.strides = s});
        auto same = layers::Conv1D(2, k, {.strides = s, .padding = "SAME"});
        auto causal = layers::Conv1D(2, k, {.strides = s, .padding = "causal"});
        EXPECT_EQ(valid(Input({n, 3})).shape(), Shape({-1, (n - k) / s + 1, 2}));
        EXPECT_EQ(same(Input({n, 3})).shape(), Shape({-1, ceil_div(n, s), 2}));
        EXPECT_EQ(causal(Input({n, 3})).shape(), Shape({-1, ceil_div(n, s), 2}));
        // dilation (stride 1): the window spans d * (k - 1) + 1 steps
        auto dilated = layers::Conv1D(2, k, {.dilation_rate = 2});
        if (n - 2 * (k - 1) > 0) {
          EXPECT_EQ(dilated(Input({n, 3})).shape(), Shape({-1, n - 2 * (k - 1), 2}));
        }
        auto dilated_causal = layers::Conv1D(2, k, {.padding = "causal", .dilation_rate = 2});
        EXPECT_EQ(dilated_causal(Input({n, 3})).shape(), Shape({-1, n, 2}));
        // pooling: same arithmetic without dilation
        if (n >= k) {
          EXPECT_EQ(layers::MaxPooling1D(k, {.strides = s})(Input({n, 3})).shape(),
                    Shape({-1, (n - k) / s + 1, 3}));
        }
        EXPECT_EQ(
            layers::AveragePooling1D(k, {.strides = s, .padding = "same"})(Input({n, 3})).shape(),
            Shape({-1, ceil_div(n, s), 3}));
      }
}

TEST(ConvShapes, TransposeArithmetic) {
  // Keras's compute_conv_transpose_output_shape.
  for (int64_t n : {1, 3, 4})
    for (int64_t k : {1, 2, 3, 5})
      for (int64_t s : {1, 2, 3}) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " k=" << k << " s=" << s);
        auto valid = layers::Conv1DTranspose(2, k, {.strides = s});
        EXPECT_EQ(valid(Input({n, 3})).shape(), Shape({-1, (n - 1) * s + std::max(k, s), 2}));
        auto same = layers::Conv1DTranspose(2, k, {.strides = s, .padding = "same"});
        EXPECT_EQ(same(Input({n, 3})).shape(), Shape({-1, n * s, 2}));
        for (int64_t op = 0; op < s; ++op) {
          auto vo = layers::Conv1DTranspose(2, k, {.strides = s, .output_padding = op});
          EXPECT_EQ(vo(Input({n, 3})).shape(), Shape({-1, (n - 1) * s + k + op, 2}));
          auto so = layers::Conv1DTranspose(
              2, k, {.strides = s, .padding = "same", .output_padding = op});
          EXPECT_EQ(so(Input({n, 3})).shape(), Shape({-1, (n - 1) * s + k % 2 + op, 2}));
        }
      }
}

TEST(ConvShapes, CnnStackMatchesKeras) {
  // The fashion_mnist_cnn.keras stack (Keras 3.10): its saved build_config has (None, 13, 13,
  // 32) for the second Conv2D; Keras's summary has 320 and 18,496 parameters for the convs.
  auto model = Sequential({Input({28, 28, 1}), layers::Conv2D(32, 3, {.activation = "relu"}),
                           layers::MaxPooling2D(2), layers::Conv2D(64, 3, {.activation = "relu"}),
                           layers::MaxPooling2D(2), layers::GlobalAveragePooling2D()});
  auto ls = model->layers();
  EXPECT_EQ(ls[0]->count_params(), 320);
  EXPECT_EQ(ls[2]->count_params(), 18496);
  EXPECT_EQ(ls[2]->build_input_shapes().at(0), Shape({-1, 13, 13, 32}));
  EXPECT_EQ(model->layer_output_shape(*ls[3]), "(None, 5, 5, 64)");
  EXPECT_EQ(model->layer_output_shape(*ls[4]), "(None, 64)");
  EXPECT_EQ(model(ops::zeros({2, 28, 28, 1})).shape(), Shape({2, 64}));
}

// ---- weights ---------------------------------------------------------------------------------

TEST(ConvWeights, NamesShapesAndOrderAreKeras) {
  backend::clear_session();
  auto c = layers::Conv2D(5, {3, 2});
  c(ops::zeros({1, 6, 6, 4}));
  EXPECT_EQ(c->kernel().shape(), Shape({3, 2, 4, 5}));
  EXPECT_EQ(c->name(), "conv2d");
  ASSERT_EQ(c->weights().size(), 2u);
  EXPECT_EQ(c->weights()[0].path(), "conv2d/kernel");
  EXPECT_EQ(c->weights()[1].path(), "conv2d/bias");
  EXPECT_THROW(layers::Conv2D(5, 3, {.groups = 2}), ValueError);  // 5 filters, 2 groups

  auto g = layers::Conv2D(6, {3, 2}, {.groups = 2});
  g(ops::zeros({1, 6, 6, 4}));
  EXPECT_EQ(g->kernel().shape(), Shape({3, 2, 2, 6}));
  EXPECT_EQ(g->bias().shape(), Shape({6}));

  auto t = layers::Conv2DTranspose(5, 3);
  t(ops::zeros({1, 4, 4, 2}));
  EXPECT_EQ(t->name(), "conv2d_transpose");
  EXPECT_EQ(t->kernel().shape(), Shape({3, 3, 5, 2}));  // (*k, out, in)

  auto d = layers::DepthwiseConv2D(3, {.depth_multiplier = 2, .data_format = "channels_first"});
  d(ops::zeros({1, 3, 5, 5}));
  EXPECT_EQ(d->name(), "depthwise_conv2d");
  ASSERT_EQ(d->weights().size(), 2u);
  EXPECT_EQ(d->weights()[0].path(), "depthwise_conv2d/kernel");
  EXPECT_EQ(d->kernel().shape(), Shape({3, 3, 3, 2}));
  EXPECT_EQ(d->bias().shape(), Shape({6}));

  auto s = layers::SeparableConv1D(4, 3, {.depth_multiplier = 2});
  s(ops::zeros({1, 6, 3}));
  EXPECT_EQ(s->name(), "separable_conv1d");
  ASSERT_EQ(s->weights().size(), 3u);
  EXPECT_EQ(s->weights()[0].path(), "separable_conv1d/depthwise_kernel");
  EXPECT_EQ(s->weights()[1].path(), "separable_conv1d/pointwise_kernel");
  EXPECT_EQ(s->weights()[2].path(), "separable_conv1d/bias");
  EXPECT_EQ(s->depthwise_kernel().shape(), Shape({3, 3, 2}));
  EXPECT_EQ(s->pointwise_kernel().shape(), Shape({1, 6, 4}));

  auto nb = layers::Conv3D(2, 2, {.use_bias = false});
  nb(ops::zeros({1, 3, 3, 3, 1}));
  EXPECT_EQ(nb->weights().size(), 1u);
  EXPECT_EQ(nb->count_params(), 16);

  EXPECT_EQ(layers::MaxPooling2D()->name(), "max_pooling2d");
  EXPECT_EQ(layers::GlobalAveragePooling1D()->name(), "global_average_pooling1d");
  EXPECT_EQ(layers::AdaptiveMaxPooling2D(2)->name(), "adaptive_max_pooling2d");
  auto p = layers::AveragePooling3D(2);
  p(ops::zeros({1, 2, 2, 2, 1}));
  EXPECT_TRUE(p->weights().empty());
}

TEST(ConvWeights, InitializersAndRegularizersApply) {
  auto c = layers::Conv1D(3, 2,
                          {.kernel_initializer = "ones",
                           .bias_initializer = "ones",
                           .kernel_regularizer = std::make_shared<regularizers::L2>(0.5)});
  // kernel all ones, bias one: each output = 1 + sum of the window's inputs
  Tensor x = make({1, 2, 3, 4, 5, 6}, {1, 3, 2});
  EXPECT_TENSOR_NEAR(c(x), make({11, 11, 11, 19, 19, 19}, {1, 2, 3}), 1e-6, 0);
  auto losses = c->losses();
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_NEAR(ops::cast(losses[0], DType::Float64).item<double>(), 0.5 * 12,
              1e-5);  // 12 ones squared
}

// ---- configs ---------------------------------------------------------------------------------

TEST(ConvConfig, EveryLayerRoundTrips) {
  for (const Sample& s : samples()) {
    SCOPED_TRACE(s.class_name);
    auto layer = s.make();
    Config c = layer->get_config();
    auto again = layers::from_config(s.class_name, c);
    EXPECT_EQ(again->class_name(), s.class_name);
    EXPECT_EQ(again->get_config(), c);
    auto record = layers::serialize(*layer);
    EXPECT_EQ(record["class_name"], s.class_name);
    auto copy = layers::deserialize(record);
    EXPECT_EQ(copy->get_config(), c);
    // The copy computes the same shapes.
    EXPECT_EQ((*copy)(Input(s.input)).shape(), (*layer)(Input(s.input)).shape());
  }
}

TEST(ConvConfig, KeysAreThoseKeras315Writes) {
  auto keys = [](const Config& c) {
    std::set<std::string> k;
    for (auto it = c.begin(); it != c.end(); ++it) k.insert(it.key());
    return k;
  };
  const std::set<std::string> base{"name", "trainable", "dtype"};
  auto with_base = [&](std::set<std::string> k) {
    k.insert(base.begin(), base.end());
    return k;
  };
  EXPECT_EQ(keys(layers::Conv2D(2, 3)->get_config()),
            with_base({"filters", "kernel_size", "strides", "padding", "data_format",
                       "dilation_rate", "groups", "activation", "use_bias", "kernel_initializer",
                       "bias_initializer", "kernel_regularizer", "bias_regularizer",
                       "activity_regularizer", "kernel_constraint", "bias_constraint"}));
  // output_padding: an argument from Keras 3.11, saved (null when unset) from 3.15.
  EXPECT_EQ(keys(layers::Conv2DTranspose(2, 3)->get_config()),
            with_base({"filters", "kernel_size", "strides", "padding", "data_format",
                       "dilation_rate", "activation", "use_bias", "kernel_initializer",
                       "bias_initializer", "kernel_regularizer", "bias_regularizer",
                       "activity_regularizer", "kernel_constraint", "bias_constraint",
                       "output_padding"}));
  EXPECT_EQ(layers::Conv2DTranspose(2, 3, {.strides = 2, .output_padding = 1})
                ->get_config()["output_padding"],
            Config::parse("[1, 1]"));
  EXPECT_EQ(keys(layers::DepthwiseConv1D(3)->get_config()),
            with_base({"depth_multiplier", "kernel_size", "strides", "padding", "data_format",
                       "dilation_rate", "activation", "use_bias", "depthwise_initializer",
                       "bias_initializer", "depthwise_regularizer", "bias_regularizer",
                       "activity_regularizer", "depthwise_constraint", "bias_constraint"}));
  EXPECT_EQ(
      keys(layers::SeparableConv2D(2, 3)->get_config()),
      with_base({"depth_multiplier", "filters", "kernel_size", "strides", "padding", "data_format",
                 "dilation_rate", "activation", "use_bias", "depthwise_initializer",
                 "pointwise_initializer", "bias_initializer", "depthwise_regularizer",
                 "pointwise_regularizer", "bias_regularizer", "activity_regularizer",
                 "depthwise_constraint", "pointwise_constraint", "bias_constraint"}));
  EXPECT_EQ(keys(layers::MaxPooling3D()->get_config()),
            with_base({"pool_size", "padding", "strides", "data_format"}));
  EXPECT_EQ(keys(layers::GlobalMaxPooling2D()->get_config()),
            with_base({"data_format", "keepdims"}));
  EXPECT_EQ(keys(layers::AdaptiveAveragePooling2D(3)->get_config()),
            with_base({"output_size", "data_format"}));
  // Defaults as Keras standardizes them.
  Config c = layers::AveragePooling2D({3, 2})->get_config();
  EXPECT_EQ(c["pool_size"], Config::parse("[3, 2]"));
  EXPECT_EQ(c["strides"], Config::parse("[3, 2]"));  // strides default to pool_size
  EXPECT_EQ(c["padding"], "valid");
  EXPECT_EQ(c["data_format"], "channels_last");
  EXPECT_EQ(layers::MaxPooling1D()->get_config()["pool_size"], Config::parse("[2]"));
  Config d = layers::Conv1D(2, 3, {.padding = "Causal"})->get_config();
  EXPECT_EQ(d["padding"], "causal");
  EXPECT_EQ(d["kernel_size"], Config::parse("[3]"));
  EXPECT_EQ(d["activation"], "linear");
  EXPECT_TRUE(d["kernel_regularizer"].is_null());
  EXPECT_TRUE(d["activity_regularizer"].is_null());
  EXPECT_EQ(d["kernel_initializer"]["class_name"], "GlorotUniform");
  EXPECT_EQ(d["bias_initializer"]["class_name"], "Zeros");
}

TEST(ConvConfig, ReadsWhatKeras310Wrote) {
  // The first Conv2D and MaxPooling2D of fashion_mnist_cnn.keras (written by Keras 3.10.0).
  const Config conv = Config::parse(R"({"name": "conv2d", "trainable": true, "dtype": {"module":
    "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": null},
    "filters": 32, "kernel_size": [3, 3], "strides": [1, 1], "padding": "valid", "data_format":
    "channels_last", "dilation_rate": [1, 1], "groups": 1, "activation": "relu", "use_bias": true,
    "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform",
    "config": {"seed": null}, "registered_name": null}, "bias_initializer": {"module":
    "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": null},
    "kernel_regularizer": null, "bias_regularizer": null, "activity_regularizer": null,
    "kernel_constraint": null, "bias_constraint": null})");
  auto layer = layers::deserialize({{"module", "keras.layers"},
                                    {"class_name", "Conv2D"},
                                    {"config", conv},
                                    {"registered_name", nullptr}});
  // Written back in the 3.15 dialect: the same, plus the initializer's fan axes.
  Config written = conv;
  written["kernel_initializer"]["config"]["input_axes"] = nullptr;
  written["kernel_initializer"]["config"]["output_axes"] = nullptr;
  EXPECT_EQ(layer->get_config(), written);
  const Config pool = Config::parse(R"({"name": "max_pooling2d", "trainable": true, "dtype":
    {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
    "registered_name": null}, "pool_size": [2, 2], "padding": "valid", "strides": [2, 2],
    "data_format": "channels_last"})");
  EXPECT_EQ(layers::from_config("MaxPooling2D", pool)->get_config(), pool);
  // Newer optional keys: output_padding null (3.15+), lora_rank (3.6+; the saved kernel is
  // already merged).
  Config t = layers::Conv2DTranspose(2, 3)->get_config();
  t.erase("output_padding");  // as 3.10 wrote it
  EXPECT_TRUE(layers::from_config("Conv2DTranspose", t)->get_config()["output_padding"].is_null());
  Config l = conv;
  l["lora_rank"] = 4;
  EXPECT_NO_THROW(layers::from_config("Conv2D", l));
}

// keras.layers exports the aliases, so Keras's deserialize resolves them to the same classes.
TEST(ConvConfig, AliasClassNamesDeserialize) {
  const std::vector<std::pair<std::string, std::string>> aliases = {
      {"Convolution1D", "Conv1D"},
      {"Convolution2D", "Conv2D"},
      {"Convolution3D", "Conv3D"},
      {"Convolution1DTranspose", "Conv1DTranspose"},
      {"Convolution2DTranspose", "Conv2DTranspose"},
      {"Convolution3DTranspose", "Conv3DTranspose"},
      {"SeparableConvolution1D", "SeparableConv1D"},
      {"SeparableConvolution2D", "SeparableConv2D"},
      {"MaxPool1D", "MaxPooling1D"},
      {"MaxPool2D", "MaxPooling2D"},
      {"MaxPool3D", "MaxPooling3D"},
      {"AvgPool1D", "AveragePooling1D"},
      {"AvgPool2D", "AveragePooling2D"},
      {"AvgPool3D", "AveragePooling3D"},
      {"GlobalMaxPool1D", "GlobalMaxPooling1D"},
      {"GlobalMaxPool2D", "GlobalMaxPooling2D"},
      {"GlobalMaxPool3D", "GlobalMaxPooling3D"},
      {"GlobalAvgPool1D", "GlobalAveragePooling1D"},
      {"GlobalAvgPool2D", "GlobalAveragePooling2D"},
      {"GlobalAvgPool3D", "GlobalAveragePooling3D"}};
  for (const auto& [alias, cls] : aliases) {
    SCOPED_TRACE(alias);
    std::shared_ptr<Layer> canonical;
    for (const Sample& s : samples())
      if (s.class_name == cls) {
        canonical = s.make();
        break;
      }
    ASSERT_TRUE(canonical);
    const Config config = canonical->get_config();
    auto layer = layers::deserialize({{"module", "keras.layers"},
                                      {"class_name", alias},
                                      {"config", config},
                                      {"registered_name", nullptr}});
    EXPECT_EQ(layer->class_name(), cls);
    EXPECT_EQ(layer->get_config(), config);
  }
}

TEST(ConvConfig, DataFormatDefaultsToTheGlobalSetting) {
  config::set_image_data_format("channels_first");
  auto c = layers::Conv2D(2, 3);
  auto p = layers::GlobalMaxPooling2D();
  config::set_image_data_format("channels_last");
  EXPECT_EQ(c->get_config()["data_format"], "channels_first");
  EXPECT_EQ(p->get_config()["data_format"], "channels_first");
  EXPECT_EQ(c(ops::zeros({1, 4, 5, 6})).shape(), Shape({1, 2, 3, 4}));
  EXPECT_EQ(layers::Conv2D(2, 3)->get_config()["data_format"], "channels_last");
}

// ---- behaviour -------------------------------------------------------------------------------

TEST(ConvBehaviour, CausalConvolutionSeesOnlyThePast) {
  auto c = layers::Conv1D(2, 3, {.padding = "causal", .dilation_rate = 2});
  Tensor x = random::normal({1, 10, 2}, 0, 1, std::nullopt, 3);
  Tensor y = c(x);
  // Changing step 6 leaves outputs 0..5 unchanged and changes output 6.
  std::vector<float> v = x.to_vector<float>();
  v[6 * 2] += 1.0f;
  v[6 * 2 + 1] -= 2.0f;
  Tensor y2 = c(ops::convert_to_tensor(v, {1, 10, 2}));
  auto a = y.to_vector<float>(), b = y2.to_vector<float>();
  for (int t = 0; t < 6; ++t)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(a[t * 2 + j], b[t * 2 + j]) << t;
  EXPECT_NE(a[12], b[12]);
}

TEST(ConvBehaviour, GlobalAveragePooling1DUsesAndConsumesMasks) {
  // A layer that masks zero steps (as Masking does), then the pooling.
  class MaskZeroSteps : public Layer {
   public:
    MaskZeroSteps() { set_supports_masking(true); }
    Tensor call(const Tensor& x, const CallContext&) override { return x; }
    Tensor compute_mask(const Tensor& x, const Tensor&) const override {
      return ops::any(ops::not_equal(x, 0.0), -1);
    }
  };
  Tensor x = make({1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 9}, {2, 3, 2});
  auto masking = make_layer<MaskZeroSteps>();
  auto pool = layers::GlobalAveragePooling1D();
  Tensor y = pool(masking(x));
  // steps 0 and 2 of the first row, 0 and 2 of the second (the zero steps are left out)
  EXPECT_TENSOR_NEAR(y, make({2, 3, 6, 7.5}, {2, 2}), 1e-6, 0);
  EXPECT_FALSE(y.impl()->keras_mask);
  // An explicit mask wins; without one it is the plain mean.
  Tensor m =
      ops::convert_to_tensor(std::vector<bool>{true, false, false, true, true, true}, {2, 3});
  EXPECT_TENSOR_NEAR(pool(x, {.mask = m}), make({1, 2, 4, 5}, {2, 2}), 1e-6, 0);
  EXPECT_TENSOR_NEAR(pool(x), make({4.0 / 3, 2, 4, 5}, {2, 2}), 1e-6, 0);
  // Other global pooling layers ignore masks (Keras: supports_masking is false).
  EXPECT_FALSE(layers::GlobalMaxPooling1D()->supports_masking());
  EXPECT_TRUE(pool->supports_masking());
}

TEST(ConvBehaviour, IntegerInputsAreCastToTheComputeDtype) {
  auto c = layers::Conv2D(1, 1, {.kernel_initializer = "ones"});
  Tensor y = c(ops::cast(ops::ones({1, 2, 2, 3}), DType::UInt8));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_TENSOR_NEAR(y, ops::full({1, 2, 2, 1}, 3.0), 0, 0);
  auto p = layers::MaxPooling1D();
  EXPECT_EQ(p(ops::cast(ops::ones({1, 4, 1}), DType::Float64)).dtype(), DType::Float32);
}

// ---- bad arguments and inputs ----------------------------------------------------------------

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
  std::string m = error_of(f);
  ASSERT_FALSE(m.empty()) << "no error";
  for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << m;
}

TEST(ConvErrors, BadArgumentsAreNamed) {
  using namespace layers;  // NOLINT
  expect_error([] { Conv2D(0, 3); }, {"Conv2D", "filters=0"});
  expect_error([] { Conv2D(4, {3, 0}); }, {"Conv2D", "kernel_size", "(3, 0)"});
  expect_error([] { Conv2D(4, {3, 3, 3}); }, {"Conv2D", "kernel_size", "2 integers"});
  expect_error([] { Conv1D(4, 3, {.groups = 0}); }, {"groups"});
  expect_error([] { Conv1D(4, 3, {.groups = 3}); }, {"filters=4", "groups=3"});
  expect_error([] { Conv2D(4, 3, {.strides = 2, .dilation_rate = 2}); },
               {"strides", "dilation_rate"});
  expect_error([] { Conv2D(4, 3, {.padding = "causal"}); }, {"Conv2D", "causal"});
  expect_error([] { Conv1D(4, 3, {.padding = "full"}); }, {"padding", "full"});
  expect_error([] { Conv2D(4, 3, {.data_format = "NHWC"}); }, {"data_format", "NHWC"});
  expect_error([] { Conv2DTranspose(4, 3, {.strides = 2, .output_padding = 2}); },
               {"Conv2DTranspose", "output_padding", "strides"});
  expect_error([] { Conv2DTranspose(4, 3, {.padding = "causal"}); }, {"padding"});
  expect_error([] { DepthwiseConv2D(3, {.depth_multiplier = 0}); },
               {"DepthwiseConv2D", "depth_multiplier"});
  expect_error([] { SeparableConv1D(0, 3); }, {"SeparableConv1D", "filters"});
  expect_error([] { MaxPooling2D(0); }, {"MaxPooling2D", "pool_size"});
  expect_error([] { AveragePooling1D(2, {.strides = 0}); }, {"AveragePooling1D", "strides"});
  expect_error([] { AveragePooling3D(2, {.padding = "causal"}); }, {"padding"});
  expect_error([] { GlobalMaxPooling1D({.data_format = "channels_middle"}); }, {"data_format"});
  EXPECT_THROW(AdaptiveAveragePooling2D({2, 2, 2}), TypeError);
  EXPECT_THROW(AdaptiveMaxPooling1D({2, 2}), TypeError);
  expect_error([] { AdaptiveMaxPooling2D({2, 0}); }, {"output_size"});
}

TEST(ConvErrors, BadInputsAreNamed) {
  using namespace layers;  // NOLINT
  // wrong rank
  expect_error(
      [] {
        Conv2D(2, 3, {.name = "c2"})(ops::zeros({2, 5, 3}));
      },
      {"Conv2D", "'c2'", "rank 4", "(2, 5, 3)"});
  expect_error(
      [] {
        MaxPooling1D(2, {.name = "p"})(ops::zeros({2, 5, 3, 1}));
      },
      {"MaxPooling1D", "'p'", "rank 3"});
  expect_error([] { GlobalAveragePooling2D()(ops::zeros({2, 5})); }, {"GlobalAveragePooling2D"});
  expect_error([] { AdaptiveMaxPooling3D(2)(ops::zeros({2, 5, 3, 1})); }, {"AdaptiveMaxPooling3D"});
  // unknown channels
  expect_error([] { Conv2D(2, 3)(Input({5, 5, -1})); }, {"channel", "(None, 5, 5, None)"});
  // channels not divisible by groups
  expect_error(
      [] {
        Conv1D(4, 3, {.groups = 2})(ops::zeros({1, 6, 3}));
      },
      {"groups=2", "3 channels"});
  // empty outputs
  expect_error([] { Conv2D(2, 4)(ops::zeros({1, 3, 8, 1})); }, {"Conv2D", "empty", "(1, 3, 8, 1)"});
  expect_error([] { Conv1D(2, 3, {.dilation_rate = 3})(Input({6, 2})); }, {"Conv1D", "empty"});
  expect_error([] { DepthwiseConv1D(5)(ops::zeros({1, 4, 2})); }, {"DepthwiseConv1D", "empty"});
  expect_error(
      [] {
        SeparableConv2D(2, 3)(ops::zeros({1, 2, 8, 1}));
      },
      {"SeparableConv2D", "empty"});
  expect_error([] { MaxPooling2D(3)(ops::zeros({1, 2, 8, 1})); }, {"MaxPooling2D", "empty"});
  // "same" never empties
  EXPECT_EQ(Conv2D(2, 4, {.padding = "same"})(ops::zeros({1, 3, 8, 1})).shape(),
            Shape({1, 3, 8, 2}));
  // channels differ from the build
  auto c = Conv2D(2, 3, {.name = "built"});
  c(ops::zeros({1, 5, 5, 3}));
  expect_error([&] { c(ops::zeros({1, 5, 5, 4})); }, {"'built'", "3 channels", "(1, 5, 5, 4)"});
  auto t = Conv1DTranspose(2, 3, {.data_format = "channels_first"});
  t(ops::zeros({1, 3, 5}));
  expect_error([&] { t(ops::zeros({1, 4, 5})); }, {"Conv1DTranspose", "3 channels"});
  // a mask of the wrong shape
  auto g = GlobalAveragePooling1D();
  expect_error(
      [&] {
        g(ops::zeros({2, 4, 3}), {.mask = ops::ones({2, 3}, DType::Bool)});
      },
      {"GlobalAveragePooling1D", "mask", "(2, 4)"});
}

}  // namespace
}  // namespace keras

// The core and activation layers (EinsumDense, Embedding, Identity, Lambda, Masking,
// Activation, ELU, LeakyReLU, PReLU, ReLU, Softmax): outputs and gradients against PyTorch
// (tools/golden/layers_core.py), symbolic shapes, configs (Keras 3.10's keys, round trips,
// configs as Keras writes them), masks flowing between layers, and bad arguments.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "assertions.h"
#include "golden.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/keras.h"
#include "keras/tensor/tensor_impl.h"
#include "layer_harness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

// ---- helpers -----------------------------------------------------------------------------------

// The mask a layer attached to its output (Keras's _keras_mask), or an undefined tensor.
Tensor mask_of(const Tensor& t) {
  return t.impl()->keras_mask ? Tensor(t.impl()->keras_mask) : Tensor();
}

std::string dtype_of(const json& kw) { return kw.value("dtype", std::string("float32")); }

// The fixture's functions for Lambda, registered by the names the fixture uses.
void register_fixture_lambdas() {
  layers::register_lambda("swish_minus_half_square", [](const Tensor& x) {
    return ops::subtract(ops::multiply(x, ops::sigmoid(x)), ops::multiply(ops::square(x), 0.5));
  });
  layers::register_lambda("sum_last_keepdims",
                          [](const Tensor& x) { return ops::sum(x, -1, /*keepdims=*/true); });
}

// Output and input gradient of a layer called with an explicit mask (Softmax's fixture cases:
// inputs x, mask, upstream).
TensorList run_with_mask(Layer& layer, const Tensor& x, const Tensor& mask, const Tensor& up) {
  GradientTape tape;
  Tensor watched = ops::stop_gradient(x);
  tape.watch(watched);
  CallContext ctx;
  ctx.mask = mask;
  Tensor y = layer(watched, ctx);
  Tensor loss = ops::sum(ops::multiply(ops::cast(y, DType::Float64), ops::cast(up, DType::Float64)));
  return {y, tape.gradient(loss, watched)};
}

std::vector<int64_t> output_shape_arg(const json& j) {
  std::vector<int64_t> out;
  for (const json& d : j) out.push_back(d.is_null() ? layers::kNone : d.get<int64_t>());
  return out;
}

GoldenOps core_ops() {
  GoldenOps m;
  m["einsum_dense"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::EinsumDense(
        kw["equation"].get<std::string>(), output_shape_arg(kw["output_shape"]),
        {.activation = kw["activation"].get<std::string>(),
         .bias_axes = kw["bias_axes"].is_null() ? "" : kw["bias_axes"].get<std::string>(),
         .dtype = dtype_of(kw)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["embedding"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Embedding(kw["input_dim"].get<int64_t>(), kw["output_dim"].get<int64_t>(),
                                   {.mask_zero = kw["mask_zero"].get<bool>(), .dtype = dtype_of(kw)});
    TensorList out = run_layer_fixture(*layer, in, kw);
    if (layer->mask_zero()) out.push_back(mask_of(out[0]));
    return out;
  };
  m["identity"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Identity({.dtype = dtype_of(kw)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["lambda"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Lambda(kw["function"].get<std::string>(), {.dtype = dtype_of(kw)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["masking"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Masking({.mask_value = kw["mask_value"].get<double>(), .dtype = dtype_of(kw)});
    TensorList out = run_layer_fixture(*layer, in, kw);
    out.push_back(mask_of(out[0]));
    return out;
  };
  m["activation"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Activation(kw["activation"].get<std::string>(), {.dtype = dtype_of(kw)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["elu"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::ELU({.alpha = kw["alpha"].get<double>(), .dtype = dtype_of(kw)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["leaky_relu"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::LeakyReLU(
        {.negative_slope = kw["negative_slope"].get<double>(), .dtype = dtype_of(kw)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["relu"] = [](const TensorList& in, const json& kw) {
    layers::ReLUOptions o{.negative_slope = kw["negative_slope"].get<double>(),
                          .threshold = kw["threshold"].get<double>(),
                          .dtype = dtype_of(kw)};
    if (!kw["max_value"].is_null()) o.max_value = kw["max_value"].get<double>();
    auto layer = layers::ReLU(o);
    return run_layer_fixture(*layer, in, kw);
  };
  m["prelu"] = [](const TensorList& in, const json& kw) {
    layers::PReLUOptions o{.dtype = dtype_of(kw)};
    if (!kw["shared_axes"].is_null()) o.shared_axes = kw["shared_axes"].get<std::vector<int>>();
    auto layer = layers::PReLU(o);
    return run_layer_fixture(*layer, in, kw);
  };
  m["softmax"] = [](const TensorList& in, const json& kw) {
    layers::SoftmaxOptions o{.dtype = dtype_of(kw)};
    if (kw["axis"].is_array()) o.axis = kw["axis"].get<std::vector<int>>();
    else o.axis = kw["axis"].get<int>();
    auto layer = layers::Softmax(o);
    if (kw.value("masked", false)) return run_with_mask(*layer, in[0], in[1], in[2]);
    return run_layer_fixture(*layer, in, kw);
  };
  return m;
}

// Calls `layer` on a keras::Input of `shape` and on an eager batch of 2: the symbolic output
// has the eager output's shape with an unknown batch axis, and its dtype.
void expect_symbolic_matches_eager(const std::shared_ptr<Layer>& layer, const Shape& shape,
                                   DType dtype = DType::Float32) {
  SCOPED_TRACE(layer->class_name() + " on input " + shape.to_string());
  KerasTensor out = (*layer)(Input(shape, {.dtype = dtype}));
  Shape full{2};
  for (int64_t d : shape) full.push_back(d);
  Tensor x = is_floating(dtype) ? random::normal(full, 0.0, 1.0, dtype, 3) : ops::ones(full, dtype);
  Tensor y = (*layer)(x);
  Shape expected = y.shape();
  expected[0] = kUnknownDim;
  EXPECT_EQ(out.shape(), expected);
  EXPECT_EQ(out.dtype(), y.dtype());
}

// get_config -> from_config(class) -> get_config is the same, and so is the trip through
// layers::serialize / layers::deserialize.
void expect_config_round_trips(const Layer& layer) {
  SCOPED_TRACE(layer.class_name() + " '" + layer.name() + "'");
  Config c = layer.get_config();
  auto again = layers::from_config(layer.class_name(), c);
  EXPECT_EQ(again->class_name(), layer.class_name());
  EXPECT_EQ(again->get_config(), c);
  auto record = layers::serialize(layer);
  EXPECT_EQ(record["class_name"], layer.class_name());
  auto back = layers::deserialize(record);
  EXPECT_EQ(back->get_config(), c);
}

std::set<std::string> keys_of(const Config& c) {
  std::set<std::string> out;
  for (auto it = c.begin(); it != c.end(); ++it) out.insert(it.key());
  return out;
}

std::set<std::string> with_base(std::initializer_list<std::string> keys) {
  std::set<std::string> out{"name", "trainable", "dtype"};
  out.insert(keys.begin(), keys.end());
  return out;
}

const char* kFloat32Policy =
    R"({"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
        "registered_name": null})";

// Expects `fn` to throw a ValueError whose message contains every one of `parts`.
template <typename Fn>
void expect_value_error(Fn&& fn, std::initializer_list<std::string> parts) {
  try {
    fn();
    ADD_FAILURE() << "expected a ValueError";
  } catch (const ValueError& e) {
    for (const std::string& p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << "\n  lacks: " << p;
  }
}

// ---- PyTorch fixtures --------------------------------------------------------------------------

TEST(LayersCoreGolden, MatchesTorch) {
  register_fixture_lambdas();
  auto exercised = run_golden("layers_core", core_ops());
  EXPECT_EQ(exercised.size(), 11u);
}

TEST(LayersCoreGolden, DecomposedKernelsMatchTorch) {
  register_fixture_lambdas();
  backend::DecomposeScope decompose;
  run_golden("layers_core", core_ops());
}

// ---- EinsumDense -------------------------------------------------------------------------------

TEST(EinsumDense, KernelAndBiasShapesFollowTheEquation) {
  backend::clear_session();
  struct Case {
    std::string equation;
    std::vector<int64_t> output_shape;
    std::string bias_axes;
    Shape input, kernel, bias, output;
  };
  const int64_t N = layers::kNone;
  // The examples of Keras's docstring, attention projections, and both elisions.
  std::vector<Case> cases = {
      {"ab,bc->ac", {64}, "c", {-1, 32}, {32, 64}, {64}, {-1, 64}},
      {"abc,cd->abd", {N, 64}, "d", {-1, 32, 128}, {128, 64}, {64}, {-1, 32, 64}},
      {"...x,xy->...y", {64}, "y", {-1, 32, 128}, {128, 64}, {64}, {-1, 32, 64}},
      {"abc,cde->abde", {N, 4, 8}, "de", {-1, 7, 16}, {16, 4, 8}, {4, 8}, {-1, 7, 4, 8}},
      {"abcd,cde->abe", {N, 16}, "e", {-1, 7, 4, 8}, {4, 8, 16}, {16}, {-1, 7, 16}},
      {"ab...,bc->ac...", {4}, "c", {-1, 5, 3}, {5, 4}, {4, 1}, {-1, 4, 3}},
      {"abc,cd->adb", {4, N}, "d", {-1, 3, 5}, {5, 4}, {4, 1}, {-1, 4, 3}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.equation);
    auto layer = layers::EinsumDense(c.equation, c.output_shape, {.bias_axes = c.bias_axes});
    KerasTensor out = layer(Input(Shape(c.input.begin() + 1, c.input.end())));
    EXPECT_EQ(layer->kernel().shape(), c.kernel);
    EXPECT_EQ(layer->bias().shape(), c.bias);
    EXPECT_EQ(layer->full_output_shape(), c.output);
    EXPECT_EQ(out.shape(), c.output);
    ASSERT_EQ(layer->weights().size(), 2u);
    EXPECT_EQ(layer->weights()[0].path(), layer->name() + "/kernel");
    EXPECT_EQ(layer->weights()[1].path(), layer->name() + "/bias");
  }
  EXPECT_EQ(layers::EinsumDense("ab,bc->ac", 3)->name(), "einsum_dense_7");
  auto no_bias = layers::EinsumDense("ab,bc->ac", 3);
  no_bias(ops::ones({2, 5}));
  EXPECT_EQ(no_bias->weights().size(), 1u);
  EXPECT_FALSE(no_bias->bias().defined());
  // Bias starts at zero, the kernel within glorot_uniform's limit sqrt(6 / (5 + 3)).
  EXPECT_LE(ops::max(ops::absolute(no_bias->kernel())).item<float>(), std::sqrt(6.0f / 8.0f));
}

TEST(EinsumDense, SymbolicShapes) {
  expect_symbolic_matches_eager(layers::EinsumDense("ab,bc->ac", 4, {.bias_axes = "c"}), {3});
  expect_symbolic_matches_eager(
      layers::EinsumDense("abc,cde->abde", {layers::kNone, 2, 3}, {.bias_axes = "de"}), {5, 4});
  expect_symbolic_matches_eager(layers::EinsumDense("...b,bc->...c", 4), {2, 3, 5});
  expect_symbolic_matches_eager(layers::EinsumDense("ab...,bc->ac...", 4, {.bias_axes = "c"}),
                                {5, 3});
}

TEST(EinsumDense, ConfigHasKerasKeysAndRoundTrips) {
  auto layer = layers::EinsumDense("abc,cd->abd", {layers::kNone, 64},
                                   {.activation = "relu",
                                    .bias_axes = "d",
                                    .kernel_initializer = initializers::HeNormal(3),
                                    .kernel_regularizer = "l2",
                                    .bias_constraint = "non_neg",
                                    .name = "proj"});
  Config c = layer->get_config();
  EXPECT_EQ(keys_of(c), with_base({"output_shape", "equation", "activation", "bias_axes",
                                   "kernel_initializer", "bias_initializer", "kernel_regularizer",
                                   "bias_regularizer", "activity_regularizer",
                                   "kernel_constraint", "bias_constraint",
                                   "quantization_config"}));
  EXPECT_EQ(c["output_shape"], json::parse("[null, 64]"));
  EXPECT_EQ(c["equation"], "abc,cd->abd");
  EXPECT_EQ(c["bias_axes"], "d");
  EXPECT_EQ(c["activation"], "relu");
  EXPECT_TRUE(c["activity_regularizer"].is_null());
  expect_config_round_trips(*layer);
  expect_config_round_trips(*layers::EinsumDense("ab,bc->ac", 3));
  EXPECT_TRUE(layers::EinsumDense("ab,bc->ac", 3)->get_config()["bias_axes"].is_null());
  EXPECT_EQ(layers::EinsumDense("ab,bc->ac", 3)->get_config()["output_shape"], json::parse("[3]"));
}

TEST(EinsumDense, ReadsTheConfigKerasWrites) {
  // keras.layers.EinsumDense("abc,cd->abd", output_shape=(None, 64), bias_axes="d").get_config()
  // in Keras 3.10.
  Config keras_config = json::parse(std::string(R"({
    "name": "einsum_dense", "trainable": true, "dtype": )") + kFloat32Policy + R"(,
    "output_shape": [null, 64], "equation": "abc,cd->abd", "activation": "linear",
    "bias_axes": "d",
    "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform",
                           "config": {"seed": null}, "registered_name": null},
    "bias_initializer": {"module": "keras.initializers", "class_name": "Zeros", "config": {},
                         "registered_name": null},
    "kernel_regularizer": null, "bias_regularizer": null, "activity_regularizer": null,
    "kernel_constraint": null, "bias_constraint": null})");
  auto layer = layers::from_config("EinsumDense", keras_config);
  // Written back in the 3.15 dialect: the same, plus quantization_config and the fan axes.
  Config written = keras_config;
  written["quantization_config"] = nullptr;
  written["kernel_initializer"]["config"]["input_axes"] = nullptr;
  written["kernel_initializer"]["config"]["output_axes"] = nullptr;
  EXPECT_EQ(layer->get_config(), written);
  Tensor y = (*layer)(ops::ones({2, 3, 5}));
  EXPECT_EQ(y.shape(), Shape({2, 3, 64}));
  // An integer output_shape and a LoRA rank (saved merged into the kernel) are read too.
  keras_config["output_shape"] = 8;
  keras_config["lora_rank"] = 4;
  keras_config["lora_alpha"] = 4;
  auto lora = layers::from_config("EinsumDense", keras_config);
  EXPECT_EQ(lora->get_config()["output_shape"], json::parse("[8]"));
}

TEST(EinsumDense, BadArgumentsAndInputsAreNamed) {
  expect_value_error([] { layers::EinsumDense("ab,bc", 3, {.name = "bad"}); },
                     {"'bad'", "invalid einsum equation 'ab,bc'"});
  expect_value_error([] { layers::EinsumDense("ab,bc->ac", 0); }, {"output_shape"});
  expect_value_error(
      [] { layers::EinsumDense("ab,bc->ac", 3, {.bias_axes = "x"})(ops::ones({2, 4})); },
      {"bias dimension 'x'", "'ac'"});
  expect_value_error([] { layers::EinsumDense("abc,cd->abd", 3)(ops::ones({2, 4, 5})); },
                     {"output_shape (3,)", "need 2"});
  expect_value_error(
      [] { layers::EinsumDense("abc,cd->abd", {7, 3})(ops::ones({2, 4, 5})); },
      {"shared dimension 'b'", "Input shape is 4", "output shape is 7"});
  expect_value_error([] { layers::EinsumDense("ab,cd->ad", 3)(ops::ones({2, 4})); },
                     {"weight dimension 'c'"});
  expect_value_error([] { layers::EinsumDense("ab,bc->ac", 3)(ops::ones({2, 4, 5})); },
                     {"rank 2", "(2, 4, 5)"});
  expect_value_error(
      [] { layers::EinsumDense("abc,cd->abd", {layers::kNone, 3})(Input({4, layers::kNone})); },
      {"kernel dimension 'c' is unknown"});
  auto layer = layers::EinsumDense("ab,bc->ac", 3);
  layer(ops::ones({2, 4}));
  expect_value_error([&] { layer(ops::ones({2, 4, 1})); }, {"rank 2", "(2, 4, 1)"});
}

// ---- Embedding ---------------------------------------------------------------------------------

TEST(Embedding, TableNameShapeAndKerasUniformInitializer) {
  backend::clear_session();
  auto embed = layers::Embedding(500, 40);
  EXPECT_EQ(embed->name(), "embedding");
  embed(ops::zeros({1, 1}, DType::Int32));
  ASSERT_EQ(embed->weights().size(), 1u);
  EXPECT_EQ(embed->embeddings().shape(), Shape({500, 40}));
  EXPECT_EQ(embed->embeddings_variable().path(), "embedding/embeddings");
  EXPECT_EQ(embed->count_params(), 20000);
  // "uniform" is RandomUniform(-0.05, 0.05): mean 0, variance 0.1^2 / 12.
  Tensor t = ops::cast(embed->embeddings_variable().value(), DType::Float64);
  EXPECT_GE(ops::min(t).item<double>(), -0.05);
  EXPECT_LE(ops::max(t).item<double>(), 0.05);
  EXPECT_NEAR(ops::mean(t).item<double>(), 0.0, 4 * 0.05 / std::sqrt(3.0 * 20000));
  EXPECT_NEAR(ops::var(t).item<double>(), 0.01 / 12, 0.01 / 12 * 0.05);
  Config init = embed->get_config()["embeddings_initializer"];
  EXPECT_EQ(init["class_name"], "RandomUniform");
  EXPECT_EQ(init["config"]["minval"], -0.05);
  EXPECT_EQ(init["config"]["maxval"], 0.05);
}

TEST(Embedding, IdsOfAnyTypeAndInitialWeights) {
  Tensor table = make({0, 1, 10, 11, 20, 21, 30, 31}, {4, 2});
  auto embed = layers::Embedding(4, 2, {.weights = table});
  EXPECT_TRUE(embed->built());
  EXPECT_TENSOR_EQ(embed->embeddings_variable().value(), table);
  Tensor expected = make({30, 31, 0, 1, 10, 11}, {3, 2});
  EXPECT_TENSOR_EQ(embed(ops::convert_to_tensor(std::vector<int32_t>{3, 0, 1}, {3})), expected);
  EXPECT_TENSOR_EQ(embed(ops::convert_to_tensor(std::vector<int64_t>{3, 0, 1}, {3})), expected);
  EXPECT_TENSOR_EQ(embed(ops::convert_to_tensor(std::vector<uint8_t>{3, 0, 1}, {3})), expected);
  // Float ids are cast to int32, as Keras does.
  EXPECT_TENSOR_EQ(embed(make({3, 0, 1}, {3})), expected);
  // A scalar id gives one row; no ids give no rows.
  EXPECT_TENSOR_EQ(embed(ops::convert_to_tensor(std::vector<int32_t>{2}, Shape{})), make({20, 21}, {2}));
  EXPECT_EQ(embed(ops::zeros({2, 0}, DType::Int32)).shape(), Shape({2, 0, 2}));
  expect_value_error([] { layers::Embedding(4, 2, {.weights = ops::ones({2, 4})}); },
                     {"(input_dim, output_dim) = (4, 2)", "(2, 4)"});
}

TEST(Embedding, OutOfRangeIdsAreNamed) {
  auto embed = layers::Embedding(5, 2, {.name = "words"});
  expect_value_error([&] { embed(ops::convert_to_tensor(std::vector<int32_t>{0, 5, 2}, {3})); },
                     {"'words'", "id 5", "input_dim=5", "0 to 4"});
  expect_value_error([&] { embed(ops::convert_to_tensor(std::vector<int64_t>{-1, 2}, {2})); },
                     {"id -1"});
  expect_value_error([] { layers::Embedding(0, 2); }, {"input_dim"});
  expect_value_error([] { layers::Embedding(3, -1); }, {"output_dim"});
}

TEST(Embedding, SymbolicShapeAndDtype) {
  expect_symbolic_matches_eager(layers::Embedding(10, 3), {4}, DType::Int32);
  expect_symbolic_matches_eager(layers::Embedding(10, 3, {.mask_zero = true}), {2, 5},
                                DType::Int64);
  expect_symbolic_matches_eager(layers::Embedding(10, 3, {.dtype = "float64"}), {4},
                                DType::Int32);
}

TEST(Embedding, ConfigHasKerasKeysAndRoundTrips) {
  auto embed = layers::Embedding(100, 8,
                                 {.embeddings_regularizer = "l2",
                                  .embeddings_constraint = "unit_norm",
                                  .mask_zero = true,
                                  .name = "tokens"});
  Config c = embed->get_config();
  EXPECT_EQ(keys_of(c), with_base({"input_dim", "output_dim", "embeddings_initializer",
                                   "embeddings_regularizer", "activity_regularizer",
                                   "embeddings_constraint", "mask_zero",
                                   "quantization_config"}));
  EXPECT_EQ(c["input_dim"], 100);
  EXPECT_EQ(c["mask_zero"], true);
  expect_config_round_trips(*embed);
  expect_config_round_trips(*layers::Embedding(3, 2));
}

TEST(Embedding, ReadsTheConfigKerasWrites) {
  // keras.layers.Embedding(100, 8, mask_zero=True).get_config() in Keras 3.10.
  Config keras_config = json::parse(std::string(R"({
    "name": "embedding", "trainable": true, "dtype": )") + kFloat32Policy + R"(,
    "input_dim": 100, "output_dim": 8,
    "embeddings_initializer": {"module": "keras.initializers", "class_name": "RandomUniform",
                               "config": {"seed": null, "minval": -0.05, "maxval": 0.05},
                               "registered_name": null},
    "embeddings_regularizer": null, "activity_regularizer": null,
    "embeddings_constraint": null, "mask_zero": true})");
  auto layer = layers::from_config("Embedding", keras_config);
  // Written back in the 3.15 dialect: the same, plus quantization_config.
  Config written = keras_config;
  written["quantization_config"] = nullptr;
  EXPECT_EQ(layer->get_config(), written);
  // Newer keys: quantization_config (null), lora_rank (saved merged into the table).
  keras_config["quantization_config"] = nullptr;
  keras_config["lora_rank"] = 2;
  EXPECT_NO_THROW(layers::from_config("Embedding", keras_config));
  keras_config["quantization_config"] = json::parse(R"({"class_name": "NoSuchConfig"})");
  EXPECT_THROW(layers::from_config("Embedding", keras_config), ValueError);
}

// ---- masks between layers ----------------------------------------------------------------------

// Reads the timestep mask (batch, time) of a (batch, time, features) input and averages the
// unmasked timesteps (as a pooling layer or an RNN would consume the mask).
class MaskedTimeMean : public Layer {
 public:
  MaskedTimeMean() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext& ctx) override {
    seen_mask = ctx.mask.defined();
    if (!seen_mask) return ops::mean(x, 1);
    Tensor keep = ops::cast(ops::expand_dims(ctx.mask, -1), x.dtype());
    return ops::divide(ops::sum(ops::multiply(x, keep), 1), ops::sum(keep, 1));
  }
  Tensor compute_mask(const Tensor&, const Tensor&) const override { return Tensor(); }
  bool seen_mask = false;
};

// Table row i = (i, 10 i), so means of rows are easy to write down.
Tensor ten_table(int64_t n) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) {
    v.push_back(static_cast<double>(i));
    v.push_back(10.0 * static_cast<double>(i));
  }
  return make(v, {n, 2});
}

TEST(Masks, EmbeddingMaskZeroReachesAMaskAwareLayer) {
  auto embed = layers::Embedding(6, 2, {.mask_zero = true, .weights = ten_table(6)});
  auto reader = make_layer<MaskedTimeMean>();
  Tensor ids = ops::convert_to_tensor(std::vector<int32_t>{3, 1, 0, 0, 2, 5, 4, 0}, {2, 4});
  Tensor h = embed(ids);
  EXPECT_TENSOR_EQ(mask_of(h), ops::not_equal(ids, 0));
  Tensor y = reader(h);
  EXPECT_TRUE(reader->seen_mask);
  // Row means over the nonzero ids: (3 + 1) / 2 = 2 and (2 + 5 + 4) / 3.
  EXPECT_TENSOR_NEAR(y, make({2, 20, 11.0 / 3, 110.0 / 3}, {2, 2}), 1e-6, 1e-6);
  // Without mask_zero there is no mask: every timestep counts.
  auto plain = layers::Embedding(6, 2, {.weights = ten_table(6)});
  Tensor p = plain(ids);
  EXPECT_FALSE(mask_of(p).defined());
  reader(p);
  EXPECT_FALSE(reader->seen_mask);
}

TEST(Masks, FlowThroughFunctionalAndSequentialModels) {
  // Embedding(mask_zero) -> ReLU, Identity, Activation (which pass masks on) -> the reader.
  auto ids_in = Input({4}, {.dtype = DType::Int32});
  auto embed = layers::Embedding(6, 2, {.mask_zero = true, .weights = ten_table(6)});
  auto reader = make_layer<MaskedTimeMean>();
  KerasTensor h = layers::Activation("linear")(layers::Identity()(layers::ReLU()(embed(ids_in))));
  auto model = Functional(ids_in, reader(h));
  EXPECT_EQ(model->outputs()[0].shape(), Shape({-1, 2}));
  Tensor ids = ops::convert_to_tensor(std::vector<int32_t>{3, 1, 0, 0, 2, 5, 4, 0}, {2, 4});
  Tensor y = model(ids);
  EXPECT_TRUE(reader->seen_mask);
  EXPECT_TENSOR_NEAR(y, make({2, 20, 11.0 / 3, 110.0 / 3}, {2, 2}), 1e-6, 1e-6);

  // Masking -> reader in a Sequential model: the all-zero timesteps are left out.
  auto seq_reader = make_layer<MaskedTimeMean>();
  auto seq = Sequential({Input({3, 2}), layers::Masking(), seq_reader});
  Tensor x = make({1, 2, 0, 0, 3, 4, /**/ 0, 0, 0, 0, 5, 0}, {2, 3, 2});
  Tensor z = seq(x);
  EXPECT_TRUE(seq_reader->seen_mask);
  EXPECT_TENSOR_NEAR(z, make({2, 3, 5, 0}, {2, 2}), 1e-6, 1e-6);
}

// Attaches a mask of x's own shape (x > -1), for the Softmax mask test.
class MaskAboveMinusOne : public Layer {
 public:
  MaskAboveMinusOne() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext&) override { return x; }
  Tensor compute_mask(const Tensor& x, const Tensor&) const override {
    return ops::greater(x, -1.0);
  }
};

TEST(Masks, SoftmaxUsesTheMaskAPreviousLayerAttached) {
  Tensor x = make({0, 1, -2, 2, /**/ -5, -3, -4, -2}, {2, 4});
  Tensor y = layers::Softmax()(make_layer<MaskAboveMinusOne>()(x));
  // Row 0 keeps (0, 1, 2); row 1 is masked entirely and gives zeros.
  const double e0 = 1, e1 = std::exp(1.0), e2 = std::exp(2.0), s = e0 + e1 + e2;
  EXPECT_TENSOR_NEAR(y, make({e0 / s, e1 / s, 0, e2 / s, 0, 0, 0, 0}, {2, 4}), 1e-6, 1e-7);
  // An explicit mask wins over none; without any mask Softmax is plain.
  EXPECT_TENSOR_NEAR(layers::Softmax()(x), ops::softmax(x), 1e-6, 1e-7);
}

// ---- Identity, Lambda, Masking -----------------------------------------------------------------

TEST(Identity, PassesInputsAndMasksThrough) {
  auto id = layers::Identity();
  Tensor x = make({1, 2, 3}, {1, 3});
  EXPECT_TENSOR_EQ(id(x), x);
  TensorList xs = id(TensorList{x, ops::ones({2})});
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_TENSOR_EQ(xs[1], ops::ones({2}));
  expect_symbolic_matches_eager(layers::Identity(), {3, 4});
  EXPECT_EQ(keys_of(id->get_config()), with_base({}));
  expect_config_round_trips(*id);
}

TEST(Lambda, RegisteredFunctionsRoundTrip) {
  backend::clear_session();
  layers::register_lambda("core_test_square", [](const Tensor& x) { return ops::square(x); });
  auto layer = layers::Lambda("core_test_square");
  EXPECT_EQ(layer->name(), "lambda");
  EXPECT_TENSOR_EQ(layer(make({1, -2, 3}, {3})), make({1, 4, 9}, {3}));
  Config c = layer->get_config();
  EXPECT_EQ(keys_of(c), with_base({"function", "arguments"}));
  EXPECT_EQ(c["function"]["class_name"], "function");
  EXPECT_EQ(c["function"]["config"], "core_test_square");
  EXPECT_EQ(c["function"]["registered_name"], "core_test_square");
  expect_config_round_trips(*layer);
  auto again = layers::from_config("Lambda", c);
  EXPECT_TENSOR_EQ((*again)(make({-3}, {1})), make({9}, {1}));
  expect_symbolic_matches_eager(layer, {2, 3});
  auto shaped = layers::Lambda("core_test_square", {.output_shape = Shape{2, 3}});
  EXPECT_EQ(shaped->get_config()["output_shape"], json::parse("[2, 3]"));
  expect_config_round_trips(*shaped);
}

TEST(Lambda, PythonConfigsLoadOnlyRegisteredFunctions) {
  // keras.layers.Lambda(cube).get_config() for a function `cube` defined in a script. The
  // registry is process-wide: a fresh name on each run keeps --gtest_repeat meaningful.
  static int run = 0;
  const std::string name = "core_test_cube_" + std::to_string(run++);
  Config keras_config = json::parse(std::string(R"({
    "name": "lambda", "trainable": true, "dtype": )") + kFloat32Policy + R"(,
    "function": {"module": "__main__", "class_name": "function", "config": ")" + name + R"(",
                 "registered_name": ")" + name + R"("},
    "arguments": {}})");
  expect_value_error([&] { layers::from_config("Lambda", keras_config); },
                     {"'" + name + "'", "register_lambda", "never executes code"});
  layers::register_lambda(name, [](const Tensor& x) { return ops::multiply(x, ops::square(x)); });
  auto layer = layers::from_config("Lambda", keras_config);
  EXPECT_TENSOR_EQ((*layer)(make({2}, {1})), make({8}, {1}));
  // A function from keras.activations needs no registration.
  Config relu = keras_config;
  relu["function"] = json::parse(
      R"({"module": "keras.activations", "class_name": "function", "config": "relu",
          "registered_name": "relu"})");
  EXPECT_TENSOR_EQ((*layers::from_config("Lambda", relu))(make({-1, 2}, {2})), make({0, 2}, {2}));
  // A Python lambda is bytecode: never executed.
  Config lambda = keras_config;
  lambda["function"] = json::parse(
      R"({"class_name": "__lambda__", "config": {"code": "4wEAAAAAAAAA", "defaults": null,
          "closure": null}})");
  expect_value_error([&] { layers::from_config("Lambda", lambda); }, {"bytecode"});
  // Keyword arguments and masks have no C++ counterpart in a config.
  Config args = keras_config;
  args["arguments"] = json::parse(R"({"power": 3})");
  expect_value_error([&] { layers::from_config("Lambda", args); }, {"arguments"});
}

TEST(Lambda, AnonymousFunctionsWorkButCannotBeReloaded) {
  auto layer = layers::Lambda([](const Tensor& x) { return ops::add(x, 1.0); }, {.name = "plus"});
  EXPECT_TENSOR_EQ(layer(make({1, 2}, {2})), make({2, 3}, {2}));
  Config c = layer->get_config();
  EXPECT_EQ(c["function"]["config"], "<lambda>");
  expect_value_error([&] { layers::from_config("Lambda", c); }, {"'plus'", "anonymous"});
  expect_value_error([] { layers::Lambda("core_test_never_registered"); },
                     {"'core_test_never_registered'", "register_lambda"});
  EXPECT_THROW(layers::register_lambda("", [](const Tensor& x) { return x; }), ValueError);
}

TEST(Lambda, MaskFunctionGivesTheOutputMask) {
  // Keras's Lambda(fn, mask=...): the mask callable sees the inputs and the incoming mask.
  Tensor x = make({1, 0, 2, 0, 0, 3}, {2, 3});
  auto plain = layers::Lambda([](const Tensor& t) { return ops::multiply(t, 2.0); });
  EXPECT_FALSE(plain->supports_masking());
  EXPECT_FALSE(mask_of(plain(x)).defined());
  auto masked = layers::Lambda([](const Tensor& t) { return ops::multiply(t, 2.0); },
                               {.mask = [](const Tensor& t, const Tensor& m) {
                                  EXPECT_FALSE(m.defined());
                                  return ops::not_equal(t, 0.0);
                                }});
  EXPECT_TRUE(masked->supports_masking());
  Tensor y = masked(x);
  EXPECT_TENSOR_EQ(y, make({2, 0, 4, 0, 0, 6}, {2, 3}));
  EXPECT_TENSOR_EQ(mask_of(y), ops::not_equal(x, 0.0));
  // The mask is written (as an anonymous function) but a config cannot bring it back.
  Config c = masked->get_config();
  EXPECT_EQ(c["mask"]["config"], "<lambda>");
  layers::register_lambda("core_test_double", [](const Tensor& t) { return ops::multiply(t, 2.0); });
  c["function"]["config"] = c["function"]["registered_name"] = "core_test_double";
  expect_value_error([&] { layers::from_config("Lambda", c); }, {"mask", "LambdaOptions::mask"});
}

TEST(Lambda, OutputShapeStandsInForSymbolicCalls) {
  int calls = 0;
  auto layer = layers::Lambda(
      [&calls](const Tensor& x) {
        ++calls;
        return ops::reshape(x, {x.shape()[0], 6});
      },
      {.output_shape = Shape{6}});
  KerasTensor out = layer(Input({2, 3}));
  EXPECT_EQ(out.shape(), Shape({-1, 6}));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(layer(ops::ones({4, 2, 3})).shape(), Shape({4, 6}));
  EXPECT_EQ(calls, 1);
}

TEST(Masking, ConfigAndSymbolicShape) {
  backend::clear_session();
  auto masking = layers::Masking({.mask_value = -1.5});
  EXPECT_EQ(masking->name(), "masking");
  Config c = masking->get_config();
  EXPECT_EQ(keys_of(c), with_base({"mask_value"}));
  EXPECT_EQ(c["mask_value"], -1.5);
  expect_config_round_trips(*masking);
  EXPECT_EQ(layers::Masking()->get_config()["mask_value"], 0.0);
  expect_symbolic_matches_eager(masking, {3, 4});
  Config bad = c;
  bad["mask_value"] = "zero";
  EXPECT_THROW(layers::from_config("Masking", bad), ValueError);
}

// ---- activation layers -------------------------------------------------------------------------

TEST(ActivationLayers, DefaultNamesFollowKerasSnakeCase) {
  backend::clear_session();
  EXPECT_EQ(layers::Activation("relu")->name(), "activation");
  EXPECT_EQ(layers::ELU()->name(), "elu");
  EXPECT_EQ(layers::LeakyReLU()->name(), "leaky_re_lu");
  EXPECT_EQ(layers::PReLU()->name(), "p_re_lu");
  EXPECT_EQ(layers::ReLU()->name(), "re_lu");
  EXPECT_EQ(layers::Softmax()->name(), "softmax");
  EXPECT_EQ(layers::Identity()->name(), "identity");
  EXPECT_EQ(layers::ReLU()->name(), "re_lu_1");
}

TEST(ActivationLayers, SymbolicShapes) {
  expect_symbolic_matches_eager(layers::Activation("softmax"), {3, 4});
  expect_symbolic_matches_eager(layers::ELU({.alpha = 0.5}), {3});
  expect_symbolic_matches_eager(layers::LeakyReLU(), {2, 2});
  expect_symbolic_matches_eager(layers::PReLU({.shared_axes = {1, 2}}), {3, 4, 5});
  expect_symbolic_matches_eager(layers::ReLU({.max_value = 1.0}), {5});
  expect_symbolic_matches_eager(layers::Softmax({.axis = {1, 2}}), {3, 4});
}

TEST(ActivationLayers, ConfigsHaveKerasKeysAndRoundTrip) {
  auto act = layers::Activation("gelu");
  EXPECT_EQ(keys_of(act->get_config()), with_base({"activation"}));
  EXPECT_EQ(act->get_config()["activation"], "gelu");
  expect_config_round_trips(*act);

  auto elu = layers::ELU({.alpha = 0.7});
  EXPECT_EQ(keys_of(elu->get_config()), with_base({"alpha"}));  // Keras itself drops alpha
  expect_config_round_trips(*elu);

  auto leaky = layers::LeakyReLU();
  EXPECT_EQ(keys_of(leaky->get_config()), with_base({"negative_slope"}));
  EXPECT_EQ(leaky->get_config()["negative_slope"], 0.3);
  expect_config_round_trips(*leaky);

  auto prelu = layers::PReLU({.alpha_regularizer = "l1", .shared_axes = {1, 2}});
  Config pc = prelu->get_config();
  EXPECT_EQ(keys_of(pc), with_base({"alpha_initializer", "alpha_regularizer", "alpha_constraint",
                                    "shared_axes"}));
  EXPECT_EQ(pc["shared_axes"], json::parse("[1, 2]"));
  EXPECT_EQ(pc["alpha_initializer"]["class_name"], "Zeros");
  expect_config_round_trips(*prelu);
  EXPECT_TRUE(layers::PReLU()->get_config()["shared_axes"].is_null());

  auto relu = layers::ReLU({.max_value = 6.0, .negative_slope = 0.1, .threshold = 0.5});
  Config rc = relu->get_config();
  EXPECT_EQ(keys_of(rc), with_base({"max_value", "negative_slope", "threshold"}));
  EXPECT_EQ(rc["max_value"], 6.0);
  expect_config_round_trips(*relu);
  EXPECT_TRUE(layers::ReLU()->get_config()["max_value"].is_null());
  expect_config_round_trips(*layers::ReLU());

  auto softmax = layers::Softmax();
  EXPECT_EQ(keys_of(softmax->get_config()), with_base({"axis"}));
  EXPECT_EQ(softmax->get_config()["axis"], -1);
  expect_config_round_trips(*softmax);
  EXPECT_EQ(layers::Softmax({.axis = {1, 2}})->get_config()["axis"], json::parse("[1, 2]"));
  expect_config_round_trips(*layers::Softmax({.axis = {1, 2}}));
}

TEST(ActivationLayers, ReadTheConfigsKerasWrites) {
  auto base = [](const std::string& name) {
    Config c = json::parse(std::string(R"({"trainable": true, "dtype": )") + kFloat32Policy + "}");
    c["name"] = name;
    return c;
  };
  // keras.layers.PReLU(shared_axes=[1, 2]).get_config() in Keras 3.10.
  Config prelu = base("p_re_lu");
  prelu["alpha_initializer"] = json::parse(
      R"({"module": "keras.initializers", "class_name": "Zeros", "config": {},
          "registered_name": null})");
  prelu["alpha_regularizer"] = nullptr;
  prelu["alpha_constraint"] = nullptr;
  prelu["shared_axes"] = json::parse("[1, 2]");
  auto p = layers::from_config("PReLU", prelu);
  EXPECT_EQ(p->get_config(), prelu);
  (*p)(ops::ones({2, 3, 4, 5}));
  ASSERT_EQ(p->weights().size(), 1u);
  EXPECT_EQ(p->weights()[0].shape(), Shape({1, 1, 5}));
  EXPECT_EQ(p->weights()[0].path(), "p_re_lu/alpha");
  EXPECT_EQ(ops::sum(ops::absolute(p->weights()[0].value())).item<float>(), 0.0f);

  // keras.layers.ReLU(max_value=6.0) and LeakyReLU() in Keras 3.10; Keras 2's "alpha".
  Config relu = base("re_lu");
  relu["max_value"] = 6.0;
  relu["negative_slope"] = 0.0;
  relu["threshold"] = 0.0;
  EXPECT_EQ(layers::from_config("ReLU", relu)->get_config(), relu);
  Config leaky = base("leaky_re_lu");
  leaky["negative_slope"] = 0.3;
  EXPECT_EQ(layers::from_config("LeakyReLU", leaky)->get_config(), leaky);
  Config keras2 = base("leaky_re_lu_1");
  keras2["alpha"] = 0.1;
  auto l2 = layers::from_config("LeakyReLU", keras2);
  EXPECT_EQ(l2->get_config()["negative_slope"], 0.1);
  // Keras's ELU config has no alpha: the default 1.0.
  auto e = layers::from_config("ELU", base("elu"));
  EXPECT_EQ(e->get_config()["alpha"], 1.0);
  Config act = base("activation");
  act["activation"] = "softmax";
  EXPECT_EQ(layers::from_config("Activation", act)->get_config(), act);
  Config softmax = base("softmax");
  softmax["axis"] = json::parse("[1]");
  EXPECT_TENSOR_NEAR((*layers::from_config("Softmax", softmax))(make({1, 2}, {2, 1})),
                     ops::ones({2, 1}), 1e-6, 1e-7);
}

TEST(ActivationLayers, PReLUWeightsAndInputChecks) {
  auto prelu = layers::PReLU({.name = "pr"});
  prelu(ops::ones({2, 3, 4}));
  EXPECT_EQ(prelu->alpha().shape(), Shape({3, 4}));
  EXPECT_EQ(prelu->trainable_weights().size(), 1u);
  expect_value_error([&] { prelu(ops::ones({2, 3, 5})); }, {"'pr'", "(2, 3, 4)", "(2, 3, 5)"});
  auto shared = layers::PReLU({.shared_axes = {1}});
  shared(ops::ones({2, 3, 4}));
  shared(ops::ones({2, 7, 4}));  // a shared axis may change size
  expect_value_error([] { layers::PReLU({.shared_axes = {0}}); }, {"shared_axes"});
  expect_value_error([] { layers::PReLU({.shared_axes = {3}})(ops::ones({2, 3, 4})); },
                     {"shared axis 3"});
  expect_value_error([] { layers::PReLU()(Input({layers::kNone, 4})); }, {"axis 1", "unknown"});
  expect_value_error([] { layers::PReLU()(ops::ones({3})); }, {"rank >= 2"});
}

TEST(ActivationLayers, BadArgumentsAreNamed) {
  expect_value_error([] { layers::LeakyReLU({.negative_slope = -0.1}); }, {"negative_slope", "-0.1"});
  expect_value_error([] { layers::ReLU({.max_value = -1.0}); }, {"max_value"});
  expect_value_error([] { layers::ReLU({.negative_slope = -1.0}); }, {"negative_slope"});
  expect_value_error([] { layers::ReLU({.threshold = -1.0}); }, {"threshold"});
  expect_value_error([] { layers::Activation("no_such_activation"); }, {"no_such_activation"});
  EXPECT_THROW(layers::from_config("Activation", json::parse(R"({"name": "a"})")), ValueError);
}

TEST(ActivationLayers, ReLUClosedForms) {
  // keras.layers.ReLU's docstring example: max_value=10, negative_slope=0.5, threshold=0.
  Tensor x = make({-10, -5, 0, 5, 10}, {5});
  EXPECT_TENSOR_EQ(layers::ReLU({.max_value = 10.0, .negative_slope = 0.5})(x),
                   make({-5, -2.5, 0, 5, 10}, {5}));
  // keras.activations.relu's examples.
  EXPECT_TENSOR_EQ(layers::ReLU({.max_value = 5.0})(x), make({0, 0, 0, 5, 5}, {5}));
  EXPECT_TENSOR_EQ(layers::ReLU({.threshold = 5.0})(x), make({0, 0, 0, 0, 10}, {5}));
  // LeakyReLU's docstring example.
  EXPECT_TENSOR_EQ(layers::LeakyReLU({.negative_slope = 0.5})(x), make({-5, -2.5, 0, 5, 10}, {5}));
  // Softmax's docstring example.
  EXPECT_TENSOR_NEAR(layers::Softmax()(make({1, 2, 1}, {3})),
                     make({0.21194157, 0.5761169, 0.21194157}, {3}), 1e-6, 1e-7);
}

}  // namespace
}  // namespace keras

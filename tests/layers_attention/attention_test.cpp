// The attention layers (MultiHeadAttention, GroupedQueryAttention, Attention,
// AdditiveAttention) against PyTorch (tools/golden/layers_attention.py): outputs, attention
// scores and the gradients of the inputs and every weight, with padding, causal, sliding-window
// and explicit attention masks. Plus symbolic shapes, Functional models, configs, masks attached
// to the inputs, dropout statistics, regularizers and bad inputs.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
using layers::AttentionCall;
using layers::AttentionLayer;
using layers::MultiHeadAttentionCall;
using layers::MultiHeadAttentionLayer;
using layers::MultiHeadAttentionOptions;

// ---- fixture replay ------------------------------------------------------------------------

struct Case {
  TensorList inputs;                   // query, value(, key)
  std::map<std::string, Tensor> masks;  // by argument name
  TensorList weights, upstream;
};

Case split(const TensorList& in, const json& kw) {
  Case c;
  size_t i = 0;
  const size_t n_inputs = kw.at("n_inputs").get<size_t>();
  for (; i < n_inputs; ++i) c.inputs.push_back(in[i]);
  for (const auto& m : kw.at("masks")) c.masks[m.get<std::string>()] = in[i++];
  const size_t n_weights = kw.at("n_weights").get<size_t>();
  for (size_t j = 0; j < n_weights; ++j) c.weights.push_back(in[i++]);
  for (; i < in.size(); ++i) c.upstream.push_back(in[i]);
  return c;
}

Tensor mask_or_none(const Case& c, const std::string& name) {
  auto it = c.masks.find(name);
  return it == c.masks.end() ? Tensor() : it->second;
}

// Builds `layer` for the case's inputs, loads its weights, runs `call` on watched inputs and
// returns the outputs, the input gradients and the trainable-weight gradients of
// sum(outputs * upstream).
TensorList replay(Layer& layer, const Case& c,
                  const std::function<TensorList(const TensorList&)>& call) {
  std::vector<Shape> shapes;
  for (const Tensor& x : c.inputs) shapes.push_back(x.shape());
  layer.ensure_built(shapes, true);
  layer.set_weights(c.weights);
  GradientTape tape;
  TensorList watched;
  for (const Tensor& x : c.inputs) {
    watched.push_back(ops::stop_gradient(x));
    tape.watch(watched.back());
  }
  TensorList outputs = call(watched);
  check(outputs.size() == c.upstream.size(), "fixture: ", c.upstream.size(),
        " upstream gradients for ", outputs.size(), " outputs");
  Tensor loss = ops::zeros({}, DType::Float64);
  for (size_t i = 0; i < outputs.size(); ++i)
    loss = ops::add(loss, ops::sum(ops::multiply(ops::cast(outputs[i], DType::Float64),
                                                 ops::cast(c.upstream[i], DType::Float64))));
  TensorList sources = watched;
  for (const Variable& v : layer.trainable_weights()) sources.push_back(v.value());
  TensorList grads = tape.gradient(loss, sources);
  TensorList result = outputs;
  result.insert(result.end(), grads.begin(), grads.end());
  return result;
}

MultiHeadAttentionCall mha_call(const Case& c, const json& kw, const TensorList& x) {
  return {.key = x.size() > 2 ? x[2] : Tensor(),
          .query_mask = mask_or_none(c, "query_mask"),
          .value_mask = mask_or_none(c, "value_mask"),
          .key_mask = mask_or_none(c, "key_mask"),
          .attention_mask = mask_or_none(c, "attention_mask"),
          .return_attention_scores = kw.at("return_attention_scores").get<bool>(),
          .use_causal_mask = kw.at("use_causal_mask").get<bool>()};
}

std::optional<int64_t> opt_int(const json& kw, const char* key) {
  if (!kw.contains(key)) return std::nullopt;
  return kw[key].get<int64_t>();
}

GoldenOps attention_ops() {
  GoldenOps m;
  m["mha"] = [](const TensorList& in, const json& kw) {
    Case c = split(in, kw);
    MultiHeadAttentionOptions o{.value_dim = kw.at("value_dim").get<int64_t>(),
                                .dropout = kw.at("dropout").get<double>(),
                                .use_bias = kw.at("use_bias").get<bool>(),
                                .sliding_window = opt_int(kw, "sliding_window"),
                                .use_gate = kw.at("use_gate").get<bool>(),
                                .dtype = kw.at("dtype").get<std::string>()};
    if (kw.contains("output_shape")) o.output_shape = kw["output_shape"].get<std::vector<int64_t>>();
    if (kw.contains("attention_axes"))
      o.attention_axes = kw["attention_axes"].get<std::vector<int>>();
    auto layer = layers::MultiHeadAttention(kw.at("num_heads").get<int64_t>(),
                                            kw.at("key_dim").get<int64_t>(), o);
    return replay(*layer, c, [&](const TensorList& x) {
      return layer->call_with(x[0], x[1], mha_call(c, kw, x));
    });
  };
  m["gqa"] = [](const TensorList& in, const json& kw) {
    Case c = split(in, kw);
    auto layer = layers::GroupedQueryAttention(
        kw.at("head_dim").get<int64_t>(), kw.at("num_query_heads").get<int64_t>(),
        kw.at("num_key_value_heads").get<int64_t>(),
        {.dropout = kw.at("dropout").get<double>(),
         .use_bias = kw.at("use_bias").get<bool>(),
         .sliding_window = opt_int(kw, "sliding_window"),
         .use_gate = kw.at("use_gate").get<bool>(),
         .dtype = kw.at("dtype").get<std::string>()});
    return replay(*layer, c, [&](const TensorList& x) {
      return layer->call_with(x[0], x[1], mha_call(c, kw, x));
    });
  };
  auto luong = [](Layer& layer, AttentionLayer& attention, const Case& c, const json& kw) {
    return replay(layer, c, [&](const TensorList& x) {
      AttentionCall args{.return_attention_scores = kw.at("return_attention_scores").get<bool>(),
                         .use_causal_mask = kw.at("use_causal_mask").get<bool>()};
      if (!c.masks.empty()) args.mask = {c.masks.at("query_mask"), c.masks.at("value_mask")};
      return attention.call_with(x, args);
    });
  };
  m["attention"] = [luong](const TensorList& in, const json& kw) {
    Case c = split(in, kw);
    auto layer = layers::Attention({.use_scale = kw.at("use_scale").get<bool>(),
                                    .score_mode = kw.at("score_mode").get<std::string>(),
                                    .dropout = kw.at("dropout").get<double>(),
                                    .dtype = kw.at("dtype").get<std::string>()});
    return luong(*layer, *layer, c, kw);
  };
  m["additive_attention"] = [luong](const TensorList& in, const json& kw) {
    Case c = split(in, kw);
    auto layer = layers::AdditiveAttention({.use_scale = kw.at("use_scale").get<bool>(),
                                            .dropout = kw.at("dropout").get<double>(),
                                            .dtype = kw.at("dtype").get<std::string>()});
    return luong(*layer, *layer, c, kw);
  };
  return m;
}

TEST(AttentionGolden, MultiHeadAttentionMatchesTorch) {
  run_golden("layers_attention_mha", attention_ops());
}

TEST(AttentionGolden, GroupedQueryAndLuongAttentionMatchTorch) {
  run_golden("layers_attention", attention_ops());
}

TEST(AttentionGolden, DecomposedKernelsMatchTorch) {
  // The projections without the fused Linear kernel, softmax without its fused kernel.
  backend::DecomposeScope decompose;
  run_golden("layers_attention_mha", attention_ops());
  run_golden("layers_attention", attention_ops());
}

// ---- helpers -------------------------------------------------------------------------------

Tensor randn(const Shape& shape, uint64_t seed) {
  return random::normal(shape, 0.0, 1.0, DType::Float32, static_cast<int64_t>(seed));
}

// Marks the timesteps whose features are all zero as masked (like Masking(0.0)).
class MaskPadding : public Layer {
 public:
  MaskPadding() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext&) override { return x; }
  Tensor compute_mask(const Tensor& x, const Tensor&) const override {
    return ops::any(ops::not_equal(x, 0.0), -1);
  }
};

Shape with_unknown_batch(Shape s) {
  s[0] = kUnknownDim;
  return s;
}

// ---- MultiHeadAttention ----------------------------------------------------------------------

TEST(MultiHeadAttention, WeightsFollowKerasLayout) {
  backend::clear_session();
  auto mha = layers::MultiHeadAttention(2, 3, {.value_dim = 4, .output_shape = {5}});
  EXPECT_EQ(mha->name(), "multi_head_attention");
  Tensor y = mha(randn({2, 3, 6}, 1), randn({2, 4, 7}, 2), {.key = randn({2, 4, 8}, 3)});
  EXPECT_EQ(y.shape(), Shape({2, 3, 5}));
  std::vector<Variable> w = mha->weights();
  ASSERT_EQ(w.size(), 8u);
  std::vector<Shape> shapes{{6, 2, 3}, {2, 3}, {8, 2, 3}, {2, 3},
                            {7, 2, 4}, {2, 4}, {2, 4, 5}, {5}};
  std::vector<std::string> paths{"query/kernel", "query/bias", "key/kernel", "key/bias",
                                 "value/kernel", "value/bias", "attention_output/kernel",
                                 "attention_output/bias"};
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(w[i].shape(), shapes[i]) << i;
    EXPECT_EQ(w[i].path(), paths[i]) << i;
  }
  // Tracked under the attribute names Keras's .keras files use for them.
  std::vector<std::string> attrs;
  for (const auto& [attr, sub] : mha->tracked_layers()) attrs.push_back(attr);
  EXPECT_EQ(attrs, (std::vector<std::string>{"query_dense", "key_dense", "value_dense",
                                             "output_dense"}));
  EXPECT_EQ(mha->query_dense()->class_name(), "EinsumDense");
  EXPECT_EQ(mha->query_dense()->get_config()["equation"], "abc,cde->abde");
  EXPECT_EQ(mha->output_dense()->get_config()["equation"], "abcd,cde->abe");
  EXPECT_EQ(mha->output_dense()->get_config()["bias_axes"], "e");
  EXPECT_EQ(mha->count_params(), 6 * 6 + 6 + 8 * 6 + 6 + 7 * 8 + 8 + 8 * 5 + 5);
  // glorot_uniform kernels, zero biases.
  EXPECT_EQ(ops::sum(ops::absolute(w[1].value())).item<float>(), 0.0f);
  auto gated = layers::MultiHeadAttention(2, 3, {.use_bias = false, .use_gate = true});
  gated(randn({1, 2, 4}, 4), randn({1, 3, 4}, 5));
  ASSERT_EQ(gated->weights().size(), 5u);
  EXPECT_EQ(gated->weights()[2].path(), "gate/kernel");
  EXPECT_EQ(gated->tracked_layers()[2].first, "_gate_dense");
}

TEST(MultiHeadAttention, SymbolicCallMatchesEagerShapes) {
  auto q = keras::Input({4, 6});
  auto v = keras::Input({5, 7});
  auto mha = layers::MultiHeadAttention(3, 2, {.output_shape = {2, 3}});
  KerasTensor y = mha(q, v);
  auto outs = mha->call_with(q, v, {.return_attention_scores = true});
  ASSERT_EQ(outs.size(), 2u);
  TensorList eager = mha->call_with(randn({2, 4, 6}, 1), randn({2, 5, 7}, 2),
                                    {.return_attention_scores = true});
  EXPECT_EQ(y.shape(), with_unknown_batch(eager[0].shape()));
  EXPECT_EQ(outs[0].shape(), with_unknown_batch(eager[0].shape()));
  EXPECT_EQ(outs[1].shape(), with_unknown_batch(eager[1].shape()));
  EXPECT_EQ(outs[1].shape(), Shape({-1, 3, 4, 5}));
  // High-dimensional attention over two axes: scores (B, N, 2, 3, 4, 5).
  auto q4 = keras::Input({2, 3, 8});
  auto v4 = keras::Input({4, 5, 8});
  auto mha4 = layers::MultiHeadAttention(2, 4);
  auto outs4 = mha4->call_with(q4, v4, {.return_attention_scores = true});
  EXPECT_EQ(outs4[0].shape(), Shape({-1, 2, 3, 8}));
  EXPECT_EQ(outs4[1].shape(), Shape({-1, 2, 2, 3, 4, 5}));
  // An attention mask in a symbolic call becomes an input of the node.
  auto m = keras::Input({4, 4}, {.dtype = DType::Bool});
  KerasTensor z = layers::MultiHeadAttention(2, 2)(q, q, {.key = q, .attention_mask = m});
  EXPECT_EQ(z.shape(), Shape({-1, 4, 6}));
  EXPECT_EQ(z.node()->inputs.size(), 4u);
}

TEST(MultiHeadAttention, FunctionalModelReplaysCallArguments) {
  auto x = keras::Input({5, 4});
  auto mask = keras::Input({5, 5}, {.dtype = DType::Bool});
  auto mha = layers::MultiHeadAttention(2, 3);
  auto outs = mha->call_with(x, x, {.attention_mask = mask, .return_attention_scores = true,
                                    .use_causal_mask = true});
  auto model = keras::Functional({x, mask}, outs);
  Tensor xv = randn({2, 5, 4}, 7);
  Tensor mv = ops::greater(random::uniform({2, 5, 5}, 0, 1, DType::Float32, 8), 0.3);
  TensorList got = model({xv, mv});
  TensorList want = mha->call_with(xv, xv, {.attention_mask = mv, .return_attention_scores = true,
                                            .use_causal_mask = true});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TENSOR_NEAR(got[0], want[0], 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(got[1], want[1], 1e-6, 1e-6);
  // Causal: nothing above the diagonal.
  Tensor upper = ops::triu(ops::ones({5, 5}), 1);
  EXPECT_EQ(ops::max(ops::multiply(got[1], upper)).item<float>(), 0.0f);

  // Two symbolic calls with different flags cannot be told apart by a model yet.
  auto shared = layers::MultiHeadAttention(2, 3);
  KerasTensor a = shared(x, x, {.use_causal_mask = true});
  KerasTensor b = shared(x, x);
  auto two = keras::Functional(std::vector<KerasTensor>{x}, std::vector<KerasTensor>{a, b});
  EXPECT_THROW(two(xv), NotImplementedError);
}

TEST(MultiHeadAttention, AttachedMasksActAsPaddingMasks) {
  // Rows of zeros are padding (MaskPadding attaches the mask, as Masking would).
  Tensor q = randn({2, 4, 6}, 11), v = randn({2, 5, 6}, 12);
  Tensor qkeep = ops::convert_to_tensor(std::vector<bool>{1, 1, 1, 0, 1, 1, 0, 0}, {2, 4});
  Tensor vkeep = ops::convert_to_tensor(std::vector<bool>{1, 1, 0, 1, 0, 1, 1, 1, 1, 0}, {2, 5});
  Tensor qz = ops::where(ops::expand_dims(qkeep, -1), q, 0.0);
  Tensor vz = ops::where(ops::expand_dims(vkeep, -1), v, 0.0);
  auto masking = make_layer<MaskPadding>();
  Tensor qm = masking(qz), vm = masking(vz);
  auto mha = layers::MultiHeadAttention(2, 3);
  TensorList attached = mha->call_with(qm, vm, {.return_attention_scores = true});
  TensorList expl = mha->call_with(qz, vz, {.query_mask = qkeep, .value_mask = vkeep,
                                            .return_attention_scores = true});
  EXPECT_TENSOR_NEAR(attached[0], expl[0], 0, 0);
  EXPECT_TENSOR_NEAR(attached[1], expl[1], 0, 0);
  // The output carries the query's mask; the scores carry none.
  ASSERT_TRUE(attached[0].impl()->keras_mask);
  EXPECT_TENSOR_EQ(Tensor(attached[0].impl()->keras_mask), qkeep);
  EXPECT_FALSE(attached[1].impl()->keras_mask);
  // Masked keys get no weight; masked query rows have all-zero scores (Keras's Softmax).
  Tensor s = attached[1];  // (2, 2, 4, 5)
  Tensor key_masked = ops::logical_not(ops::reshape(vkeep, {2, 1, 1, 5}));
  EXPECT_EQ(ops::max(ops::where(key_masked, s, 0.0)).item<float>(), 0.0f);
  Tensor rows = ops::sum(s, -1);  // 1 for kept queries, 0 for masked ones
  Tensor want = ops::broadcast_to(ops::cast(ops::reshape(qkeep, {2, 1, 4}), DType::Float32),
                                  {2, 2, 4});
  EXPECT_TENSOR_NEAR(rows, want, 1e-6, 1e-6);
}

TEST(MultiHeadAttention, DropoutIsActiveOnlyInTrainingAndUnbiased) {
  // Seeded weights: the statistical bound below held for most random weights but not all (it
  // failed about 1 run in 15 with OS-seeded initializers).
  utils::set_random_seed(5);
  auto mha = layers::MultiHeadAttention(2, 4, {.dropout = 0.5, .seed = 3});
  Tensor q = randn({2, 3, 4}, 21), v = randn({2, 6, 4}, 22);
  TensorList inference = mha->call_with(q, v, {.return_attention_scores = true});
  TensorList train = mha->call_with(q, v, {.return_attention_scores = true, .training = true});
  // The returned scores are taken before dropout (as Keras returns them).
  EXPECT_TENSOR_NEAR(train[1], inference[1], 1e-6, 1e-6);
  EXPECT_FALSE(tensors_near(train[0], inference[0], 1e-3, 1e-3, true));
  // E[dropout(p)] = p, so the mean of many training outputs approaches the inference output.
  Tensor sum = ops::zeros_like(inference[0]);
  const int n = 400;
  for (int i = 0; i < n; ++i) sum = ops::add(sum, mha(q, v, {.training = true}));
  Tensor mean = ops::divide(sum, static_cast<double>(n));
  double scale = ops::max(ops::absolute(inference[0])).item<float>();
  EXPECT_LT(ops::max(ops::absolute(ops::subtract(mean, inference[0]))).item<float>(),
            0.1 * scale);
  // The same seed gives the same draws.
  auto again = layers::MultiHeadAttention(2, 4, {.dropout = 0.5, .seed = 3});
  again->ensure_built({q.shape(), v.shape()}, true);
  again->set_weights(mha->get_weights());
  auto fresh = layers::MultiHeadAttention(2, 4, {.dropout = 0.5, .seed = 3});
  fresh->ensure_built({q.shape(), v.shape()}, true);
  fresh->set_weights(mha->get_weights());
  EXPECT_TENSOR_NEAR(again(q, v, {.training = true}), fresh(q, v, {.training = true}), 0, 0);
}

TEST(MultiHeadAttention, ConfigRoundTrips) {
  auto mha = layers::MultiHeadAttention(
      4, 8, {.value_dim = 6, .dropout = 0.1, .output_shape = {5}, .attention_axes = {{1}},
             .kernel_initializer = initializers::HeNormal(3), .kernel_regularizer = "l2",
             .bias_constraint = "non_neg", .seed = 7, .name = "mha"});
  Config c = mha->get_config();
  for (const char* key : {"name", "trainable", "dtype", "num_heads", "key_dim", "value_dim",
                          "dropout", "use_bias", "output_shape", "attention_axes",
                          "kernel_initializer", "bias_initializer", "kernel_regularizer",
                          "bias_regularizer", "activity_regularizer", "kernel_constraint",
                          "bias_constraint", "seed", "use_gate", "sliding_window"})
    EXPECT_TRUE(c.contains(key)) << key;
  EXPECT_EQ(c.size(), 20u) << c.dump();  // exactly Keras 3.15's keys
  EXPECT_EQ(c["num_heads"], 4);
  EXPECT_EQ(c["value_dim"], 6);
  EXPECT_EQ(c["output_shape"], Config::array({5}));
  EXPECT_EQ(c["attention_axes"], Config::array({1}));
  EXPECT_EQ(c["seed"], 7);
  EXPECT_TRUE(c["activity_regularizer"].is_null());
  EXPECT_EQ(layers::from_config("MultiHeadAttention", c)->get_config(), c);
  EXPECT_EQ(layers::deserialize(layers::serialize(*mha))->get_config(), c);

  // Defaults: value_dim = key_dim, no output_shape, attention_axes set by build (as Keras).
  auto plain = layers::MultiHeadAttention(2, 3);
  Config p = plain->get_config();
  EXPECT_EQ(p["value_dim"], 3);
  EXPECT_TRUE(p["output_shape"].is_null());
  EXPECT_TRUE(p["attention_axes"].is_null());
  EXPECT_TRUE(p["seed"].is_null());
  EXPECT_EQ(p["dropout"], 0.0);
  EXPECT_EQ(p["use_gate"], false);
  EXPECT_TRUE(p["sliding_window"].is_null());
  plain(randn({1, 2, 4}, 1), randn({1, 3, 4}, 2));
  EXPECT_EQ(plain->get_config()["attention_axes"], Config::array({1}));
  EXPECT_EQ(layers::deserialize(layers::serialize(*plain))->get_config(), plain->get_config());

  // Newer keys are written when set and read back.
  auto gated = layers::MultiHeadAttention(2, 3, {.attention_axes = {{-2}}, .sliding_window = 4,
                                                 .use_gate = true});
  Config g = gated->get_config();
  EXPECT_EQ(g["use_gate"], true);
  EXPECT_EQ(g["sliding_window"], 4);
  EXPECT_EQ(layers::from_config("MultiHeadAttention", g)->get_config(), g);
  // A config as Keras writes it: an int output_shape and attention_axes.
  Config k = p;
  k["output_shape"] = 5;
  k["attention_axes"] = 1;
  auto from_keras = std::dynamic_pointer_cast<MultiHeadAttentionLayer>(
      layers::from_config("MultiHeadAttention", k));
  EXPECT_EQ(from_keras->get_config()["output_shape"], Config::array({5}));
  EXPECT_EQ(from_keras->get_config()["attention_axes"], Config::array({1}));
}

TEST(MultiHeadAttention, RegularizersAddLosses) {
  auto mha = layers::MultiHeadAttention(2, 3, {.kernel_regularizer = "l2",
                                               .activity_regularizer = "l1"});
  Tensor q = randn({2, 3, 4}, 1), v = randn({2, 5, 4}, 2);
  mha(q, v);
  TensorList losses = mha->losses();
  // Per projection (as Keras passes the regularizers to the EinsumDense sublayers): its
  // activity penalty, then its kernel penalty.
  ASSERT_EQ(losses.size(), 8u);
  std::vector<std::shared_ptr<Layer>> subs{mha->query_dense(), mha->key_dense(),
                                           mha->value_dense(), mha->output_dense()};
  for (size_t i = 0; i < subs.size(); ++i) {
    Tensor k = subs[i]->weights()[0].value();
    EXPECT_NEAR(losses[2 * i + 1].item<float>(), 0.01 * ops::sum(ops::square(k)).item<float>(),
                1e-5);
  }
  // The query projection (zero bias) of the (2, 3, 4) query: q @ kernel (4, 2 * 3).
  Tensor kq = ops::reshape(mha->query_dense()->weights()[0].value(), {4, 6});
  Tensor projected = ops::matmul(ops::reshape(q, {6, 4}), kq);
  EXPECT_NEAR(losses[0].item<float>(), 0.01 * ops::sum(ops::absolute(projected)).item<float>(),
              1e-5);
  EXPECT_EQ(mha->trainable_weights().size(), 8u);
  mha->set_trainable(false);
  EXPECT_EQ(mha->trainable_weights().size(), 0u);
  EXPECT_EQ(mha->non_trainable_weights().size(), 8u);
}

TEST(MultiHeadAttention, BadArgumentsAndInputsAreNamed) {
  EXPECT_THROW(layers::MultiHeadAttention(0, 2), ValueError);
  EXPECT_THROW(layers::MultiHeadAttention(2, 0), ValueError);
  EXPECT_THROW(layers::MultiHeadAttention(2, 2, {.value_dim = 0}), ValueError);
  EXPECT_THROW(layers::MultiHeadAttention(2, 2, {.dropout = 1.5}), ValueError);
  EXPECT_THROW(layers::MultiHeadAttention(2, 2, {.sliding_window = 0}), ValueError);
  EXPECT_THROW(layers::MultiHeadAttention(2, 2, {.dropout = 0.1, .flash_attention = true}),
               ValueError);
  auto mha = layers::MultiHeadAttention(2, 2, {.name = "attn"});
  // A single input is not enough.
  try {
    mha(randn({2, 3, 4}, 1));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("attn"), std::string::npos) << e.what();
  }
  auto m2 = layers::MultiHeadAttention(2, 2);
  // Value and key must agree on every axis but the last.
  try {
    m2(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2), {.key = randn({2, 6, 4}, 3)});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(2, 6, 4)"), std::string::npos) << e.what();
  }
  auto m3 = layers::MultiHeadAttention(2, 2);
  m3(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2));
  EXPECT_THROW(m3(randn({2, 3, 5}, 1), randn({2, 5, 4}, 2)), ValueError);  // query dim
  EXPECT_THROW(m3({randn({2, 3, 4}, 1)}), ValueError);                      // one input
  EXPECT_THROW(m3(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2),
                  {.attention_mask = ops::ones({1, 1, 2, 3, 5}, DType::Bool)}),
               ValueError);  // mask of a higher rank than the scores
  EXPECT_THROW(m3(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2), {.return_attention_scores = true}),
               ValueError);  // the scores need call_with()
  EXPECT_THROW(layers::MultiHeadAttention(2, 2, {.attention_axes = {{3}}})(
                   randn({2, 3, 4}, 1), randn({2, 3, 4}, 2)),
               ValueError);  // the feature axis
  EXPECT_THROW(layers::MultiHeadAttention(2, 2)(randn({2, 4}, 1), randn({2, 4}, 2)), ValueError);
  auto flash = layers::MultiHeadAttention(2, 2, {.flash_attention = true});
  flash(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2));  // accepted (no flash kernel on cpu)
  EXPECT_THROW(flash->call_with(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2),
                                {.return_attention_scores = true}),
               ValueError);
}

// ---- GroupedQueryAttention -------------------------------------------------------------------

TEST(GroupedQueryAttention, WeightsFollowKerasLayout) {
  backend::clear_session();
  auto gqa = layers::GroupedQueryAttention(3, 4, 2, {.use_gate = true});
  EXPECT_EQ(gqa->name(), "grouped_query_attention");
  Tensor y = gqa(randn({2, 3, 6}, 1), randn({2, 5, 7}, 2), {.key = randn({2, 5, 8}, 3)});
  EXPECT_EQ(y.shape(), Shape({2, 3, 6}));
  std::vector<Variable> w = gqa->weights();
  std::vector<Shape> shapes{{6, 4, 3}, {4, 3}, {8, 2, 3}, {2, 3}, {6, 4, 3},
                            {4, 3},    {7, 2, 3}, {2, 3}, {4, 3, 6}, {6}};
  ASSERT_EQ(w.size(), shapes.size());
  for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i].shape(), shapes[i]) << i;
  std::vector<std::string> attrs;
  for (const auto& [attr, sub] : gqa->tracked_layers()) attrs.push_back(attr);
  EXPECT_EQ(attrs, (std::vector<std::string>{"_query_dense", "_key_dense", "_gate_dense",
                                             "_value_dense", "_output_dense"}));
  EXPECT_EQ(gqa->output_dense()->get_config()["equation"], "bquh,uhm->bqm");
  EXPECT_EQ(layers::GroupQueryAttention(2, 2, 1)->class_name(), "GroupedQueryAttention");
}

TEST(GroupedQueryAttention, SymbolicCallMatchesEagerShapes) {
  auto q = keras::Input({4, 6});
  auto v = keras::Input({5, 6});
  auto gqa = layers::GroupedQueryAttention(2, 4, 2);
  auto outs = gqa->call_with(q, v, {.return_attention_scores = true, .use_causal_mask = true});
  TensorList eager = gqa->call_with(randn({3, 4, 6}, 1), randn({3, 5, 6}, 2),
                                    {.return_attention_scores = true, .use_causal_mask = true});
  EXPECT_EQ(outs[0].shape(), with_unknown_batch(eager[0].shape()));
  EXPECT_EQ(outs[1].shape(), with_unknown_batch(eager[1].shape()));
  EXPECT_EQ(outs[1].shape(), Shape({-1, 4, 4, 5}));
  EXPECT_EQ(gqa(q, v).shape(), Shape({-1, 4, 6}));
}

TEST(GroupedQueryAttention, DropoutAndMasks) {
  // Seeded weights: with the OS-seeded default, the 400-draw mean below misses its 10% bound
  // for a few percent of weight draws, and the test failed now and then.
  utils::set_random_seed(11);
  auto gqa = layers::GroupedQueryAttention(2, 4, 2, {.dropout = 0.4, .seed = 5});
  Tensor q = randn({2, 3, 4}, 1), v = randn({2, 5, 4}, 2);
  TensorList inf = gqa->call_with(q, v, {.return_attention_scores = true});
  TensorList tr = gqa->call_with(q, v, {.return_attention_scores = true, .training = true});
  EXPECT_TENSOR_NEAR(tr[1], inf[1], 1e-6, 1e-6);
  EXPECT_FALSE(tensors_near(tr[0], inf[0], 1e-3, 1e-3, true));
  Tensor sum = ops::zeros_like(inf[0]);
  for (int i = 0; i < 400; ++i) sum = ops::add(sum, gqa(q, v, {.training = true}));
  double scale = ops::max(ops::absolute(inf[0])).item<float>();
  EXPECT_LT(ops::max(ops::absolute(ops::subtract(ops::divide(sum, 400.0), inf[0])))
                .item<float>(),
            0.1 * scale);
  // Attached masks reach the layer; the output carries the query's.
  Tensor qkeep = ops::convert_to_tensor(std::vector<bool>{1, 1, 0, 1, 0, 1}, {2, 3});
  Tensor qz = ops::where(ops::expand_dims(qkeep, -1), q, 0.0);
  Tensor qm = make_layer<MaskPadding>()(qz);
  Tensor y = gqa(qm, v);
  ASSERT_TRUE(y.impl()->keras_mask);
  EXPECT_TENSOR_NEAR(y, gqa(qz, v, {.query_mask = qkeep}), 0, 0);
}

TEST(GroupedQueryAttention, ConfigRoundTrips) {
  auto gqa = layers::GroupedQueryAttention(
      8, 4, 2, {.dropout = 0.2, .use_bias = false, .kernel_regularizer = "l1",
                .activity_regularizer = "l2", .seed = 1, .name = "gqa"});
  Config c = gqa->get_config();
  for (const char* key : {"name", "trainable", "dtype", "head_dim", "num_query_heads",
                          "num_key_value_heads", "use_bias", "dropout", "kernel_initializer",
                          "bias_initializer", "kernel_regularizer", "bias_regularizer",
                          "activity_regularizer", "kernel_constraint", "bias_constraint",
                          "seed", "use_gate", "sliding_window"})
    EXPECT_TRUE(c.contains(key)) << key;
  EXPECT_EQ(c.size(), 18u) << c.dump();  // Keras 3.15's keys
  EXPECT_EQ(c["num_key_value_heads"], 2);
  EXPECT_EQ(c["activity_regularizer"]["class_name"], "L2");
  EXPECT_EQ(layers::from_config("GroupedQueryAttention", c)->get_config(), c);
  EXPECT_EQ(layers::from_config("GroupQueryAttention", c)->get_config(), c);
  EXPECT_EQ(layers::deserialize(layers::serialize(*gqa))->get_config(), c);
  auto newer = layers::GroupedQueryAttention(2, 2, 1, {.sliding_window = 3, .use_gate = true});
  Config n = newer->get_config();
  EXPECT_EQ(n["sliding_window"], 3);
  EXPECT_EQ(n["use_gate"], true);
  EXPECT_EQ(layers::from_config("GroupedQueryAttention", n)->get_config(), n);
  // Keras sets GroupedQueryAttention's own activity regularizer too: the output is penalized
  // besides the four projections.
  gqa(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2));
  EXPECT_EQ(gqa->losses().size(), 4u + 4u + 1u);
}

TEST(GroupedQueryAttention, BadArgumentsAndInputsAreNamed) {
  EXPECT_THROW(layers::GroupedQueryAttention(2, 3, 2), ValueError);  // 3 % 2 != 0
  EXPECT_THROW(layers::GroupedQueryAttention(0, 2, 2), ValueError);
  EXPECT_THROW(layers::GroupedQueryAttention(2, 2, 0), ValueError);
  auto gqa = layers::GroupedQueryAttention(2, 2, 1);
  EXPECT_THROW(gqa(randn({2, 3, 4, 4}, 1), randn({2, 3, 4, 4}, 2)), ValueError);  // rank 4
  auto g2 = layers::GroupedQueryAttention(2, 2, 1);
  g2(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2));
  EXPECT_THROW(g2(randn({2, 3, 4}, 1), randn({2, 5, 4}, 2), {.key = randn({2, 4, 4}, 3)}),
               ValueError);
}

// ---- Attention and AdditiveAttention --------------------------------------------------------

TEST(Attention, WeightsAndShapes) {
  backend::clear_session();
  auto plain = layers::Attention();
  EXPECT_EQ(plain->name(), "attention");
  Tensor y = plain({randn({2, 3, 4}, 1), randn({2, 5, 6}, 2), randn({2, 5, 4}, 3)})[0];
  EXPECT_EQ(y.shape(), Shape({2, 3, 6}));
  EXPECT_TRUE(plain->weights().empty());
  auto scaled = layers::Attention({.use_scale = true, .score_mode = "concat"});
  scaled({randn({2, 3, 4}, 1), randn({2, 5, 4}, 2)});
  ASSERT_EQ(scaled->weights().size(), 2u);
  EXPECT_EQ(scaled->weights()[0].path(), "attention_1/scale");
  EXPECT_EQ(scaled->weights()[1].path(), "attention_1/concat_score_weight");
  EXPECT_EQ(scaled->scale().shape(), Shape({}));
  EXPECT_EQ(scaled->scale().value().item<float>(), 1.0f);
  auto additive = layers::AdditiveAttention();
  EXPECT_EQ(additive->name(), "additive_attention");
  additive({randn({2, 3, 4}, 1), randn({2, 5, 4}, 2)});
  ASSERT_EQ(additive->weights().size(), 1u);
  EXPECT_EQ(additive->weights()[0].shape(), Shape({4}));
  EXPECT_TRUE(layers::AdditiveAttention({.use_scale = false})->weights().empty());
}

TEST(Attention, SymbolicCallsMatchEagerShapes) {
  auto q = keras::Input({3, 4});
  auto v = keras::Input({5, 6});
  auto k = keras::Input({5, 4});
  for (bool additive : {false, true}) {
    LayerPtr<AttentionLayer> layer =
        additive ? LayerPtr<AttentionLayer>(layers::AdditiveAttention()) : layers::Attention();
    auto outs = layer->call_with({q, v, k}, {.return_attention_scores = true});
    ASSERT_EQ(outs.size(), 2u);
    TensorList eager = layer->call_with({randn({2, 3, 4}, 1), randn({2, 5, 6}, 2),
                                         randn({2, 5, 4}, 3)},
                                        {.return_attention_scores = true});
    EXPECT_EQ(outs[0].shape(), with_unknown_batch(eager[0].shape()));
    EXPECT_EQ(outs[1].shape(), with_unknown_batch(eager[1].shape()));
    EXPECT_EQ(outs[1].shape(), Shape({-1, 3, 5}));
    EXPECT_EQ(layer(std::vector<KerasTensor>{q, v, k})[0].shape(), Shape({-1, 3, 6}));
  }
}

TEST(Attention, AttachedMasksAndCausalMask) {
  Tensor q = randn({2, 4, 3}, 1), v = randn({2, 4, 3}, 2);
  Tensor qkeep = ops::convert_to_tensor(std::vector<bool>{1, 1, 0, 1, 1, 0, 1, 1}, {2, 4});
  Tensor vkeep = ops::convert_to_tensor(std::vector<bool>{1, 0, 1, 1, 1, 1, 0, 1}, {2, 4});
  Tensor qz = ops::where(ops::expand_dims(qkeep, -1), q, 0.0);
  Tensor vz = ops::where(ops::expand_dims(vkeep, -1), v, 0.0);
  auto masking = make_layer<MaskPadding>();
  auto attention = layers::Attention();
  TensorList attached = attention->call_with({masking(qz), masking(vz)},
                                             {.return_attention_scores = true,
                                              .use_causal_mask = true});
  TensorList expl = attention->call_with({qz, vz}, {.mask = {qkeep, vkeep},
                                                    .return_attention_scores = true,
                                                    .use_causal_mask = true});
  EXPECT_TENSOR_NEAR(attached[0], expl[0], 0, 0);
  EXPECT_TENSOR_NEAR(attached[1], expl[1], 0, 0);
  ASSERT_TRUE(attached[0].impl()->keras_mask);
  EXPECT_TENSOR_EQ(Tensor(attached[0].impl()->keras_mask), qkeep);
  // Masked query rows are zero; nothing above the diagonal or on masked values.
  Tensor zero_rows = ops::where(ops::expand_dims(qkeep, -1), 0.0, attached[0]);
  EXPECT_EQ(ops::max(ops::absolute(zero_rows)).item<float>(), 0.0f);
  Tensor banned = ops::logical_or(ops::cast(ops::triu(ops::ones({4, 4}), 1), DType::Bool),
                                  ops::logical_not(ops::expand_dims(vkeep, 1)));
  EXPECT_EQ(ops::max(ops::where(banned, attached[1], 0.0)).item<float>(), 0.0f);
}

TEST(Attention, DropoutZeroesScoresAtTheRate) {
  auto attention = layers::Attention({.dropout = 0.3, .seed = 2});
  Tensor q = randn({8, 16, 4}, 1), v = randn({8, 32, 4}, 2);
  TensorList inf = attention->call_with({q, v}, {.return_attention_scores = true});
  TensorList tr = attention->call_with({q, v}, {.return_attention_scores = true,
                                                .training = true});
  // Keras returns the scores after dropout: each is 0 or p / (1 - rate).
  std::vector<float> a = tr[1].to_vector<float>(), b = inf[1].to_vector<float>();
  int zeros = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == 0.0f) ++zeros;
    else EXPECT_NEAR(a[i], b[i] / 0.7f, 1e-6f);
  }
  const double n = static_cast<double>(a.size()), rate = 0.3;
  EXPECT_NEAR(zeros / n, rate, 4 * std::sqrt(rate * (1 - rate) / n));
  EXPECT_TENSOR_NEAR(tr[0], ops::matmul(tr[1], v), 1e-5, 1e-5);
}

TEST(Attention, ConfigRoundTrips) {
  auto attention = layers::Attention({.use_scale = true, .score_mode = "concat",
                                      .dropout = 0.25, .name = "luong"});
  Config c = attention->get_config();
  EXPECT_EQ(c.size(), 7u) << c.dump();  // name, trainable, dtype + Keras 3.15's four
  EXPECT_TRUE(c["seed"].is_null());
  EXPECT_EQ(c["score_mode"], "concat");
  EXPECT_EQ(c["use_scale"], true);
  EXPECT_EQ(c["dropout"], 0.25);
  EXPECT_EQ(layers::from_config("Attention", c)->get_config(), c);
  EXPECT_EQ(layers::deserialize(layers::serialize(*attention))->get_config(), c);
  auto seeded = layers::Attention({.seed = 4});
  EXPECT_EQ(seeded->get_config()["seed"], 4);
  EXPECT_EQ(layers::from_config("Attention", seeded->get_config())->get_config(),
            seeded->get_config());

  auto additive = layers::AdditiveAttention({.use_scale = false, .dropout = 0.5});
  Config a = additive->get_config();
  EXPECT_FALSE(a.contains("score_mode"));
  EXPECT_EQ(a.size(), 6u) << a.dump();  // with the seed, as Keras 3.15
  EXPECT_EQ(a["use_scale"], false);
  EXPECT_EQ(layers::from_config("AdditiveAttention", a)->get_config(), a);
  EXPECT_EQ(layers::deserialize(layers::serialize(*additive))->get_config(), a);
  EXPECT_EQ(layers::deserialize(layers::serialize(*additive))->class_name(), "AdditiveAttention");
}

TEST(Attention, BadArgumentsAndInputsAreNamed) {
  EXPECT_THROW(layers::Attention({.score_mode = "add"}), ValueError);
  EXPECT_THROW(layers::Attention({.dropout = -0.1}), ValueError);
  auto attention = layers::Attention({.name = "att"});
  try {
    attention(randn({2, 3, 4}, 1));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("att"), std::string::npos) << e.what();
  }
  auto a2 = layers::Attention();
  EXPECT_THROW(a2({randn({2, 3, 4}, 1)}), ValueError);
  auto a3 = layers::Attention();
  EXPECT_THROW(a3({randn({2, 3, 4}, 1), randn({2, 5, 4}, 2), randn({2, 5, 4}, 3),
                   randn({2, 5, 4}, 4)}),
               ValueError);
  auto a4 = layers::Attention();
  EXPECT_THROW(a4->call_with({randn({2, 3, 4}, 1), randn({2, 5, 4}, 2)},
                             {.mask = {ops::ones({2, 3}, DType::Bool)}}),
               ValueError);
  auto q = keras::Input({3, 4});
  EXPECT_THROW(layers::Attention()->call_with({q, q}, {.mask = {Tensor(), Tensor()}}),
               ValueError);
  EXPECT_THROW(layers::AdditiveAttention()({randn({2, 3, 4}, 1), randn({2, 5, 5}, 2)}),
               ValueError);  // additive needs matching query and key features
}

}  // namespace
}  // namespace keras

// Every differentiable keras.ops.nn op against central differences in float64.

#include <gtest/gtest.h>

#include <cmath>

#include "gradcheck_helpers.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;
using test::sin_values;

using Fn = test::GradFn;

Tensor uniform(const Shape& shape, uint64_t seed, double lo, double hi) {
  std::vector<double> v(static_cast<size_t>(shape.numel()));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = lo + (hi - lo) * (0.5 + 0.5 * std::sin(static_cast<double>(seed * 97 + i * 13 + 3)));
  return Tensor::from_vector(v, shape);
}

using Unary = Tensor (*)(const Tensor&);

TEST(NnGradcheck, Activations) {
  Tensor x = randn({3, 5}, 1, 2.0);
  const std::vector<std::pair<std::string, Unary>> unary = {
      {"relu", ops::relu},
      {"relu6", ops::relu6},
      {"sigmoid", ops::sigmoid},
      {"sparse_sigmoid", ops::sparse_sigmoid},
      {"softplus", ops::softplus},
      {"softsign", ops::softsign},
      {"sparse_plus", ops::sparse_plus},
      {"silu", ops::silu},
      {"swish", ops::swish},
      {"log_sigmoid", ops::log_sigmoid},
      {"hard_sigmoid", ops::hard_sigmoid},
      {"hard_silu", ops::hard_silu},
      {"hard_swish", ops::hard_swish},
      {"selu", ops::selu},
      {"tanh_shrink", ops::tanh_shrink},
      {"hard_tanh", ops::hard_tanh},
  };
  for (auto& [name, f] : unary) expect_gradcheck(name, [f](auto& a) { return f(a[0]); }, {x});
  // Wider inputs so the linear pieces of relu6 and hard_sigmoid are all reached.
  Tensor wide = randn({3, 5}, 2, 4.5);
  expect_gradcheck("relu6_wide", [](auto& a) { return ops::relu6(a[0]); }, {wide});
  expect_gradcheck("hard_silu_wide", [](auto& a) { return ops::hard_silu(a[0]); }, {wide});
  expect_gradcheck("soft_shrink", [](auto& a) { return ops::soft_shrink(a[0]); }, {x});
  expect_gradcheck("soft_shrink_t", [](auto& a) { return ops::soft_shrink(a[0], 1.2); }, {x});
  expect_gradcheck("hard_shrink", [](auto& a) { return ops::hard_shrink(a[0], 0.7); }, {x});
  expect_gradcheck("squareplus", [](auto& a) { return ops::squareplus(a[0], 2.5); }, {x});
  expect_gradcheck("leaky_relu", [](auto& a) { return ops::leaky_relu(a[0]); }, {x});
  expect_gradcheck("leaky_relu_slope", [](auto& a) { return ops::leaky_relu(a[0], 0.05); }, {x});
  expect_gradcheck("elu", [](auto& a) { return ops::elu(a[0]); }, {x});
  expect_gradcheck("elu_alpha", [](auto& a) { return ops::elu(a[0], 0.4); }, {x});
  expect_gradcheck("celu", [](auto& a) { return ops::celu(a[0]); }, {x});
  expect_gradcheck("celu_alpha", [](auto& a) { return ops::celu(a[0], 2.5); }, {x});
  expect_gradcheck("gelu", [](auto& a) { return ops::gelu(a[0]); }, {x});
  expect_gradcheck("gelu_exact", [](auto& a) { return ops::gelu(a[0], false); }, {x});
  expect_gradcheck("threshold", [](auto& a) { return ops::threshold(a[0], 0.2, -1.0); }, {x});
  expect_gradcheck("glu", [](auto& a) { return ops::glu(a[0]); }, {randn({3, 6}, 3)});
  expect_gradcheck("glu_axis0", [](auto& a) { return ops::glu(a[0], 0); }, {randn({4, 3}, 4)});
}

TEST(NnGradcheck, Softmax) {
  Tensor x = randn({3, 4, 5}, 5, 1.5);
  for (bool decompose : {false, true}) {
    std::optional<backend::DecomposeScope> scope;
    if (decompose) scope.emplace();
    const std::string tag = decompose ? "_decomposed" : "_fused";
    expect_gradcheck("softmax" + tag, [](auto& a) { return ops::softmax(a[0]); }, {x});
    expect_gradcheck("softmax_axis1" + tag, [](auto& a) { return ops::softmax(a[0], 1); }, {x});
    expect_gradcheck("softmax_axes" + tag, [](auto& a) { return ops::softmax(a[0], {0, 2}); }, {x});
    expect_gradcheck("softmax_all" + tag, [](auto& a) { return ops::softmax(a[0], {}); }, {x});
    expect_gradcheck("log_softmax" + tag, [](auto& a) { return ops::log_softmax(a[0]); }, {x});
    expect_gradcheck("log_softmax_axis0" + tag, [](auto& a) { return ops::log_softmax(a[0], 0); },
                     {x});
    expect_gradcheck("log_softmax_axes" + tag,
                     [](auto& a) { return ops::log_softmax(a[0], {1, 2}); }, {x});
  }
  expect_gradcheck("sparsemax", [](auto& a) { return ops::sparsemax(a[0]); },
                   {randn({4, 6}, 6, 0.6)});
  expect_gradcheck("sparsemax_axis0", [](auto& a) { return ops::sparsemax(a[0], 0); },
                   {randn({5, 3}, 7, 0.6)});
}

TEST(NnGradcheck, SecondOrder) {
  // The rules are written with ops, so they differentiate again: check d/dx of a gradient.
  Tensor w = randn({2, 5}, 8);
  auto second = [w](Unary f) {
    return [w, f](const std::vector<Tensor>& a) {
      // An inner tape on the outer tape's input: its gradient is recorded by the outer one.
      Tensor z = a[0];
      GradientTape tape;
      tape.watch(z);
      return tape.gradient(ops::sum(ops::multiply(f(z), w)), z);
    };
  };
  Tensor x = randn({2, 5}, 9);
  const std::vector<std::pair<std::string, Unary>> fns = {
      {"softmax", [](const Tensor& z) { return ops::softmax(z); }},
      {"log_softmax", [](const Tensor& z) { return ops::log_softmax(z); }},
      {"sigmoid", ops::sigmoid},
      {"silu", ops::silu},
      {"gelu", [](const Tensor& z) { return ops::gelu(z); }},
      {"softplus", ops::softplus},
      {"elu", [](const Tensor& z) { return ops::elu(z); }},
  };
  for (auto& [name, f] : fns) expect_gradcheck(name + "_second_order", second(f), {x});
}

TEST(NnGradcheck, Losses) {
  Tensor t = uniform({3, 4}, 1, 0.0, 1.0), p = uniform({3, 4}, 2, 0.05, 0.95);
  Tensor logits = randn({3, 4}, 3, 2.0);
  expect_gradcheck("binary_crossentropy",
                   [](auto& a) { return ops::binary_crossentropy(a[0], a[1]); }, {t, p});
  expect_gradcheck("binary_crossentropy_logits",
                   [](auto& a) { return ops::binary_crossentropy(a[0], a[1], true); },
                   {t, logits});
  Tensor dist = ops::softmax(randn({3, 4}, 4));
  Tensor probs = uniform({3, 4}, 5, 0.1, 2.0);
  expect_gradcheck("categorical_crossentropy",
                   [](auto& a) { return ops::categorical_crossentropy(a[0], a[1]); },
                   {dist, probs});
  expect_gradcheck("categorical_crossentropy_logits",
                   [](auto& a) { return ops::categorical_crossentropy(a[0], a[1], true); },
                   {dist, logits});
  expect_gradcheck("categorical_crossentropy_axis0",
                   [](auto& a) { return ops::categorical_crossentropy(a[0], a[1], true, 0); },
                   {dist, logits});
  Tensor labels = Tensor::from_vector(std::vector<int32_t>{3, 0, 2}, {3});
  expect_gradcheck(
      "sparse_categorical_crossentropy",
      [labels](auto& a) { return ops::sparse_categorical_crossentropy(labels, a[0]); }, {probs});
  expect_gradcheck(
      "sparse_categorical_crossentropy_logits",
      [labels](auto& a) { return ops::sparse_categorical_crossentropy(labels, a[0], true); },
      {logits});
  Tensor seq_labels = Tensor::from_vector(std::vector<int32_t>{1, 0, 3, 2, 2, 0}, {2, 3});
  expect_gradcheck("sparse_categorical_crossentropy_axis1",
                   [seq_labels](auto& a) {
                     return ops::sparse_categorical_crossentropy(seq_labels, a[0], true, 1);
                   },
                   {randn({2, 4, 3}, 6)});
  expect_gradcheck("psnr", [](auto& a) { return ops::psnr(a[0], a[1], 1.0); },
                   {uniform({2, 3}, 7, 0, 1), uniform({2, 3}, 8, 0, 1)});
}

TEST(NnGradcheck, Normalization) {
  Tensor x = randn({3, 4, 2}, 10, 1.0, 0.5);
  expect_gradcheck("moments_mean", [](auto& a) { return ops::moments(a[0], {0, 2}).first; }, {x});
  expect_gradcheck("moments_variance",
                   [](auto& a) { return ops::moments(a[0], {1}, true).second; }, {x});
  Tensor mean = randn({4}, 11), var = uniform({4}, 12, 0.5, 2.0);
  Tensor offset = randn({4}, 13), scale = randn({4}, 14);
  expect_gradcheck("batch_normalization",
                   [](auto& a) { return ops::batch_normalization(a[0], a[1], a[2], 1, a[3], a[4]); },
                   {x, mean, var, offset, scale});
  expect_gradcheck("batch_normalization_plain",
                   [](auto& a) { return ops::batch_normalization(a[0], a[1], a[2], -2); },
                   {x, mean, var});
  Tensor y = randn({3, 5}, 15, 2.0, 1.0);
  Tensor gamma = randn({5}, 16), beta = randn({5}, 17);
  expect_gradcheck("layer_normalization",
                   [](auto& a) { return ops::layer_normalization(a[0], a[1], a[2]); },
                   {y, gamma, beta});
  expect_gradcheck("layer_normalization_axes",
                   [](auto& a) { return ops::layer_normalization(a[0], a[1], Tensor(), {1, 2}); },
                   {x, randn({4, 2}, 18)});
  expect_gradcheck("rms_normalization",
                   [](auto& a) { return ops::rms_normalization(a[0], a[1]); }, {y, gamma});
  expect_gradcheck("rms_normalization_axes",
                   [](auto& a) { return ops::rms_normalization(a[0], Tensor(), {0, 1}); }, {y});
  for (int order : {1, 2, 3})
    expect_gradcheck("normalize_order" + std::to_string(order),
                     [order](auto& a) { return ops::normalize(a[0], -1, order); }, {y});
  expect_gradcheck("normalize_axes", [](auto& a) { return ops::normalize(a[0], {0, 1}); }, {y});
  expect_gradcheck("normalize_matrix_order1",
                   [](auto& a) { return ops::normalize(a[0], {0, 1}, 1); }, {y});
}

TEST(NnGradcheck, Attention) {
  Tensor q = randn({2, 3, 2, 4}, 20), k = randn({2, 5, 2, 4}, 21), v = randn({2, 5, 2, 4}, 22);
  expect_gradcheck("dot_product_attention",
                   [](auto& a) { return ops::dot_product_attention(a[0], a[1], a[2]); },
                   {q, k, v});
  expect_gradcheck("dot_product_attention_bias",
                   [](auto& a) {
                     return ops::dot_product_attention(a[0], a[1], a[2], {.bias = a[3], .scale = 0.7});
                   },
                   {q, k, v, randn({2, 1, 3, 5}, 23)});
  std::vector<bool> keep;
  for (int i = 0; i < 2 * 3 * 5; ++i) keep.push_back(i % 4 != 1);
  Tensor mask = Tensor::from_vector(keep, {2, 1, 3, 5});
  expect_gradcheck("dot_product_attention_mask_causal",
                   [mask](auto& a) {
                     return ops::dot_product_attention(a[0], a[1], a[2],
                                                       {.mask = mask, .is_causal = true});
                   },
                   {q, k, v});
  Tensor qg = randn({1, 3, 4, 2}, 24), kg = randn({1, 4, 2, 2}, 25), vg = randn({1, 4, 2, 2}, 26);
  expect_gradcheck("dot_product_attention_gqa",
                   [](auto& a) { return ops::dot_product_attention(a[0], a[1], a[2]); },
                   {qg, kg, vg});
}

}  // namespace
}  // namespace keras

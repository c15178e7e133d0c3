// The cpu backend's int4_matmul (a weight-only int4 Dense's product, its kernel unpacked panel
// by panel): the layer's output after quantize("int4"), per channel and in blocks, is Keras's
// formula written out here in double from the stored bytes (keras/src/layers/core/dense.py
// _int4_call: the nibbles as two's complement, low nibble first; per channel x @ q / scale,
// per group x @ ((q - zero[g_idx]) * scale[g_idx])), on every shape the panels split oddly,
// eagerly and in a compiled predict (the same bits as the eager call); a g_idx naming no group
// is an IndexError.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "keras/keras.h"

namespace keras {
namespace {

// A nibble of the packed kernel as a signed value: 0..7 as is, 8..15 as -8..-1.
int nibble(int8_t byte, bool high) {
  const int v = high ? (static_cast<uint8_t>(byte) >> 4) : (static_cast<uint8_t>(byte) & 0x0F);
  return v >= 8 ? v - 16 : v;
}

// Keras's int4 Dense on x (m, k) from the layer's stored variables, plus its bias.
std::vector<double> keras_int4_dense(const layers::DenseLayer& layer, const std::vector<float>& x,
                                     int64_t m, int64_t k, int64_t n) {
  const std::vector<int8_t> packed = layer.kernel_variable().value().to_vector<int8_t>();
  const std::vector<float> scale = layer.kernel_scale().value().to_vector<float>();
  const std::vector<float> bias = layer.bias().value().to_vector<float>();
  const bool grouped = layer.kernel_zero().defined();
  const std::vector<int8_t> zero =
      grouped ? layer.kernel_zero().value().to_vector<int8_t>() : std::vector<int8_t>{};
  const std::vector<float> g_idx =
      grouped ? layer.g_idx().value().to_vector<float>() : std::vector<float>{};
  const int64_t row_bytes = (n + 1) / 2;
  std::vector<double> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t r = 0; r < k; ++r) {
        const double q = nibble(packed[r * row_bytes + j / 2], j % 2 == 1);
        double w = q;
        if (grouped) {
          const auto g = static_cast<int64_t>(g_idx[r]);
          w = (q - zero[g * n + j]) * static_cast<double>(scale[g * n + j]);
        }
        acc += static_cast<double>(x[i * k + r]) * w;
      }
      y[i * n + j] = (grouped ? acc : acc / scale[j]) + bias[j];
    }
  return y;
}

void expect_close(const std::vector<float>& got, const std::vector<double>& want,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 2e-5 * (1.0 + std::fabs(want[i]))) << what << " at " << i;
}

std::shared_ptr<layers::DenseLayer> int4_dense(int64_t k, int64_t n, int64_t block_size) {
  auto layer = layers::Dense(n, {.bias_initializer = "random_normal"});
  (*layer)(random::normal({1, k}));
  layer->quantize("int4", quantizers::Int4QuantizationConfig({.block_size = block_size}));
  return layer;
}

TEST(Int4Matmul, MatchesKerasPerChannelAndInBlocks) {
  // Units odd (a last half byte), below and above a 64-column panel; rows 0, 1 and more than a
  // block; blocks that do not divide the rows.
  for (const int64_t block_size : {int64_t{-1}, int64_t{128}, int64_t{48}}) {
    for (const auto& [k, n] : {std::pair<int64_t, int64_t>{300, 130}, {64, 7}, {200, 64}}) {
      auto layer = int4_dense(k, n, block_size);
      for (const int64_t m : {0, 1, 5, 33}) {
        const Tensor x = random::normal({m, k}, 0, 1, DType::Float32, 7);
        const std::string what = "block " + std::to_string(block_size) + " k " +
                                 std::to_string(k) + " n " + std::to_string(n) + " m " +
                                 std::to_string(m);
        expect_close((*layer)(x).to_vector<float>(),
                     keras_int4_dense(*layer, x.to_vector<float>(), m, k, n), what);
      }
    }
  }
}

TEST(Int4Matmul, FollowsAPermutedGroupIndex) {
  // GPTQ's activation order stores g_idx out of order: each row's own group must be used.
  const int64_t k = 96, n = 40;
  auto layer = int4_dense(k, n, 32);
  std::vector<float> g_idx(static_cast<size_t>(k));
  for (int64_t r = 0; r < k; ++r) g_idx[r] = static_cast<float>((r * 7) % 3);
  Variable(layer->g_idx()).assign(Tensor::from_vector(g_idx, {k}));  // a handle: the layer's
  const Tensor x = random::normal({9, k}, 0, 1, DType::Float32, 3);
  expect_close((*layer)(x).to_vector<float>(), keras_int4_dense(*layer, x.to_vector<float>(), 9, k, n),
               "permuted g_idx");
}

TEST(Int4Matmul, AGroupIndexOutOfRangeIsAnIndexError) {
  const int64_t k = 64, n = 8;
  auto layer = int4_dense(k, n, 32);  // two groups
  std::vector<float> g_idx(static_cast<size_t>(k), 0.0f);
  g_idx[5] = 2.0f;
  Variable(layer->g_idx()).assign(Tensor::from_vector(g_idx, {k}));  // a handle: the layer's
  try {
    (*layer)(random::normal({2, k}));
    FAIL() << "a g_idx naming a third group of two was accepted";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("g_idx"), std::string::npos) << e.what();
  }
}

TEST(Int4Matmul, CompiledPredictGivesTheEagerOutputs) {
  const int64_t k = 100, n = 70;
  auto dense = layers::Dense(n, {.activation = "relu", .bias_initializer = "random_normal"});
  auto model = Sequential({Input({k}), dense});
  model->quantize("int4");
  const Tensor x = random::normal({64, k}, 0, 1, DType::Float32, 11);
  const std::vector<float> eager = (*model)(x).to_vector<float>();
  std::vector<double> keras = keras_int4_dense(*dense, x.to_vector<float>(), 64, k, n);
  for (double& v : keras) v = std::max(v, 0.0);
  expect_close(eager, keras, "eager");
  for (int run = 0; run < 3; ++run)  // the later calls replay the compiled program
    EXPECT_EQ(model->predict(x, {.batch_size = 64, .verbose = 0}).single().to_vector<float>(), eager);
}

}  // namespace
}  // namespace keras

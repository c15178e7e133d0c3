// The cpu backend's int8_linear (a quantized Dense's call): at every instruction-set level this
// CPU runs and after every way a kernel gets new values, its output is Keras's int8 formula.
// Outputs are checked against Keras's int8 Dense formula written out here in float32 and an
// int32 loop (keras/src/layers/core/dense.py _int8_call with abs_max_quantize on the inputs).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "../../backends/cpu/src/int8_gemm.h"
#include "../../backends/cpu/src/isa.h"
#include "keras/keras.h"

namespace keras {
namespace {

// (x quantized per row) @ kernel / (kernel_scale * inputs_scale) + bias, as Keras computes it.
std::vector<float> keras_int8_dense(const std::vector<float>& x, int64_t m, int64_t k,
                                    const std::vector<int8_t>& kernel,
                                    const std::vector<float>& kernel_scale,
                                    const std::vector<float>& bias) {
  const int64_t n = static_cast<int64_t>(kernel_scale.size());
  std::vector<float> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    float amax = 0.0f;
    for (int64_t kk = 0; kk < k; ++kk) amax = std::max(amax, std::fabs(x[i * k + kk]));
    const float s = 127.0f / (amax + 1e-7f);
    std::vector<int32_t> q(static_cast<size_t>(k));
    for (int64_t kk = 0; kk < k; ++kk)
      q[kk] = static_cast<int32_t>(
          std::min(127.0f, std::max(-127.0f, std::nearbyint(x[i * k + kk] * s))));
    for (int64_t j = 0; j < n; ++j) {
      int32_t acc = 0;
      for (int64_t kk = 0; kk < k; ++kk) acc += q[kk] * int32_t{kernel[kk * n + j]};
      y[i * n + j] = static_cast<float>(acc) / (kernel_scale[j] * s) + bias[j];
    }
  }
  return y;
}

std::vector<int8_t> random_int8(size_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> any(-127, 127);
  std::vector<int8_t> out(count);
  for (auto& v : out) v = static_cast<int8_t>(any(rng));
  return out;
}

void expect_close(const std::vector<float>& got, const std::vector<float>& want,
                  const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-5f * (1.0f + std::fabs(want[i]))) << what << " at " << i;
}

struct QuantizedDense {
  std::shared_ptr<layers::DenseLayer> layer;
  Tensor x;
  std::vector<float> bias;
  int64_t m, k;
};

QuantizedDense quantized_dense(int64_t m, int64_t k, int64_t n) {
  QuantizedDense d{layers::Dense(n), random::uniform({m, k}, -2, 2), {}, m, k};
  (*d.layer)(d.x);
  d.layer->quantize("int8");
  d.bias = d.layer->bias().value().to_vector<float>();
  return d;
}

std::vector<float> expected(const QuantizedDense& d) {
  return keras_int8_dense(d.x.to_vector<float>(), d.m, d.k,
                          d.layer->kernel_variable().value().to_vector<int8_t>(),
                          d.layer->kernel_scale().value().to_vector<float>(), d.bias);
}

TEST(Int8Linear, MatchesKerasAfterEveryWayTheKernelChanges) {
  std::mt19937 rng(5);
  QuantizedDense d = quantized_dense(7, 45, 70);
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "first call");
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "second call");
  Variable kernel = d.layer->kernel_variable();
  kernel.assign(ops::convert_to_tensor(random_int8(45 * 70, rng), {45, 70}));
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "after kernel.assign");
  std::vector<Tensor> weights;
  for (const Variable& v : d.layer->weights())
    weights.push_back(v.name() == "kernel"
                          ? ops::convert_to_tensor(random_int8(45 * 70, rng), {45, 70})
                          : v.value());
  d.layer->set_weights(weights);
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "after set_weights");
}

TEST(Int8Linear, MatchesKerasAtEveryInstructionSetLevel) {
  // Shapes that leave tails in every kernel's panels (columns past 16 and 32, odd depths, row
  // counts past the micro-kernels' 4 and 6) and one large enough for the thread pool.
  for (auto [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{9, 100, 40}, {1, 3, 1},
                         {33, 257, 70}, {32, 784, 512}}) {
    QuantizedDense d = quantized_dense(m, k, n);
    for (cpu::Isa level : {cpu::Isa::Baseline, cpu::Isa::Avx2, cpu::Isa::Avx512}) {
      if (level > cpu::supported_isa()) continue;
      cpu::detail::IsaOverride scope(level);
      expect_close((*d.layer)(d.x).to_vector<float>(), expected(d),
                   (std::string(cpu::name_of(level)) + " m=" + std::to_string(m)).c_str());
    }
  }
}

}  // namespace
}  // namespace keras

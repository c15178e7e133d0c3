// The cpu backend's cache of packed int8 kernels (backends/cpu/src/packed_weights.h): a quantized
// Dense packs its kernel once, yet a kernel assigned a new value is never served from a stale
// packing, an entry goes away with its kernel, and a change of instruction-set level repacks.
// Outputs are checked against Keras's int8 Dense formula written out here in float32 and an
// int32 loop (keras/src/layers/core/dense.py _int8_call with abs_max_quantize on the inputs).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../../backends/cpu/src/int8_gemm.h"
#include "../../backends/cpu/src/isa.h"
#include "../../backends/cpu/src/packed_weights.h"
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

TEST(Int8PackedWeights, AssignedKernelIsNeverServedFromAStalePacking) {
  std::mt19937 rng(5);
  QuantizedDense d = quantized_dense(7, 45, 70);
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "first call");
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "second call (cached packing)");
  // New values while the cache holds the old memory: assign copies on write, so the layer's next
  // call must see the new kernel, not the packing of the old one.
  Variable kernel = d.layer->kernel_variable();
  kernel.assign(ops::convert_to_tensor(random_int8(45 * 70, rng), {45, 70}));
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "after kernel.assign");
  // Again while someone else holds the old value: its packing stays cached (same shape), and
  // the layer must not be served it.
  const Tensor old_value = kernel.value();
  kernel.assign(ops::convert_to_tensor(random_int8(45 * 70, rng), {45, 70}));
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "after assign, old value held");
  EXPECT_EQ(cpu::packed_int8_weights(old_value.array())->k, 45);
  // And a whole new set of weights, as load_weights does.
  std::vector<Tensor> weights;
  for (const Variable& v : d.layer->weights())
    weights.push_back(v.name() == "kernel"
                          ? ops::convert_to_tensor(random_int8(45 * 70, rng), {45, 70})
                          : v.value());
  d.layer->set_weights(weights);
  expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), "after set_weights");
}

TEST(Int8PackedWeights, EntryGoesAwayWithItsKernel) {
  QuantizedDense small = quantized_dense(4, 16, 8);
  (*small.layer)(small.x);
  const size_t base = cpu::packed_int8_weights_bytes();
  {
    QuantizedDense big = quantized_dense(4, 512, 256);
    (*big.layer)(big.x);
    EXPECT_GE(cpu::packed_int8_weights_bytes(), base + 512 * 256 / 2)
        << "the big kernel's packing is held while the layer lives";
  }
  (*small.layer)(small.x);  // a lookup drops entries nobody else holds
  EXPECT_LE(cpu::packed_int8_weights_bytes(), base);
}

TEST(Int8PackedWeights, RepackedForAnotherInstructionSetLevel) {
  QuantizedDense d = quantized_dense(9, 100, 40);
  for (cpu::Isa level : {cpu::Isa::Baseline, cpu::Isa::Avx2, cpu::Isa::Avx512}) {
    if (level > cpu::supported_isa()) continue;
    cpu::detail::IsaOverride scope(level);
    const Tensor kernel = d.layer->kernel_variable().value();
    EXPECT_EQ(cpu::packed_int8_weights(kernel.array())->kernel, cpu::int8_kernel_for_isa());
    expect_close((*d.layer)(d.x).to_vector<float>(), expected(d), cpu::name_of(level));
  }
}

}  // namespace
}  // namespace keras

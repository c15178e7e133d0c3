// The cpu backend's Winograd F(2x2, 3x3) convolution (backends/cpu/src/conv_winograd.h), through
// ops::conv and the fused conv + bias + ReLU + 2x2 max pool op, against a host loop in double
// precision: "valid" and "same" padding, odd and even output sizes (tiles hanging over the
// edge), channel counts that are not multiples of any vector width, images split into bands of
// tile rows, several images per band, and an input whose channels are a slice of a wider array.
// Each case is first checked to take the Winograd path (winograd_applies on its geometry). The
// error is measured in units of 2^-24 of the sum of the products' magnitudes; the instruction
// set versions of the transforms add in the same order, so they must agree bit for bit.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <keras/keras.h>

#include "../../backends/cpu/src/conv_winograd.h"
#include "../../backends/cpu/src/isa.h"
#include "ops/nn/conv_pool.h"

namespace keras {
namespace {

using cpu::Isa;

struct Case {
  int64_t n, h, w, c, o;
  std::string padding;
  bool channel_slice = false;  // x = the first c channels of a (n, h, w, c + 5) array
};

std::vector<float> random_values(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = u(rng);
  return v;
}

struct Reference {
  int64_t oh = 0, ow = 0;
  std::vector<double> value, magnitude;  // per output: the sum and the sum of |products|
};

Reference reference(const Case& t, const std::vector<float>& x, const std::vector<float>& k,
                    const std::vector<float>& bias) {
  Reference r;
  const int64_t pad = t.padding == "same" ? 1 : 0;
  r.oh = t.h + 2 * pad - 2, r.ow = t.w + 2 * pad - 2;
  const size_t size = static_cast<size_t>(t.n * r.oh * r.ow * t.o);
  r.value.assign(size, 0.0), r.magnitude.assign(size, 0.0);
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t i = 0; i < r.oh; ++i)
      for (int64_t j = 0; j < r.ow; ++j)
        for (int64_t o = 0; o < t.o; ++o) {
          const size_t at = static_cast<size_t>(((n * r.oh + i) * r.ow + j) * t.o + o);
          double sum = bias.empty() ? 0.0 : bias[o], mag = std::abs(sum);
          for (int64_t a = 0; a < 3; ++a)
            for (int64_t b = 0; b < 3; ++b) {
              const int64_t y = i - pad + a, z = j - pad + b;
              if (y < 0 || y >= t.h || z < 0 || z >= t.w) continue;
              for (int64_t c = 0; c < t.c; ++c) {
                const double p = double(x[((n * t.h + y) * t.w + z) * t.c + c]) *
                                 k[((a * 3 + b) * t.c + c) * t.o + o];
                sum += p, mag += std::abs(p);
              }
            }
          r.value[at] = sum, r.magnitude[at] = mag;
        }
  return r;
}

// The geometry the backend builds for x (n, h, w, c) (channel stride 1) and a 3x3 kernel.
cpu::conv_detail::ConvGeometry geometry(const Case& t, int64_t oh, int64_t ow) {
  cpu::conv_detail::ConvGeometry g;
  g.n = t.n, g.c = g.cg = t.c, g.o = g.og = t.o;
  g.in[1] = t.h, g.in[2] = t.w, g.out[1] = oh, g.out[2] = ow;
  g.window[1] = g.window[2] = 3;
  g.pad[1] = g.pad[2] = t.padding == "same" ? 1 : 0;
  g.xs_c = 1, g.xs[2] = t.c, g.xs[1] = t.w * t.c, g.xs_n = t.h * t.w * t.c;
  g.kcg = g.kc = 9 * t.c, g.rows = t.n * oh * ow;
  return g;
}

// The largest error of got against the reference, in units of 2^-24 of each output's
// magnitude.
double error_units(const std::vector<float>& got, const std::vector<double>& want,
                   const std::vector<double>& magnitude) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::abs(got[i] - want[i]) / std::ldexp(magnitude[i], -24));
  return worst;
}

// Measured over these cases: at most 3.4 units, both for Winograd and for im2col + GEMM (the
// short dot products of Winograd's 16 GEMMs make up for its transforms' additions); one kernel
// coefficient off by 1e-5 gives 25 to 80.
constexpr double kBoundUnits = 12;

Tensor input_tensor(const Case& t, const std::vector<float>& xv) {
  Tensor x = ops::convert_to_tensor(xv, {t.n, t.h, t.w, t.c});
  if (!t.channel_slice) return x;
  Tensor wide = ops::concatenate({x, ops::zeros({t.n, t.h, t.w, 5})}, -1);
  return wide.slice({{0, t.n}, {0, t.h}, {0, t.w}, {0, t.c}});
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {16, 13, 13, 32, 64, "valid"},        // the benchmark CNN's second layer, odd
      {4, 12, 14, 16, 24, "same"},          // even output, padding on every side
      {3, 9, 15, 13, 9, "same"},            // channels not a multiple of any width
      {1, 40, 34, 64, 40, "valid", false},  // one image in bands of tile rows
      {2, 23, 21, 20, 17, "valid", true},   // channels sliced from a wider array
  };
  return c;
}

TEST(WinogradConv, MatchesDoublePrecisionAtEveryIsaLevel) {
  for (const Case& t : cases()) {
    const auto xv = random_values(static_cast<size_t>(t.n * t.h * t.w * t.c), 31);
    const auto kv = random_values(static_cast<size_t>(9 * t.c * t.o), 32);
    const Reference want = reference(t, xv, kv, {});
    const std::string at = "case " + std::to_string(t.n) + "x" + std::to_string(t.h) + "x" +
                           std::to_string(t.w) + "x" + std::to_string(t.c) + " -> " +
                           std::to_string(t.o) + " " + t.padding;
    ASSERT_TRUE(cpu::conv_detail::winograd_applies(geometry(t, want.oh, want.ow))) << at;
    const Tensor x = input_tensor(t, xv);
    const Tensor k = ops::convert_to_tensor(kv, {3, 3, t.c, t.o});
    std::map<Isa, std::vector<float>> results;
    for (Isa level : {Isa::Baseline, Isa::Avx2, Isa::Avx512}) {
      if (level > cpu::supported_isa()) continue;
      cpu::detail::IsaOverride scope(level);
      Tensor y = ops::conv(x, k, {.padding = t.padding});
      ASSERT_EQ(y.shape(), (Shape{t.n, want.oh, want.ow, t.o})) << at;
      results[level] = y.to_vector<float>();
      EXPECT_LE(error_units(results[level], want.value, want.magnitude), kBoundUnits)
          << at << ", ISA " << cpu::name_of(level);
    }
    for (auto& [level, got] : results)
      EXPECT_EQ(got, results.begin()->second) << at << ": " << cpu::name_of(level) << " against "
                                              << cpu::name_of(results.begin()->first);
  }
}

// Conv + bias + ReLU + MaxPooling2D() as one op: each pooled value is the largest of its
// window's four reference values (after bias and ReLU), and the argmax recorded for the
// gradient points at it: the gradient of sum(y) with respect to the bias counts, per channel, the
// windows whose maximum is positive.
TEST(WinogradConv, FusedWithMaxPoolingMatchesDoublePrecision) {
  for (const Case& t : cases()) {
    const auto xv = random_values(static_cast<size_t>(t.n * t.h * t.w * t.c), 41);
    const auto kv = random_values(static_cast<size_t>(9 * t.c * t.o), 42);
    const auto bv = random_values(static_cast<size_t>(t.o), 43);
    const Reference z = reference(t, xv, kv, bv);
    const int64_t ph = z.oh / 2, pw = z.ow / 2;
    std::vector<double> want, magnitude;
    std::vector<double> bias_grad(static_cast<size_t>(t.o), 0.0);
    for (int64_t n = 0; n < t.n; ++n)
      for (int64_t i = 0; i < ph; ++i)
        for (int64_t j = 0; j < pw; ++j)
          for (int64_t o = 0; o < t.o; ++o) {
            double best = -1e300, mag = 0;
            for (int64_t a = 0; a < 2; ++a)
              for (int64_t b = 0; b < 2; ++b) {
                const size_t at =
                    static_cast<size_t>(((n * z.oh + 2 * i + a) * z.ow + 2 * j + b) * t.o + o);
                if (z.value[at] > best) best = z.value[at];
                mag = std::max(mag, z.magnitude[at]);
              }
            want.push_back(std::max(best, 0.0));
            magnitude.push_back(mag);
            if (best > 0) bias_grad[static_cast<size_t>(o)] += 1.0;
          }
    const std::string at = "case " + std::to_string(t.n) + "x" + std::to_string(t.h) + "x" +
                           std::to_string(t.w) + "x" + std::to_string(t.c) + " " + t.padding;
    const Tensor x = input_tensor(t, xv);
    const Tensor k = ops::convert_to_tensor(kv, {3, 3, t.c, t.o});
    Tensor bias = ops::convert_to_tensor(bv, {t.o});
    GradientTape tape;
    tape.watch({bias});
    const Tensor y = ops::detail::conv_bias_activation_max_pool(
        x, k, bias, backend::Activation::Relu, {.padding = t.padding});
    const std::vector<Tensor> grads = tape.gradient(ops::sum(y), {bias});
    ASSERT_EQ(y.shape(), (Shape{t.n, ph, pw, t.o})) << at;
    EXPECT_LE(error_units(y.to_vector<float>(), want, magnitude), kBoundUnits) << at;
    const auto got_grad = grads.at(0).to_vector<float>();
    for (int64_t o = 0; o < t.o; ++o)  // (no value lies within a few units of 0 here)
      EXPECT_EQ(got_grad[static_cast<size_t>(o)], bias_grad[static_cast<size_t>(o)])
          << at << ", channel " << o;
  }
}

}  // namespace
}  // namespace keras

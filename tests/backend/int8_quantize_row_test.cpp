// The cpu backend's row quantizer of int8 Dense inputs (backends/cpu/src/int8_quantize_row.h) at
// every instruction-set level this CPU runs, against Keras's abs_max_quantize formula written out
// here element by element in float32 (keras/src/quantizers/quantizers.py):
//   scale = hi / (max(|x|) + epsilon); q = cast(clip(round(x * scale), lo, hi), "int8")
// where round is round-half-to-even, max propagates NaN, clip keeps NaN and the cast of NaN is 0
// (NumPy on x86 converts through int32). Exact: every byte and every scale bit.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "../../backends/cpu/src/int8_quantize_row.h"
#include "../../backends/cpu/src/isa.h"

namespace keras {
namespace {

using cpu::Isa;

struct Reference {
  std::vector<int8_t> q;
  float scale;
};

Reference keras_formula(const std::vector<float>& x, float lo, float hi, float epsilon) {
  float amax = 0.0f;
  for (float v : x) amax = std::isnan(v) || std::isnan(amax) ? NAN : std::max(amax, std::fabs(v));
  Reference r{{}, hi / (amax + epsilon)};
  for (float v : x) {
    float y = std::nearbyint(v * r.scale);  // the default rounding mode: half to even
    if (!std::isnan(y)) y = std::min(std::max(y, lo), hi);
    r.q.push_back(std::isnan(y) ? int8_t{0} : static_cast<int8_t>(static_cast<int32_t>(y)));
  }
  return r;
}

std::vector<std::vector<float>> rows() {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<std::vector<float>> out;
  for (int64_t k : {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 100, 784, 1024}) {
    std::vector<float> row(static_cast<size_t>(k));
    for (float& v : row) v = normal(rng);
    out.push_back(row);
  }
  // Ties: with max |x| = 127 and epsilon 0 the scale is 1, so x.5 values land on halves.
  std::vector<float> ties = {127.0f, -0.5f, 0.5f, 1.5f, 2.5f, -2.5f, 3.5f, -126.5f, 126.5f};
  for (int i = 0; i < 20; ++i) ties.push_back(static_cast<float>(i) - 9.5f);
  out.push_back(ties);
  out.push_back(std::vector<float>(37, 0.0f));  // all zeros: the scale is hi / epsilon
  std::vector<float> with_nan(40, 1.25f);
  with_nan[33] = NAN;  // in the vector part of both kernels' loops
  out.push_back(with_nan);
  std::vector<float> tail_nan(19, -3.0f);
  tail_nan[18] = NAN;  // in the scalar tail of the AVX2 kernel
  out.push_back(tail_nan);
  std::vector<float> with_inf(24, 0.75f);
  with_inf[5] = std::numeric_limits<float>::infinity();  // scale 0, inf * 0 is NaN
  out.push_back(with_inf);
  return out;
}

TEST(Int8QuantizeRow, MatchesKerasFormulaAtEveryIsaLevel) {
  struct Range {
    float lo, hi, epsilon;
  };
  const Range ranges[] = {{-127.0f, 127.0f, 1e-7f}, {-127.0f, 127.0f, 0.0f}, {-8.0f, 7.0f, 1e-3f}};
  for (Isa level : {Isa::Baseline, Isa::Avx2, Isa::Avx512}) {
    if (level > cpu::supported_isa()) continue;
    cpu::detail::IsaOverride scope(level);
    for (const Range& range : ranges)
      for (const std::vector<float>& x : rows()) {
        const Reference want = keras_formula(x, range.lo, range.hi, range.epsilon);
        std::vector<int8_t> q(x.size(), 99);
        float scale = -1.0f;
        cpu::quantize_row_int8(x.data(), static_cast<int64_t>(x.size()), range.lo, range.hi,
                               range.epsilon, q.data(), &scale);
        const auto where = ::testing::Message() << cpu::name_of(level) << " k=" << x.size()
                                              << " range [" << range.lo << ", " << range.hi
                                              << "] epsilon " << range.epsilon;
        if (std::isnan(want.scale)) EXPECT_TRUE(std::isnan(scale)) << where;
        else EXPECT_EQ(scale, want.scale) << where;
        EXPECT_EQ(q, want.q) << where;
      }
  }
}

}  // namespace
}  // namespace keras

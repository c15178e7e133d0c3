// The cpu backend's direct depthwise convolution (backends/cpu/src/conv_depthwise.h), at each
// instruction-set level this CPU runs, against a plain host loop in double precision: strides,
// dilation, "same" padding (TF/JAX's split: the extra row after), multipliers 1 and 3, and an
// input whose rows are not contiguous (a strided view).

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <keras/keras.h>

#include "../../backends/cpu/src/isa.h"

namespace keras {
namespace {

struct Case {
  int64_t n, h, w, c, kh, kw, multiplier, stride, dilation;
  std::string padding;
};

std::vector<float> random_values(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = u(rng);
  return v;
}

// out[n, i, j, c * m + k] = sum over (a, b) of x[n, i*s - pad_h + a*d, j*s - pad_w + b*d, c] *
// w[a, b, c, k], in double.
std::vector<double> reference(const Case& t, const std::vector<float>& x,
                              const std::vector<float>& w, int64_t& oh, int64_t& ow) {
  const int64_t eh = (t.kh - 1) * t.dilation + 1, ew = (t.kw - 1) * t.dilation + 1;
  int64_t ph = 0, pw = 0;
  if (t.padding == "same") {
    oh = (t.h + t.stride - 1) / t.stride;
    ow = (t.w + t.stride - 1) / t.stride;
    ph = std::max<int64_t>(0, (oh - 1) * t.stride + eh - t.h) / 2;
    pw = std::max<int64_t>(0, (ow - 1) * t.stride + ew - t.w) / 2;
  } else {
    oh = (t.h - eh) / t.stride + 1;
    ow = (t.w - ew) / t.stride + 1;
  }
  const int64_t o = t.c * t.multiplier;
  std::vector<double> out(static_cast<size_t>(t.n * oh * ow * o), 0.0);
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t a = 0; a < t.kh; ++a)
          for (int64_t b = 0; b < t.kw; ++b) {
            const int64_t y = i * t.stride - ph + a * t.dilation;
            const int64_t z = j * t.stride - pw + b * t.dilation;
            if (y < 0 || y >= t.h || z < 0 || z >= t.w) continue;
            for (int64_t c = 0; c < t.c; ++c)
              for (int64_t k = 0; k < t.multiplier; ++k)
                out[((n * oh + i) * ow + j) * o + c * t.multiplier + k] +=
                    double(x[((n * t.h + y) * t.w + z) * t.c + c]) *
                    w[((a * t.kw + b) * t.c + c) * t.multiplier + k];
          }
  return out;
}

TEST(DepthwiseConvDirect, MatchesHostLoopAtEveryIsaLevel) {
  const std::vector<Case> cases = {
      {2, 9, 8, 6, 3, 3, 1, 1, 1, "same"},  {2, 9, 8, 6, 3, 3, 1, 2, 1, "valid"},
      {1, 11, 10, 5, 3, 2, 3, 2, 1, "same"}, {1, 12, 12, 4, 3, 3, 2, 1, 2, "valid"},
      {3, 7, 7, 40, 5, 5, 1, 2, 1, "same"},
  };
  for (const Case& t : cases) {
    const auto xv = random_values(static_cast<size_t>(t.n * t.h * t.w * t.c), 11);
    const auto wv = random_values(static_cast<size_t>(t.kh * t.kw * t.c * t.multiplier), 12);
    int64_t oh = 0, ow = 0;
    const auto want = reference(t, xv, wv, oh, ow);
    Tensor x = ops::convert_to_tensor(xv, {t.n, t.h, t.w, t.c});
    Tensor w = ops::convert_to_tensor(wv, {t.kh, t.kw, t.c, t.multiplier});
    // The same values as a view with non-contiguous rows (every other column of a wider array).
    Tensor wide = ops::repeat(x, 2, 2);
    Tensor strided = wide.slice({{0, t.n}, {0, t.h}, {0, 2 * t.w, 2}});
    for (cpu::Isa level : {cpu::Isa::Baseline, cpu::Isa::Avx2, cpu::Isa::Avx512}) {
      if (level > cpu::supported_isa()) continue;
      cpu::detail::IsaOverride scope(level);
      for (const Tensor& input : {x, strided}) {
        Tensor y = ops::depthwise_conv(input, w, {.strides = t.stride, .padding = t.padding,
                                                  .dilation_rate = t.dilation});
        ASSERT_EQ(y.shape(), (Shape{t.n, oh, ow, t.c * t.multiplier}));
        const auto got = y.to_vector<float>();
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_NEAR(got[i], want[i], 1e-5 * std::max(1.0, std::abs(want[i])))
              << "case c=" << t.c << " m=" << t.multiplier << " s=" << t.stride << " "
              << t.padding << " at " << i << ", ISA " << cpu::name_of(level);
      }
    }
  }
}

}  // namespace
}  // namespace keras

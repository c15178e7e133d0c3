// Every kernel the cpu backend compiles once per instruction set (backends/cpu/src/isa.h), run
// at each level this CPU supports (IsaOverride, which the thread pool's tasks see too) against
// a plain host reference: bit for bit where the kernel only compares, selects and adds once
// (pooling, bias + ReLU); within a rounding bound where it sums products (the AVX2 and AVX-512
// versions contract them into FMAs, the baseline cannot). The AVX2 and AVX-512 versions run
// the same operations in the same order on narrower or wider vectors, so they must agree bit
// for bit.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../../backends/cpu/src/conv_im2col.h"
#include "../../backends/cpu/src/conv_pool_sparse.h"
#include "../../backends/cpu/src/conv_short_patch.h"
#include "../../backends/cpu/src/epilogue.h"
#include "../../backends/cpu/src/isa.h"
#include "../../backends/cpu/src/pool_2x2.h"

namespace keras {
namespace {

using cpu::Isa;
using cpu::WindowGeometry;

std::vector<Isa> levels() {
  std::vector<Isa> out;
  for (Isa level : {Isa::Baseline, Isa::Avx2, Isa::Avx512})
    if (level <= cpu::supported_isa()) out.push_back(level);
  return out;
}

// Values in [-1, 1]; `ties`: a few distinct values (windows with equal maxima) and some NaNs.
std::vector<float> random_values(size_t n, uint32_t seed, bool ties = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) {
    x = u(rng);
    if (ties) x = rng() % 23 == 0 ? std::numeric_limits<float>::quiet_NaN() : std::round(x * 3) / 3;
  }
  return v;
}

bool same(float a, float b) {
  return std::isnan(a) ? std::isnan(b) : a == b && std::signbit(a) == std::signbit(b);
}

template <typename T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool ok = [&] {
      if constexpr (std::is_same_v<T, float>)
        return same(got[i], want[i]);
      else
        return got[i] == want[i];
    }();
    if (!ok) {
      ADD_FAILURE() << what << ": element " << i << " is " << +got[i] << ", expected " << +want[i];
      return;
    }
  }
}

// A sum of products in double, with what bounds its float rounding: the number of terms and
// the sum of their magnitudes.
struct Sum {
  double value = 0, magnitude = 0;
  int terms = 0;
  void add(double p) {
    value += p;
    magnitude += std::abs(p);
    ++terms;
  }
};

// got[i] within the float rounding of a sum of want[i].terms products (2 * terms units in the
// last place of the magnitude; the last bits differ between the FMA and plain versions).
void expect_close(const std::vector<float>& got, const std::vector<Sum>& want,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const double bound = 2.0 * (want[i].terms + 1) * std::ldexp(want[i].magnitude, -24);
    if (!(std::abs(got[i] - want[i].value) <= bound)) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected "
                    << want[i].value << " within " << bound;
      return;
    }
  }
}

std::string name(const char* what, Isa level) {
  return std::string(what) + " at " + cpu::name_of(level);
}

// ---- 2x2 max pooling -----------------------------------------------------------------------

WindowGeometry pool_geometry(int64_t n, int64_t h, int64_t w, int64_t c) {
  WindowGeometry g;
  g.n = n, g.c = c;
  g.in[1] = h, g.in[2] = w, g.out[1] = h / 2, g.out[2] = w / 2;
  g.window[1] = g.window[2] = g.stride[1] = g.stride[2] = 2;
  g.xs_c = 1, g.xs[2] = c, g.xs[1] = w * c, g.xs[0] = h * w * c, g.xs_n = h * w * c;
  return g;
}

// The pooled values, each window's first maximum (a NaN wins) and dx for gradient dy.
struct PoolReference {
  std::vector<float> y, dx;
  std::vector<uint8_t> argmax;
};

PoolReference pool_reference(const WindowGeometry& g, const std::vector<float>& x,
                             const std::vector<float>& dy) {
  const int64_t h = g.in[1], w = g.in[2], c = g.c, oh = g.out[1], ow = g.out[2];
  PoolReference r;
  r.y.resize(static_cast<size_t>(g.n * oh * ow * c));
  r.argmax.resize(r.y.size());
  r.dx.assign(x.size(), 0.0f);
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox)
        for (int64_t j = 0; j < c; ++j) {
          int64_t at[4];
          for (int t = 0; t < 4; ++t)
            at[t] = ((n * h + 2 * oy + t / 2) * w + 2 * ox + t % 2) * c + j;
          int best = 0;
          for (int t = 1; t < 4; ++t) {
            const float v = x[at[t]], m = x[at[best]];
            if (v > m || (std::isnan(v) && !std::isnan(m))) best = t;
          }
          const int64_t o = ((n * oh + oy) * ow + ox) * c + j;
          r.y[o] = x[at[best]];
          r.argmax[o] = static_cast<uint8_t>(best);
          r.dx[at[best]] = dy[o];
        }
  return r;
}

TEST(CpuIsaKernels, MaxPool2x2AtEveryLevel) {
  for (int64_t c : {1, 5, 8, 16, 27, 40}) {
    const int64_t n = 2, h = 5, w = 7;  // odd: a row and a column under no window
    const WindowGeometry g = pool_geometry(n, h, w, c);
    ASSERT_TRUE(cpu::is_max_pool_2x2(g, true, true));
    const auto x = random_values(static_cast<size_t>(n * h * w * c), 1 + c, true);
    const size_t pooled = static_cast<size_t>(n * g.out[1] * g.out[2] * c);
    const auto dy = random_values(pooled, 100 + c);
    const PoolReference ref = pool_reference(g, x, dy);
    const int64_t ow = g.out[2];
    for (Isa level : levels()) {
      cpu::detail::IsaOverride scope(level);
      const std::string at = " (c = " + std::to_string(c) + ")";
      std::vector<float> y(pooled, 7.0f), dx(x.size(), 7.0f), dz(x.size(), 7.0f);
      cpu::max_pool_2x2(g, x.data(), y.data());
      expect_same(y, ref.y, name("max_pool_2x2", level) + at);
      cpu::max_pool_2x2_backward(g, x.data(), ref.y.data(), dy.data(), dx.data());
      expect_same(dx, ref.dx, name("max_pool_2x2_backward", level) + at);
      cpu::max_pool_2x2_scatter<float>(n, h, w, c, dy.data(), ref.argmax.data(), dz.data());
      expect_same(dz, ref.dx, name("max_pool_2x2_scatter", level) + at);

      // Row by row: the argmax from two input rows, the scatter into two gradient rows.
      std::vector<float> out(pooled, 7.0f), d(x.size(), 7.0f);
      std::vector<uint8_t> idx(pooled, 9);
      for (int64_t row = 0; row < n * g.out[1]; ++row) {
        const int64_t image = row / g.out[1], oy = row % g.out[1];
        const int64_t in = (image * h + 2 * oy) * w * c, o = row * ow * c;
        cpu::max_pool_2x2_argmax_row<float>(x.data() + in, x.data() + in + w * c, out.data() + o,
                                            idx.data() + o, ow, c);
        cpu::max_pool_2x2_scatter_row(dy.data() + o, ref.argmax.data() + o, d.data() + in,
                                      d.data() + in + w * c, ow, w, c);
      }
      expect_same(out, ref.y, name("max_pool_2x2_argmax_row", level) + at);
      expect_same(idx, ref.argmax, name("max_pool_2x2_argmax_row (index)", level) + at);
      for (int64_t image = 0; image < n; ++image)  // (the odd last row is no scatter_row's)
        for (int64_t i = (image * h + h - 1) * w * c; i < (image + 1) * h * w * c; ++i) d[i] = 0.0f;
      expect_same(d, ref.dx, name("max_pool_2x2_scatter_row", level) + at);
    }
  }
}

// ---- bias + ReLU epilogue ------------------------------------------------------------------

TEST(CpuIsaKernels, BiasReluAtEveryLevel) {
  for (int64_t cols : {1, 7, 16, 37, 100})
    for (bool with_bias : {false, true}) {
      const int64_t rows = 3;
      const auto x = random_values(static_cast<size_t>(rows * cols), 7 + cols, true);
      const auto bias = random_values(static_cast<size_t>(cols), 11 + cols);
      std::vector<float> want(x);
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          float& v = want[i * cols + j];
          if (with_bias) v += bias[j];
          v = v <= 0.0f ? 0.0f : v;
        }
      for (Isa level : levels()) {
        cpu::detail::IsaOverride scope(level);
        std::vector<float> got(x);
        cpu::bias_relu_rows_f32(got.data(), rows, cols, with_bias ? bias.data() : nullptr);
        expect_same(got, want,
                    name("bias_relu_rows_f32", level) + " (n = " + std::to_string(cols) +
                        (with_bias ? ", bias)" : ")"));
      }
    }
}

// ---- convolutions with short patches -------------------------------------------------------

WindowGeometry conv_geometry_2d(int64_t n, int64_t h, int64_t w, int64_t c, int64_t k,
                                int64_t stride, int64_t pad) {
  WindowGeometry g;
  g.n = n, g.c = c;
  g.in[1] = h, g.in[2] = w;
  g.out[1] = (h + 2 * pad - k) / stride + 1, g.out[2] = (w + 2 * pad - k) / stride + 1;
  g.window[1] = g.window[2] = k;
  g.stride[1] = g.stride[2] = stride;
  g.pad[1] = g.pad[2] = pad;
  g.xs_c = 1, g.xs[2] = c, g.xs[1] = w * c, g.xs[0] = h * w * c, g.xs_n = h * w * c;
  return g;
}

// Value k (tap-major, then channel) of output row r's patch: 0 in the padding.
double patch_value(const WindowGeometry& g, const std::vector<float>& x, int64_t r, int64_t k) {
  const int64_t p = r % g.positions(), image = r / g.positions();
  const int64_t tap = k / g.c, ci = k % g.c;
  const int64_t iy = p / g.out[2] * g.stride[1] - g.pad[1] + tap / g.window[2] * g.dilation[1];
  const int64_t ix = p % g.out[2] * g.stride[2] - g.pad[2] + tap % g.window[2] * g.dilation[2];
  if (iy < 0 || iy >= g.in[1] || ix < 0 || ix >= g.in[2]) return 0.0;
  return x[image * g.xs_n + iy * g.xs[1] + ix * g.xs[2] + ci];
}

struct ShortPatchCase {
  int64_t c, o, stride, pad;
};

TEST(CpuIsaKernels, ShortPatchConvAtEveryLevel) {
  // Output counts across the vector widths: whole registers (32, 16, 48), a block of 8 after
  // them or alone (24, 8, 40), a tail after one (20, 12, 36).
  const ShortPatchCase cases[] = {{1, 32, 1, 1}, {3, 16, 1, 1}, {3, 48, 2, 0}, {2, 20, 1, 1},
                                  {1, 8, 1, 0},  {3, 36, 1, 1}, {2, 32, 2, 1}, {1, 24, 1, 1},
                                  {3, 40, 1, 0}, {1, 12, 1, 1}};
  for (const ShortPatchCase& s : cases) {
    const WindowGeometry g = conv_geometry_2d(2, 9, 11, s.c, 3, s.stride, s.pad);
    ASSERT_TRUE(cpu::short_patch_conv(g, 1));
    const int64_t o = s.o, k_len = g.taps() * g.c, rows = g.n * g.positions();
    const auto x = random_values(static_cast<size_t>(g.n * g.xs_n), 21 + s.c);
    const auto w = random_values(static_cast<size_t>(k_len * o), 22 + s.o);
    const auto dy = random_values(static_cast<size_t>(rows * o), 23 + s.o);
    const auto dw0 = random_values(static_cast<size_t>(k_len * o), 24);
    // y = patches @ w; dw = dw0 + patches^T @ dy over rows [r0, r1) (a start mid-block).
    const int64_t r0 = 3, r1 = rows - 2;
    std::vector<Sum> y(static_cast<size_t>(rows * o)), dw(dw0.size()), dw_all(dw0.size());
    for (size_t i = 0; i < dw.size(); ++i) dw[i].add(dw0[i]);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = 0; k < k_len; ++k) {
        const double p = patch_value(g, x, r, k);
        for (int64_t j = 0; j < o; ++j) {
          y[r * o + j].add(p * w[k * o + j]);
          dw_all[k * o + j].add(p * dy[r * o + j]);
          if (r >= r0 && r < r1) dw[k * o + j].add(p * dy[r * o + j]);
        }
      }
    const std::vector<Sum> y_rows(y.begin() + r0 * o, y.begin() + r1 * o);
    std::map<Isa, std::vector<float>> results;
    for (Isa level : levels()) {
      cpu::detail::IsaOverride scope(level);
      const std::string at = " (c = " + std::to_string(s.c) + ", o = " + std::to_string(o) +
                             ", stride " + std::to_string(s.stride) + ")";
      std::vector<float> got(static_cast<size_t>(rows * o), 7.0f);
      cpu::short_patch_forward(g, o, x.data(), w.data(), got.data());
      expect_close(got, y, name("short_patch_forward", level) + at);
      std::vector<float> part(static_cast<size_t>((r1 - r0) * o), 7.0f);
      cpu::short_patch_rows(g, o, x.data(), w.data(), r0, r1, part.data());
      expect_close(part, y_rows, name("short_patch_rows", level) + at);
      std::vector<float> grad(dw0);
      cpu::short_patch_kernel_grad_rows(g, o, x.data(), dy.data() + r0 * o, r0, r1, grad.data());
      expect_close(grad, dw, name("short_patch_kernel_grad_rows", level) + at);
      std::vector<float> grad_all(dw0.size(), 7.0f);
      cpu::short_patch_backward_kernel(g, o, x.data(), dy.data(), grad_all.data());
      expect_close(grad_all, dw_all, name("short_patch_backward_kernel", level) + at);
      auto& keep = results[level];
      for (const auto* v : {&got, &part, &grad, &grad_all})
        keep.insert(keep.end(), v->begin(), v->end());
    }
    if (results.count(Isa::Avx2) && results.count(Isa::Avx512))
      expect_same(results[Isa::Avx512], results[Isa::Avx2],
                  "short patch: avx512 against avx2 (c = " + std::to_string(s.c) + ")");
  }
}

// The bias and ReLU applied in short_patch_forward's blocks of rows (bias_relu_rows_f32 inside
// the pool's tasks), and evidence that the override reaches those tasks: the baseline's sums
// (no FMA) differ in their last bits from the AVX2 ones somewhere.
TEST(CpuIsaKernels, ShortPatchEpilogueAndLevelsDiffer) {
  const WindowGeometry g = conv_geometry_2d(2, 16, 16, 3, 3, 1, 1);
  const int64_t o = 32, k_len = g.taps() * g.c, rows = g.n * g.positions();
  const auto x = random_values(static_cast<size_t>(g.n * g.xs_n), 31);
  const auto w = random_values(static_cast<size_t>(k_len * o), 32);
  const auto bias = random_values(static_cast<size_t>(o), 33);
  std::vector<Sum> y(static_cast<size_t>(rows * o));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < o; ++j) {
      for (int64_t k = 0; k < k_len; ++k) y[r * o + j].add(patch_value(g, x, r, k) * w[k * o + j]);
      y[r * o + j].add(bias[j]);
    }
  std::map<Isa, std::vector<float>> results;
  for (Isa level : levels()) {
    cpu::detail::IsaOverride scope(level);
    std::vector<float> got(static_cast<size_t>(rows * o), 7.0f), plain(got);
    cpu::short_patch_forward(g, o, x.data(), w.data(), got.data(),
                             {reinterpret_cast<const char*>(bias.data()), sizeof(float)},
                             backend::Activation::Relu);
    cpu::short_patch_forward(g, o, x.data(), w.data(), plain.data(),
                             {reinterpret_cast<const char*>(bias.data()), sizeof(float)},
                             backend::Activation::None);
    for (size_t i = 0; i < got.size(); ++i) {
      // ReLU of the same float: exact; the sum itself within rounding.
      ASSERT_TRUE(same(got[i], plain[i] <= 0.0f ? 0.0f : plain[i])) << name("relu", level) << i;
    }
    expect_close(plain, y, name("short_patch_forward + bias", level));
    results[level] = plain;
  }
  if (results.count(Isa::Baseline) && results.count(Isa::Avx2)) {
    size_t differ = 0;
    for (size_t i = 0; i < results[Isa::Avx2].size(); ++i)
      differ += results[Isa::Avx2][i] != results[Isa::Baseline][i];
    EXPECT_GT(differ, 0u) << "the baseline and AVX2 versions gave the same bits everywhere: "
                             "is the override reaching the kernels?";
  }
}

// ---- sparse backward of conv + 2x2 max pooling ---------------------------------------------

struct SparseCase {
  int64_t c, o, pad;
};

TEST(CpuIsaKernels, ConvPoolSparseBackwardAtEveryLevel) {
  const SparseCase cases[] = {{16, 4, 1}, {32, 3, 1}, {3, 5, 1}, {20, 2, 0},
                              {16, 2, 0}, {24, 2, 1}, {8, 3, 1}};
  for (const SparseCase& s : cases) {
    cpu::conv_detail::ConvGeometry g;
    static_cast<WindowGeometry&>(g) = conv_geometry_2d(3, 10, 10, s.c, 3, 1, s.pad);
    g.groups = 1, g.cg = g.c, g.o = g.og = s.o;
    g.kcg = g.kc = g.taps() * g.c;
    g.rows = g.n * g.positions();
    const int64_t ph = g.out[1] / 2, pw = g.out[2] / 2, c = g.c, o = g.o, taps = g.taps();
    const auto x = random_values(static_cast<size_t>(g.n * g.xs_n), 41 + s.c);
    const auto kernel = random_values(static_cast<size_t>(taps * c * o), 42 + s.o);
    auto gz = random_values(static_cast<size_t>(g.n * ph * pw * o), 43);
    std::vector<uint8_t> argmax(gz.size());
    std::mt19937 rng(44);
    for (size_t i = 0; i < gz.size(); ++i) {
      argmax[i] = static_cast<uint8_t>(rng() % 4);
      if (rng() % 3 == 0) gz[i] = 0.0f;  // (ReLU's zeros: skipped)
    }
    std::vector<Sum> dx(x.size()), dk(kernel.size());
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t py = 0; py < ph; ++py)
        for (int64_t px = 0; px < pw; ++px)
          for (int64_t co = 0; co < o; ++co) {
            const int64_t at = ((n * ph + py) * pw + px) * o + co;
            if (gz[at] == 0.0f) continue;
            const int64_t oy = 2 * py + argmax[at] / 2, ox = 2 * px + argmax[at] % 2;
            for (int64_t t = 0; t < taps; ++t) {
              const int64_t y = oy - g.pad[1] + t / 3, xx = ox - g.pad[2] + t % 3;
              if (y < 0 || y >= g.in[1] || xx < 0 || xx >= g.in[2]) continue;
              for (int64_t ci = 0; ci < c; ++ci) {
                const int64_t xi = n * g.xs_n + y * g.xs[1] + xx * c + ci;
                dx[xi].add(double(gz[at]) * kernel[(t * c + ci) * o + co]);
                dk[(t * c + ci) * o + co].add(double(gz[at]) * x[xi]);
              }
            }
          }
    std::map<Isa, std::vector<float>> results;
    for (Isa level : levels()) {
      cpu::detail::IsaOverride scope(level);
      const std::string at = " (c = " + std::to_string(c) + ", pad " + std::to_string(s.pad) + ")";
      std::vector<float> got_dx(x.size(), 7.0f), got_dk(kernel.size(), 7.0f), only_dk(got_dk);
      cpu::conv_pool_sparse_backward(g, ph, pw, x.data(), kernel.data(), gz.data(), argmax.data(),
                                     got_dx.data(), got_dk.data());
      expect_close(got_dx, dx, name("conv_pool_sparse_backward dx", level) + at);
      expect_close(got_dk, dk, name("conv_pool_sparse_backward dkernel", level) + at);
      cpu::conv_pool_sparse_backward(g, ph, pw, x.data(), kernel.data(), gz.data(), argmax.data(),
                                     nullptr, only_dk.data());
      expect_same(only_dk, got_dk, name("conv_pool_sparse_backward dkernel alone", level) + at);
      auto& keep = results[level];
      keep.insert(keep.end(), got_dx.begin(), got_dx.end());
      keep.insert(keep.end(), got_dk.begin(), got_dk.end());
    }
    if (results.count(Isa::Avx2) && results.count(Isa::Avx512))
      expect_same(results[Isa::Avx512], results[Isa::Avx2],
                  "conv_pool_sparse_backward: avx512 against avx2 (c = " + std::to_string(c) + ")");
  }
}

}  // namespace
}  // namespace keras

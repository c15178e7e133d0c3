// F(2x2, 3x3) (conv_winograd.h). With B^T, G and A^T of Lavin and Gray:
//   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
//   G   = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]
//   A^T = [1 1 1 0; 0 1 -1 -1]
// A band's tiles are numbered image by image, tile row by tile row; V[k] (tiles, C) holds
// point k of every tile's B^T d B, M[k] (tiles, O) = V[k] @ U[k], and the output transform
// reads the 16 M[k] rows of a tile. The transforms run as W-wide blocks of channels (isa.h),
// then one channel at a time; they have no multiply-adds to contract, so each instruction set
// gives the same bits.

#include "conv_winograd.h"

#include <algorithm>
#include <cstring>

#include "gemm.h"
#include "isa.h"
#include "thread_pool.h"

namespace keras::cpu::conv_detail {
namespace {

constexpr int64_t kPoints = 16;  // a 4x4 tile
// Below this many channels a GEMM's K (input) or N (output) is too short to gain.
constexpr int64_t kMinChannels = 8;
// Tiles per image below which the transforms cost more than the products saved at batch 1
// (measured on ResNet50's layers: 7x7 outputs, 16 tiles, 1.6x slower at batch 1; 14x14, 49
// tiles, even; 28x28 faster). Per image, not over the batch: a row's values must not depend on
// the rows it is batched with (a server's dynamic batches give model.predict's bits).
constexpr int64_t kMinTiles = 36;
// Bytes of one band's V and M: with the GEMMs' packed operands, a core's L2 cache.
constexpr int64_t kBandBytes = int64_t{1} << 20;
constexpr int64_t kMinBandTiles = 32, kMaxBandTiles = 512;

int64_t tiles_across(const ConvGeometry& g) {
  return (g.out[2] + 1) / 2;
}

// Floats from one matrix of the transformed kernel to the next: C * O and 16 more, so that the
// 16 rows the transform writes together do not share an L1 cache set (C * O is often a multiple
// of 4 KiB).
int64_t kernel_plane(const ConvGeometry& g) {
  return g.c * g.o + 16;
}

template <int W>
struct LanesOf {
  using type = FloatLanes<W>;
};
template <>
struct LanesOf<1> {
  using type = float;
};
template <int W>
using Lanes = typename LanesOf<W>::type;

// Loads and stores through Lanes<W> pointers (unaligned: FloatLanes is aligned(4)); a function
// returning a vector would change the ABI between the versions.
template <int W>
[[gnu::always_inline]] inline const Lanes<W>& at(const float* p) {
  return *reinterpret_cast<const Lanes<W>*>(p);
}
template <int W>
[[gnu::always_inline]] inline Lanes<W>& at(float* p) {
  return *reinterpret_cast<Lanes<W>*>(p);
}

// Channels [c, c + W) of one tile: d from the 16 input pointers (null in the padding), B^T d B
// into v (point k at v + k * v_step).
template <int W>
[[gnu::always_inline]] inline void input_block(const float* const (&p)[kPoints], int64_t c,
                                               float* v, int64_t v_step) {
  using L = Lanes<W>;
  L d[4][4], t[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) d[i][j] = p[i * 4 + j] ? at<W>(p[i * 4 + j] + c) : L{};
  for (int j = 0; j < 4; ++j) {  // B^T d
    t[0][j] = d[0][j] - d[2][j];
    t[1][j] = d[1][j] + d[2][j];
    t[2][j] = d[2][j] - d[1][j];
    t[3][j] = d[1][j] - d[3][j];
  }
  for (int i = 0; i < 4; ++i) {  // (B^T d) B
    float* row = v + i * 4 * v_step + c;
    at<W>(row) = t[i][0] - t[i][2];
    at<W>(row + v_step) = t[i][1] + t[i][2];
    at<W>(row + 2 * v_step) = t[i][2] - t[i][1];
    at<W>(row + 3 * v_step) = t[i][1] - t[i][3];
  }
}

// Outputs [o, o + W) of one tile: A^T m A from the 16 M rows (point k at m + k * m_step), the
// 2x2 results to q (null outside the output).
template <int W>
[[gnu::always_inline]] inline void output_block(const float* m, int64_t m_step, int64_t o,
                                                float* const (&q)[4]) {
  using L = Lanes<W>;
  L s[2][4];
  for (int j = 0; j < 4; ++j) {  // A^T m
    const L m0 = at<W>(m + j * m_step + o), m1 = at<W>(m + (4 + j) * m_step + o);
    const L m2 = at<W>(m + (8 + j) * m_step + o), m3 = at<W>(m + (12 + j) * m_step + o);
    s[0][j] = m0 + m1 + m2;
    s[1][j] = m1 - m2 - m3;
  }
  for (int i = 0; i < 2; ++i) {  // (A^T m) A
    if (q[i * 2]) at<W>(q[i * 2] + o) = s[i][0] + s[i][1] + s[i][2];
    if (q[i * 2 + 1]) at<W>(q[i * 2 + 1] + o) = s[i][1] - s[i][2] - s[i][3];
  }
}

// The band's tiles (images [n0, n1), output rows [y0, y1)), as conv_winograd.h numbers them.
struct Band {
  int64_t n0, n1, y0, y1;
  int64_t rows() const { return (y1 - y0 + 1) / 2; }  // tile rows per image
};

template <int W>
[[gnu::always_inline]] inline void input_transform(const ConvGeometry& g, const float* x,
                                                   const Band& b, float* v) {
  const int64_t across = tiles_across(g), tiles = (b.n1 - b.n0) * b.rows() * across;
  const int64_t step = tiles * g.c, h = g.in[1], w = g.in[2];
  int64_t t = 0;
  for (int64_t n = b.n0; n < b.n1; ++n)
    for (int64_t ty = b.y0 / 2; ty < b.y0 / 2 + b.rows(); ++ty)
      for (int64_t tx = 0; tx < across; ++tx, ++t) {
        const float* p[kPoints];
        for (int i = 0; i < 4; ++i) {
          const int64_t iy = 2 * ty - g.pad[1] + i;
          for (int j = 0; j < 4; ++j) {
            const int64_t ix = 2 * tx - g.pad[2] + j;
            p[i * 4 + j] = iy >= 0 && iy < h && ix >= 0 && ix < w
                               ? x + n * g.xs_n + iy * g.xs[1] + ix * g.xs[2]
                               : nullptr;
          }
        }
        float* vt = v + t * g.c;
        int64_t c = 0;
        for (; c + W <= g.c; c += W) input_block<W>(p, c, vt, step);
        for (; c < g.c; ++c) input_block<1>(p, c, vt, step);
      }
}

template <int W>
[[gnu::always_inline]] inline void output_transform(const ConvGeometry& g, const float* m,
                                                    const Band& b, float* z) {
  const int64_t across = tiles_across(g), ow = g.out[2], o_count = g.o;
  const int64_t tiles = (b.n1 - b.n0) * b.rows() * across, step = tiles * o_count;
  const int64_t per_image = (b.y1 - b.y0) * ow;  // positions
  int64_t t = 0;
  for (int64_t n = b.n0; n < b.n1; ++n)
    for (int64_t ty = b.y0 / 2; ty < b.y0 / 2 + b.rows(); ++ty)
      for (int64_t tx = 0; tx < across; ++tx, ++t) {
        float* q[4];
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) {
            const int64_t oy = 2 * ty + i, ox = 2 * tx + j;
            q[i * 2 + j] = oy < b.y1 && ox < ow
                               ? z + ((n - b.n0) * per_image + (oy - b.y0) * ow + ox) * o_count
                               : nullptr;
          }
        const float* mt = m + t * o_count;
        int64_t o = 0;
        for (; o + W <= o_count; o += W) output_block<W>(mt, step, o, q);
        for (; o < o_count; ++o) output_block<1>(mt, step, o, q);
      }
}

KERAS_TARGET_AVX512 void input_avx512(const ConvGeometry& g, const float* x, const Band& b,
                                      float* v) {
  input_transform<kLanesAvx512>(g, x, b, v);
}
KERAS_TARGET_AVX2 void input_avx2(const ConvGeometry& g, const float* x, const Band& b, float* v) {
  input_transform<kLanesAvx2>(g, x, b, v);
}
void input_baseline(const ConvGeometry& g, const float* x, const Band& b, float* v) {
  input_transform<kLanesBaseline>(g, x, b, v);
}
KERAS_TARGET_AVX512 void output_avx512(const ConvGeometry& g, const float* m, const Band& b,
                                       float* z) {
  output_transform<kLanesAvx512>(g, m, b, z);
}
KERAS_TARGET_AVX2 void output_avx2(const ConvGeometry& g, const float* m, const Band& b, float* z) {
  output_transform<kLanesAvx2>(g, m, b, z);
}
void output_baseline(const ConvGeometry& g, const float* m, const Band& b, float* z) {
  output_transform<kLanesBaseline>(g, m, b, z);
}

// Outputs [o, o + W) of row c of the kernel transform: the 9 taps of input channel c (tap t
// at w + t * w_step) into that row of the 16 matrices (point k at u + k * u_step).
template <int W>
[[gnu::always_inline]] inline void kernel_block(const float* w, int64_t w_step, int64_t o, float* u,
                                                int64_t u_step) {
  using L = Lanes<W>;
  const float half = 0.5f;
  L k[3][3], r[4][3];  // r = G k
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) k[i][j] = at<W>(w + (i * 3 + j) * w_step + o);
  for (int j = 0; j < 3; ++j) {
    r[0][j] = k[0][j];
    r[1][j] = half * (k[0][j] + k[1][j] + k[2][j]);
    r[2][j] = half * (k[0][j] - k[1][j] + k[2][j]);
    r[3][j] = k[2][j];
  }
  for (int i = 0; i < 4; ++i) {  // (G k) G^T
    at<W>(u + (i * 4) * u_step + o) = r[i][0];
    at<W>(u + (i * 4 + 1) * u_step + o) = half * (r[i][0] + r[i][1] + r[i][2]);
    at<W>(u + (i * 4 + 2) * u_step + o) = half * (r[i][0] - r[i][1] + r[i][2]);
    at<W>(u + (i * 4 + 3) * u_step + o) = r[i][2];
  }
}

template <int W>
[[gnu::always_inline]] inline void kernel_row(const float* w, int64_t w_step, int64_t o_count,
                                              float* u, int64_t u_step) {
  int64_t o = 0;
  for (; o + W <= o_count; o += W) kernel_block<W>(w, w_step, o, u, u_step);
  for (; o < o_count; ++o) kernel_block<1>(w, w_step, o, u, u_step);
}

KERAS_TARGET_AVX512 void kernel_avx512(const float* w, int64_t w_step, int64_t o_count, float* u,
                                       int64_t u_step) {
  kernel_row<kLanesAvx512>(w, w_step, o_count, u, u_step);
}
KERAS_TARGET_AVX2 void kernel_avx2(const float* w, int64_t w_step, int64_t o_count, float* u,
                                   int64_t u_step) {
  kernel_row<kLanesAvx2>(w, w_step, o_count, u, u_step);
}
void kernel_baseline(const float* w, int64_t w_step, int64_t o_count, float* u, int64_t u_step) {
  kernel_row<kLanesBaseline>(w, w_step, o_count, u, u_step);
}

}  // namespace

int64_t winograd_kernel_floats(const ConvGeometry& g) {
  return kPoints * kernel_plane(g);
}

bool winograd_applies(const ConvGeometry& g) {
  const bool shape = g.window[0] == 1 && g.window[1] == 3 && g.window[2] == 3 && g.stride[1] == 1 &&
                     g.stride[2] == 1 && g.dilation[1] == 1 && g.dilation[2] == 1 &&
                     g.groups == 1 && g.xs_c == 1;
  const int64_t tiles = ((g.out[1] + 1) / 2) * tiles_across(g);
  return shape && g.c >= kMinChannels && g.o >= kMinChannels && tiles >= kMinTiles;
}

int64_t winograd_band_positions(const ConvGeometry& g) {
  const int64_t per_tile = kPoints * (g.c + g.o) * static_cast<int64_t>(sizeof(float));
  return 4 * std::clamp(kBandBytes / per_tile, kMinBandTiles, kMaxBandTiles);
}

void winograd_kernel(const ConvGeometry& g, const float* w, float* u) {
  const int64_t taps = g.c * g.o, plane = kernel_plane(g);
  parallel_for(g.c, std::max<int64_t>(1, kElementwiseGrain / (kPoints * g.o)),
               [&](int64_t b, int64_t e) {
                 for (int64_t c = b; c < e; ++c)
                   by_isa(kernel_avx512, kernel_avx2, kernel_baseline, w + c * g.o, taps, g.o,
                          u + c * g.o, plane);
               });
}

void winograd_rows(CpuBackend& be, const ConvGeometry& g, const float* x, const float* u,
                   int64_t n0, int64_t n1, int64_t y0, int64_t y1, float* z) {
  const Band band{n0, n1, y0, y1};
  const int64_t tiles = (n1 - n0) * band.rows() * tiles_across(g);
  if (tiles == 0) return;
  Array v_buffer = scratch(be, DType::Float32, Shape{kPoints, tiles, g.c});
  Array m_buffer = scratch(be, DType::Float32, Shape{kPoints, tiles, g.o});
  float* v = static_cast<float*>(v_buffer.data());
  float* m = static_cast<float*>(m_buffer.data());
  by_isa(input_avx512, input_avx2, input_baseline, g, x, band, v);
  for (int64_t k = 0; k < kPoints; ++k)
    gemm(false, false, tiles, g.o, g.c, v + k * tiles * g.c, g.c, u + k * kernel_plane(g), g.o,
         0.0f, m + k * tiles * g.o, g.o);
  by_isa(output_avx512, output_avx2, output_baseline, g, m, band, z);
}

void winograd_conv(CpuBackend& be, const ConvGeometry& g, const float* x, const float* w, float* y,
                   const std::function<void(int64_t, int64_t)>& finish) {
  Array u_buffer = scratch(be, DType::Float32, Shape{winograd_kernel_floats(g)});
  float* u = static_cast<float*>(u_buffer.data());
  winograd_kernel(g, w, u);
  // A task takes a band of tile rows of one image or, when a whole image is less than the
  // band, several whole images.
  const int64_t oh = g.out[1], ow = g.out[2], p_count = g.positions();
  const int64_t target = winograd_band_positions(g);
  const int64_t images = p_count >= target ? 1 : target / std::max<int64_t>(p_count, 1);
  const int64_t band = p_count >= target ? 2 * std::max<int64_t>(1, target / (2 * ow)) : oh;
  const int64_t bands = (oh + band - 1) / band, groups = (g.n + images - 1) / images;
  parallel_for(groups * bands, 1, [&](int64_t b, int64_t e) {
    for (int64_t item = b; item < e; ++item) {
      const int64_t n0 = item / bands * images, n1 = std::min(g.n, n0 + images);
      const int64_t y0 = item % bands * band, y1 = std::min(oh, y0 + band);
      const int64_t r0 = n0 * p_count + y0 * ow;
      winograd_rows(be, g, x, u, n0, n1, y0, y1, y + r0 * g.o);
      finish(r0, r0 + (n1 - n0) * (y1 - y0) * ow);
    }
  });
}

}  // namespace keras::cpu::conv_detail

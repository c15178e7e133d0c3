// Convolutions by im2col and GEMM. The output positions of the whole batch form the rows of
// one matrix, multiplied against the kernel seen as a (K * C/groups, O) matrix per group. Two
// schedules:
// - tiles: rows whose patches fit a core's L2 cache (or a small product) are spread over the
//   thread pool, each task gathering its own patches and running one single-threaded GEMM;
// - chunks, for patches too long for useful tiles (many channels): a chunk of rows (a few MiB
//   of patches) is gathered by the thread pool into a column buffer, then multiplied by gemm()
//   (gemm.h), which splits it over the pool.
// Short patches (a first layer's 3x3 over 1 or 3 channels) and depthwise convolutions skip
// im2col and GEMM altogether (conv_short_patch.h, conv_depthwise.h); float32 3x3 convolutions of
// stride 1 over enough channels and tiles run by Winograd's F(2x2, 3x3) (conv_winograd.h). The
// backward passes reuse the schedules: the input gradient multiplies by the transposed kernel
// and scatters the patches back (col2im, one image per task so writes never collide), the
// kernel gradient accumulates patches^T @ dy. Any input strides are read directly;
// float16/bfloat16 compute in float32. conv_bias_activation adds the bias and the activation to
// each chunk of output rows as soon as its GEMM is done (epilogue.h).

#include <algorithm>
#include <cstring>
#include <vector>

#include "conv_depthwise.h"
#include "conv_im2col.h"
#include "conv_short_patch.h"
#include "conv_winograd.h"
#include "cpu_backend.h"
#include "dtype_traits.h"
#include "epilogue.h"
#include "gemm.h"
#include "spatial.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

using namespace conv_detail;

// Patch buffer budget per chunk: large enough for efficient GEMMs, small enough to stay in
// the last-level cache.
constexpr int64_t kColumnBytes = int64_t{4} << 20;

// Rows per chunk: the patch budget, whole images when an image fits.
int64_t chunk_rows(const ConvGeometry& g, size_t item) {
  int64_t rows = std::max<int64_t>(1, kColumnBytes / (g.kc * static_cast<int64_t>(item)));
  const int64_t p = g.positions();
  if (p > 0 && rows >= p) rows = rows / p * p;
  return std::max<int64_t>(1, std::min(rows, g.rows));
}

// Adds the patches col (r1 - r0, kc) of rows [r0, r1) into acc (strides `as`), one image per
// task: windows of different images never overlap.
template <typename F>
void col2im(const ConvGeometry& g, const LayoutStrides& as, int64_t r0, int64_t r1, const F* col,
            F* acc) {
  const int64_t p_count = g.positions(), w2 = g.window[2];
  const bool runs = lines_are_runs(g, as.c, as.s);
  const int64_t first = r0 / p_count, last = (r1 - 1) / p_count;
  parallel_for(last - first + 1, 1, [&](int64_t b, int64_t e) {
    for (int64_t n = first + b; n < first + e; ++n) {
      const int64_t lo = std::max(r0, n * p_count), hi = std::min(r1, (n + 1) * p_count);
      F* an = acc + n * as.n;
      for (int64_t r = lo; r < hi; ++r) {
        const F* src = col + (r - r0) * g.kc;
        for_each_tap_line(g, r - n * p_count, as.s,
                          [&](int64_t tap, bool inside, int64_t off, int64_t i2) {
                            if (!inside) return;
                            if (runs && i2 >= 0 && i2 + w2 <= g.in[2]) {
                              F* d = an + off + i2 * as.s[2];
                              const F* s = src + tap * g.cg;
                              for (int64_t j = 0; j < w2 * g.cg; ++j) d[j] += s[j];
                              return;
                            }
                            for (int64_t k2 = 0; k2 < w2; ++k2) {
                              const int64_t i = i2 + k2 * g.dilation[2];
                              if (i < 0 || i >= g.in[2]) continue;
                              for (int64_t gi = 0; gi < g.groups; ++gi) {
                                const F* s = src + gi * g.kcg + (tap + k2) * g.cg;
                                F* d = an + off + i * as.s[2] + gi * g.cg * as.c;
                                for (int64_t c = 0; c < g.cg; ++c) d[c * as.c] += s[c];
                              }
                            }
                          });
      }
    }
  });
}

// dy (or any output-shaped array) as F rows (N * P, O).
template <typename T, typename F>
const F* output_rows(CpuBackend& be, const Array& dy, bool channels_last, Array& holder) {
  if (std::is_same_v<T, F> && channels_last && dy.is_contiguous())
    return static_cast<const F*>(dy.data());
  holder = scratch(be, dtype_of<F>(), dy.shape);
  be.copy(restride(holder, dy.shape, rows_strides(dy.shape, channels_last)), dy,
          backend::CopyMode::Assign);
  return static_cast<const F*>(holder.data());
}

// Patch gradients of rows [r0, r1) = dy @ kernel^T, per group.
template <typename F>
void multiply_kernel_t(const ConvGeometry& g, int64_t r0, int64_t r1, const F* d, const F* w,
                       F* col) {
  for (int64_t gi = 0; gi < g.groups; ++gi)
    gemm(false, true, r1 - r0, g.kcg, g.og, d + r0 * g.o + gi * g.og, g.o, w + gi * g.og, g.o,
            F(0), col + gi * g.kcg, g.kc);
}

// dw (+)= patches^T @ dy over rows [r0, r1), per group.
template <typename F>
void accumulate_kernel(const ConvGeometry& g, int64_t r0, int64_t r1, const F* col, const F* d,
                       F beta, F* dw) {
  for (int64_t gi = 0; gi < g.groups; ++gi)
    gemm(true, false, g.kcg, g.og, r1 - r0, col + gi * g.kcg, g.kc, d + r0 * g.o + gi * g.og,
            g.o, beta, dw + gi * g.og, g.o);
}

// The bias and activation applied to finished rows of the output (none by default).
struct ConvEpilogue {
  const Array* bias = nullptr;
  backend::Activation act = backend::Activation::None;
  bool active() const { return bias != nullptr || act != backend::Activation::None; }
};

template <typename T, typename F>
void forward(CpuBackend& be, const Array& out, const Array& x, const Array& kernel,
             const ConvSpec& s, ConvEpilogue ep = {}) {
  const ConvGeometry g = conv_geometry(x, out, kernel, s);
  Array w_holder;
  const F* w = kernel_matrix<T, F>(be, kernel, w_holder);
  const bool direct = std::is_same_v<T, F> && s.channels_last && out.is_contiguous();
  Array y_rows = direct ? out : scratch(be, dtype_of<F>(), out.shape);
  F* y = static_cast<F*>(y_rows.data());
  const T* xp = static_cast<const T*>(x.data());
  // Rows are finished chunk by chunk; with a direct output each chunk gets the epilogue while
  // it is in cache, otherwise `out` gets it once converted.
  const EpilogueBias bias = ep.bias ? EpilogueBias::of(*ep.bias) : EpilogueBias{};
  const bool fuse = direct && ep.active();
  auto finish_rows = [&](int64_t r0, int64_t r1, bool parallel) {
    if constexpr (std::is_same_v<T, F>)
      if (fuse) apply_epilogue<F>(y + r0 * g.o, r1 - r0, g.o, bias, ep.act, parallel);
  };
  auto finish = [&] {
    if (!direct)
      be.copy(out, restride(y_rows, out.shape, rows_strides(out.shape, s.channels_last)),
              backend::CopyMode::Assign);
    if (!fuse && ep.active())  // (conv_bias_activation's output is contiguous channels_last)
      apply_epilogue<T>(static_cast<T*>(out.data()), g.rows, g.o, bias, ep.act);
  };
  if constexpr (std::is_same_v<T, float> && std::is_same_v<F, float>) {
    if (is_depthwise(g)) {
      depthwise_forward(g, xp, w, y);
      finish_rows(0, g.rows, true);
      finish();
      return;
    }
    if (short_patch_conv(g, g.groups)) {
      short_patch_forward(g, g.o, xp, w, y, fuse ? bias : EpilogueBias{},
                          fuse ? ep.act : backend::Activation::None);
      finish();
      return;
    }
    if (winograd_applies(g)) {
      winograd_conv(be, g, xp, w, y, [&](int64_t r0, int64_t r1) { finish_rows(r0, r1, false); });
      finish();
      return;
    }
  }
  // A 1x1 convolution of stride 1 over a contiguous channels-last x multiplies x's rows in
  // place: the same products as through a gathered copy, without the copy.
  const F* x_rows = nullptr;
  if constexpr (std::is_same_v<T, F>)
    if (s.channels_last && x.is_contiguous() && patches_are_positions(g)) x_rows = xp;
  auto patches = [&](int64_t r0, int64_t r1, F* col) -> const F* {
    if (x_rows) return x_rows + r0 * g.kc;
    im2col<T, F>(g, xp, r0, r1, col);
    return col;
  };
  auto buffer = [&](int64_t rows) { return x_rows ? Array{} : patch_buffer<F>(be, g, rows); };
  if (const int64_t tile = tile_rows(g, sizeof(F))) {
    parallel_for((g.rows + tile - 1) / tile, 1, [&](int64_t b, int64_t e) {
      Array col_buffer = buffer(tile);
      F* col = col_buffer.storage ? static_cast<F*>(col_buffer.data()) : nullptr;
      for (int64_t t = b; t < e; ++t) {
        const int64_t r0 = t * tile, r1 = std::min(g.rows, r0 + tile);
        multiply_kernel(g, r0, r1, patches(r0, r1, col), w, y);
        finish_rows(r0, r1, false);
      }
    });
  } else {
    const int64_t chunk = chunk_rows(g, sizeof(F));
    Array col_buffer = buffer(chunk);
    F* col = col_buffer.storage ? static_cast<F*>(col_buffer.data()) : nullptr;
    for (int64_t r0 = 0; r0 < g.rows; r0 += chunk) {
      const int64_t r1 = std::min(g.rows, r0 + chunk);
      multiply_kernel(g, r0, r1, patches(r0, r1, col), w, y);
      finish_rows(r0, r1, true);
    }
  }
  finish();
}

template <typename T, typename F>
void backward_input(CpuBackend& be, const Array& dx, const Array& dy, const Array& kernel,
                    const ConvSpec& s) {
  const ConvGeometry g = conv_geometry(dx, dy, kernel, s);
  Array w_holder, dy_holder;
  const F* w = kernel_matrix<T, F>(be, kernel, w_holder);
  const F* d = output_rows<T, F>(be, dy, s.channels_last, dy_holder);
  const bool direct = std::is_same_v<T, F> && dx.is_contiguous();
  Array acc_holder = direct ? dx : scratch(be, dtype_of<F>(), dx.shape);
  F* acc = static_cast<F*>(acc_holder.data());
  std::memset(static_cast<void*>(acc), 0, static_cast<size_t>(dx.numel()) * sizeof(F));
  const LayoutStrides as = layout_strides(acc_holder, s.spatial_dims, s.channels_last);
  if (const int64_t tile = tile_rows(g, sizeof(F))) {
    // A task per image, so that its tiles' windows are summed by one thread.
    const int64_t p_count = g.positions();
    parallel_for(g.n, 1, [&](int64_t b, int64_t e) {
      Array col_buffer = patch_buffer<F>(be, g, std::min(tile, p_count));
      F* col = static_cast<F*>(col_buffer.data());
      for (int64_t n = b; n < e; ++n)
        for (int64_t r0 = n * p_count; r0 < (n + 1) * p_count; r0 += tile) {
          const int64_t r1 = std::min((n + 1) * p_count, r0 + tile);
          multiply_kernel_t(g, r0, r1, d, w, col);
          col2im<F>(g, as, r0, r1, col, acc);
        }
    });
  } else {
    const int64_t chunk = chunk_rows(g, sizeof(F));
    Array col_buffer = patch_buffer<F>(be, g, chunk);
    F* col = static_cast<F*>(col_buffer.data());
    for (int64_t r0 = 0; r0 < g.rows; r0 += chunk) {
      const int64_t r1 = std::min(g.rows, r0 + chunk);
      multiply_kernel_t(g, r0, r1, d, w, col);
      col2im<F>(g, as, r0, r1, col, acc);
    }
  }
  if (!direct) be.copy(dx, acc_holder, backend::CopyMode::Assign);
}

template <typename T, typename F>
void backward_kernel(CpuBackend& be, const Array& dkernel, const Array& x, const Array& dy,
                     const ConvSpec& s) {
  const ConvGeometry g = conv_geometry(x, dy, dkernel, s);
  Array dy_holder;
  const F* d = output_rows<T, F>(be, dy, s.channels_last, dy_holder);
  const bool direct = std::is_same_v<T, F> && dkernel.is_contiguous();
  Array dw_holder = direct ? dkernel : scratch(be, dtype_of<F>(), dkernel.shape);
  F* dw = static_cast<F*>(dw_holder.data());
  const T* xp = static_cast<const T*>(x.data());
  const int64_t size = g.kcg * g.o;  // elements of dw
  if constexpr (std::is_same_v<T, float> && std::is_same_v<F, float>) {
    if (short_patch_conv(g, g.groups)) {
      short_patch_backward_kernel(g, g.o, xp, d, dw);
      if (!direct) be.copy(dkernel, dw_holder, backend::CopyMode::Assign);
      return;
    }
  }
  if (const int64_t tile = tile_rows(g, sizeof(F))) {
    // Each slice of tiles sums into its own partial kernel; the partials are added in slice
    // order, so the result does not depend on timing.
    const int64_t tiles = (g.rows + tile - 1) / tile;
    const int64_t slices = std::max<int64_t>(1, std::min<int64_t>(num_threads(), tiles));
    std::vector<F> partial(static_cast<size_t>(slices * size), F(0));
    parallel_for(slices, 1, [&](int64_t b, int64_t e) {
      Array col_buffer = patch_buffer<F>(be, g, tile);
      F* col = static_cast<F*>(col_buffer.data());
      for (int64_t slice = b; slice < e; ++slice)
        for (int64_t t = slice * tiles / slices; t < (slice + 1) * tiles / slices; ++t) {
          const int64_t r0 = t * tile, r1 = std::min(g.rows, r0 + tile);
          im2col<T, F>(g, xp, r0, r1, col);
          accumulate_kernel(g, r0, r1, col, d, F(1), partial.data() + slice * size);
        }
    });
    std::copy(partial.begin(), partial.begin() + size, dw);
    for (int64_t slice = 1; slice < slices; ++slice)
      for (int64_t i = 0; i < size; ++i) dw[i] += partial[slice * size + i];
  } else {
    const int64_t chunk = chunk_rows(g, sizeof(F));
    Array col_buffer = patch_buffer<F>(be, g, chunk);
    F* col = static_cast<F*>(col_buffer.data());
    if (g.rows == 0) std::fill(dw, dw + size, F(0));
    for (int64_t r0 = 0; r0 < g.rows; r0 += chunk) {
      const int64_t r1 = std::min(g.rows, r0 + chunk);
      im2col<T, F>(g, xp, r0, r1, col);
      accumulate_kernel(g, r0, r1, col, d, F(r0 == 0 ? 0 : 1), dw);
    }
  }
  if (!direct) be.copy(dkernel, dw_holder, backend::CopyMode::Assign);
}

// Runs fn<T, F>() for a floating dtype T, with F the GEMM's type.
template <typename Fn>
void dispatch_float(DType dtype, Fn fn) {
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, double>) {
      fn.template operator()<T, double>();
    } else if constexpr (is_float_v<T>) {
      fn.template operator()<T, float>();
    }
  });
}

}  // namespace

void CpuBackend::conv(const Array& out, const Array& x, const Array& kernel, const ConvSpec& spec) {
  if (!is_floating(x.dtype)) unsupported("conv on integer tensors (the front end casts to float)");
  dispatch_float(x.dtype,
                 [&]<typename T, typename F>() { forward<T, F>(*this, out, x, kernel, spec); });
}

void CpuBackend::conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                                      const Array& bias, backend::Activation activation,
                                      const ConvSpec& spec) {
  if (!is_floating(x.dtype)) unsupported("conv_bias_activation on integer tensors");
  if (!spec.channels_last || !out.is_contiguous())
    unsupported("conv_bias_activation into a channels_first or strided output");
  const ConvEpilogue ep{bias.storage ? &bias : nullptr, activation};
  dispatch_float(x.dtype, [&]<typename T, typename F>() {
    forward<T, F>(*this, out, x, kernel, spec, ep);
  });
}

void CpuBackend::conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                                     const ConvSpec& spec) {
  if (!is_floating(dy.dtype)) unsupported("conv_backward_input on integer tensors");
  dispatch_float(dy.dtype, [&]<typename T, typename F>() {
    backward_input<T, F>(*this, dx, dy, kernel, spec);
  });
}

void CpuBackend::conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                                      const ConvSpec& spec) {
  if (!is_floating(x.dtype)) unsupported("conv_backward_kernel on integer tensors");
  dispatch_float(x.dtype, [&]<typename T, typename F>() {
    backward_kernel<T, F>(*this, dkernel, x, dy, spec);
  });
}

}  // namespace keras::cpu

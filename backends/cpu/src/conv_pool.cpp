// Conv2D followed by MaxPooling2D() as one pass (Capability::ConvPool). The conv output z is
// computed a band of window rows at a time into a buffer that stays in cache, gets its bias and
// activation there, and is pooled at once, keeping each window's argmax (one byte) where the
// caller asks for it (a training step): z itself is never written to memory. The backward pass
// starts from the pooled gradient and the argmax:
// - short patches without an input gradient (a first layer): the kernel gradient row band by
//   row band, each band's dz scattered into an L1 buffer;
// - float32, one group: only the argmax positions' windows (conv_pool_sparse.h);
// - otherwise: dz scattered in full, then the convolution's own gradients (conv.cpp).
//
// The forward products are the ones conv.cpp computes for the same rows (short patches by the
// direct loops, 3x3 windows of stride 1 by Winograd's F(2x2, 3x3), whose tiles are the pooling
// windows, others by im2col and a single-threaded GEMM), and the bias, activation and
// pooling use the same scalar arithmetic as the separate kernels, so fused and unfused layers
// agree.

#include <algorithm>
#include <vector>

#include "conv_im2col.h"
#include "conv_pool_sparse.h"
#include "conv_short_patch.h"
#include "conv_winograd.h"
#include "cpu_backend.h"
#include "epilogue.h"
#include "pool_2x2.h"

namespace keras::cpu {
namespace {

using namespace conv_detail;
using backend::Activation;

// Conv output rows per band when the patches are short (no GEMM to feed): small enough that
// the band's output stays in L1/L2 between the products and the pooling.
constexpr int64_t kShortBandRows = 256;

// The convolution's output shape (N, H, W, O) from its input, kernel and spec (the pooled
// output only tells H / 2 and W / 2).
Array conv_output(const Array& x, const Array& kernel, const ConvSpec& s) {
  Array z;
  z.shape = Shape{x.shape[0]};
  for (int i = 0; i < 2; ++i) {
    const int64_t padded = x.shape[1 + i] + s.pad_before[i] + s.pad_after[i];
    const int64_t reach = s.dilation[i] * (kernel.shape[i] - 1) + 1;
    z.shape.push_back((padded - reach) / s.strides[i] + 1);
  }
  z.shape.push_back(kernel.shape[3]);
  return z;
}

template <typename T>
void forward(CpuBackend& be, const Array& out, const Array& argmax, const Array& x,
             const Array& kernel, const Array& bias, Activation act, const ConvSpec& s) {
  const ConvGeometry g = conv_geometry(x, conv_output(x, kernel, s), kernel, s);
  Array w_holder;
  const T* w = kernel_matrix<T, T>(be, kernel, w_holder);
  const T* xp = static_cast<const T*>(x.data());
  T* yp = static_cast<T*>(out.data());
  uint8_t* ap = argmax.storage ? static_cast<uint8_t*>(argmax.data()) : nullptr;
  const EpilogueBias eb = EpilogueBias::of(bias);
  const int64_t ph = out.shape[1], pw = out.shape[2], ow = g.out[2], o = g.o;
  if (g.n == 0 || ph == 0 || pw == 0 || o == 0) return;
  const int64_t unit = 2 * ow;  // conv rows under one row of windows
  bool short_patch = false, winograd = false;
  if constexpr (std::is_same_v<T, float>) {
    short_patch = short_patch_conv(g, g.groups);
    winograd = !short_patch && winograd_applies(g);
  }
  Array u_buffer;  // Winograd's transformed kernel
  if constexpr (std::is_same_v<T, float>)
    if (winograd) {
      u_buffer = scratch(be, DType::Float32, Shape{winograd_kernel_floats(g)});
      winograd_kernel(g, w, static_cast<float*>(u_buffer.data()));
    }
  const int64_t target = short_patch ? kShortBandRows
                         : winograd  ? winograd_band_positions(g)
                                     : std::max(kMinTileRows, tile_rows(g, sizeof(T)));
  // A task takes a band of window rows of one image or, when a whole image is less than the
  // target, several whole images (their rows concatenated, so one GEMM covers them all).
  const int64_t image_rows = ph * unit;
  const int64_t images = image_rows >= target ? 1 : target / image_rows;
  const int64_t band = image_rows >= target ? std::clamp<int64_t>(target / unit, 1, ph) : ph;
  const int64_t bands = (ph + band - 1) / band;
  const int64_t image_groups = (g.n + images - 1) / images;
  parallel_for(image_groups * bands, 1, [&](int64_t b, int64_t e) {
    const int64_t capacity = images * band * unit;
    Array z_buffer = scratch(be, dtype_of<T>(), Shape{capacity, o});
    const bool gathers = !short_patch && !winograd;
    Array col_buffer = gathers ? patch_buffer<T>(be, g, capacity) : Array{};
    T* z = static_cast<T*>(z_buffer.data());
    T* col = gathers ? static_cast<T*>(col_buffer.data()) : nullptr;
    for (int64_t item = b; item < e; ++item) {
      const int64_t n0 = item / bands * images, n1 = std::min(g.n, n0 + images);
      const int64_t py0 = item % bands * band, py1 = std::min(ph, py0 + band);
      const int64_t rows = (py1 - py0) * unit;  // per image: consecutive output positions
      if (winograd) {
        if constexpr (std::is_same_v<T, float>)
          winograd_rows(be, g, xp, static_cast<const float*>(u_buffer.data()), n0, n1, 2 * py0,
                        2 * py1, z);
      } else {
        for (int64_t n = n0; n < n1; ++n) {
          const int64_t r0 = n * g.positions() + py0 * unit, at = (n - n0) * rows;
          if constexpr (std::is_same_v<T, float>) {
            if (short_patch) short_patch_rows(g, o, xp, w, r0, r0 + rows, z + at * o);
          }
          if (gathers) im2col<T, T>(g, xp, r0, r0 + rows, col + at * g.kc);
        }
      }
      const int64_t total = (n1 - n0) * rows;
      if (gathers) multiply_kernel(g, 0, total, col, w, z);
      apply_epilogue<T>(z, total, o, eb, act, false);
      for (int64_t n = n0; n < n1; ++n)
        for (int64_t py = py0; py < py1; ++py) {
          const T* top = z + ((n - n0) * rows + (py - py0) * unit) * o;
          const int64_t at = ((n * ph + py) * pw) * o;
          if (ap)
            max_pool_2x2_argmax_row(top, top + ow * o, yp + at, ap + at, pw, o);
          else
            max_pool_2x2_row(top, top + ow * o, yp + at, pw, o);
        }
    }
  });
}

// Conv rows per partial sum of the fused kernel gradient (whole rows of windows): fixed, so
// the result depends neither on the number of threads nor on timing.
constexpr int64_t kSliceConvRows = 4096;

// dkernel of a short-patch convolution straight from the pooled gradient gz: each row of
// windows is scattered into a small buffer (in L1) and multiplied by its patches at once, so
// the dense dz is never written. Rows and columns under no window have dz = 0 and are skipped.
void short_patch_kernel_grad(CpuBackend& be, const ConvGeometry& g, int64_t ph, int64_t pw,
                             const float* x, const float* gz, const uint8_t* argmax, float* dw) {
  const int64_t ow = g.out[2], o = g.o, unit = 2 * ow, size = g.kc * o;
  const int64_t units = g.n * ph, per_slice = std::max<int64_t>(1, kSliceConvRows / unit);
  const int64_t slices = (units + per_slice - 1) / per_slice;
  std::vector<float> partial(static_cast<size_t>(std::max<int64_t>(slices, 1) * size), 0.0f);
  parallel_for(slices, 1, [&](int64_t b, int64_t e) {
    Array tile = scratch(be, DType::Float32, Shape{unit, o});
    float* d = static_cast<float*>(tile.data());
    for (int64_t s = b; s < e; ++s)
      for (int64_t u = s * per_slice; u < std::min(units, (s + 1) * per_slice); ++u) {
        const int64_t at = u * pw * o;  // window row u = (n, py) of the pooled arrays
        max_pool_2x2_scatter_row(gz + at, argmax + at, d, d + ow * o, pw, ow, o);
        const int64_t r0 = (u / ph) * g.positions() + (u % ph) * unit;
        short_patch_kernel_grad_rows(g, o, x, d, r0, r0 + unit, partial.data() + s * size);
      }
  });
  std::copy(partial.begin(), partial.begin() + size, dw);
  for (int64_t s = 1; s < slices; ++s)
    for (int64_t i = 0; i < size; ++i) dw[i] += partial[s * size + i];
}

}  // namespace

void CpuBackend::conv_bias_activation_max_pool(const Array& out, const Array& argmax,
                                               const Array& x, const Array& kernel,
                                               const Array& bias, Activation activation,
                                               const ConvSpec& spec) {
  if (x.dtype != DType::Float32 && x.dtype != DType::Float64)
    unsupported("conv_bias_activation_max_pool outside float32 and float64");
  if (spec.spatial_dims != 2 || !spec.channels_last || !out.is_contiguous() ||
      (argmax.storage && (!argmax.is_contiguous() || argmax.dtype != DType::UInt8)))
    unsupported(
        "conv_bias_activation_max_pool other than 2-d channels_last into contiguous "
        "outputs with uint8 argmax (or none)");
  if (x.dtype == DType::Float32)
    forward<float>(*this, out, argmax, x, kernel, bias, activation, spec);
  else
    forward<double>(*this, out, argmax, x, kernel, bias, activation, spec);
}

void CpuBackend::conv_bias_activation_max_pool_backward(const Array& dx, const Array& dkernel,
                                                        const Array& db, const Array& x,
                                                        const Array& kernel, const Array& y,
                                                        const Array& g, const Array& argmax,
                                                        Activation activation,
                                                        const ConvSpec& spec) {
  if (y.dtype != DType::Float32 && y.dtype != DType::Float64)
    unsupported("conv_bias_activation_max_pool_backward outside float32 and float64");
  if (spec.spatial_dims != 2 || !spec.channels_last || !argmax.is_contiguous())
    unsupported(
        "conv_bias_activation_max_pool_backward other than 2-d channels_last with a "
        "contiguous argmax");
  // The pooled dz (g times the activation's derivative) and db in one pass.
  const Array gz = scratch(*this, y.dtype, y.shape);
  bias_activation_backward(gz, db, y, g, activation);
  const uint8_t* ap = static_cast<const uint8_t*>(argmax.data());
  const Array z = conv_output(x, kernel, spec);
  const ConvGeometry geo = conv_geometry(x, z, kernel, spec);
  if (y.dtype == DType::Float32 && !dx.storage && dkernel.storage && dkernel.is_contiguous() &&
      short_patch_conv(geo, geo.groups)) {
    short_patch_kernel_grad(*this, geo, y.shape[1], y.shape[2], static_cast<const float*>(x.data()),
                            static_cast<const float*>(gz.data()), ap,
                            static_cast<float*>(dkernel.data()));
    return;
  }
  auto dense_or_null = [](const Array& a) {
    return a.storage && a.is_contiguous() ? static_cast<float*>(a.data()) : nullptr;
  };
  if (y.dtype == DType::Float32 && geo.groups == 1 && x.is_contiguous() && kernel.is_contiguous() &&
      (!dx.storage || dense_or_null(dx)) && (!dkernel.storage || dense_or_null(dkernel))) {
    conv_pool_sparse_backward(geo, y.shape[1], y.shape[2], static_cast<const float*>(x.data()),
                              static_cast<const float*>(kernel.data()),
                              static_cast<const float*>(gz.data()), ap, dense_or_null(dx),
                              dense_or_null(dkernel));
    return;
  }
  const Array dz = scratch(*this, y.dtype, z.shape);
  const int64_t n = z.shape[0], h = z.shape[1], w = z.shape[2], c = z.shape[3];
  if (y.dtype == DType::Float32)
    max_pool_2x2_scatter(n, h, w, c, static_cast<const float*>(gz.data()), ap,
                         static_cast<float*>(dz.data()));
  else
    max_pool_2x2_scatter(n, h, w, c, static_cast<const double*>(gz.data()), ap,
                         static_cast<double*>(dz.data()));
  if (dx.storage) conv_backward_input(dx, dz, kernel, spec);
  if (dkernel.storage) conv_backward_kernel(dkernel, x, dz, spec);
}

}  // namespace keras::cpu

#pragma once
// Pooling windows as the cuda backend's pooling kernels walk them (pool_kernels.cu): every
// layout and 1-3 spatial axes as 3 axes (unit ones added), padded positions never counted (as
// Keras pools), the backward pass gathered per input element from the windows that hold it, so
// no two threads write one element. KERAS_HOST_DEVICE and plain integers: tested on the host.

#include <cstdint>

#include "keras/core/host_device.h"
#ifndef __CUDACC__
#include "keras/backend/primitives.h"
#include "keras/core/shape.h"
#endif

namespace keras::cuda {

/// A pooling over (n, *in, c) into (n, *out, c), three spatial axes (unit extents for fewer).
struct PoolGeometry {
  int64_t n = 1, c = 1;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t window[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0};  // pad: before
  bool is_max = true;
};

/// Element strides of one array of a pooling: image, channel and each spatial axis.
struct PoolStrides {
  int64_t n = 0, c = 0, s[3] = {0, 0, 0};
};

/// The taps of window `o` along one axis that fall inside the input: [t0, t1) (empty when
/// t1 <= t0). Window o starts at o * stride - pad.
KERAS_HOST_DEVICE inline void taps_inside(int64_t o, int64_t in, int64_t window, int64_t stride,
                                          int64_t pad, int64_t& t0, int64_t& t1) {
  const int64_t start = o * stride - pad;
  t0 = start < 0 ? -start : 0;
  t1 = start + window > in ? in - start : window;
}

/// The windows along one axis that hold input index i: [lo, hi] (empty when lo > hi), those o
/// with o * stride - pad <= i <= o * stride - pad + window - 1 and 0 <= o < out.
KERAS_HOST_DEVICE inline void windows_holding(int64_t i, int64_t out, int64_t window,
                                              int64_t stride, int64_t pad, int64_t& lo,
                                              int64_t& hi) {
  const int64_t first = i + pad - window + 1;  // o * stride >= first
  lo = first <= 0 ? 0 : (first + stride - 1) / stride;
  hi = (i + pad) / stride;
  if (hi > out - 1) hi = out - 1;
}

#ifndef __CUDACC__
/// The geometry of pooling x into y (shapes in spec's layout); fewer than 3 spatial axes take
/// the last places, unit axes before them.
PoolGeometry pool_geometry(const Shape& x, const Shape& y, const backend::PoolSpec& spec);
/// An array's strides in PoolStrides's order for spec's layout (0 for the added unit axes).
PoolStrides pool_strides(const Strides& strides, const backend::PoolSpec& spec);
#endif

}  // namespace keras::cuda

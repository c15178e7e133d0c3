#include "pool_geometry.h"

namespace keras::cuda {
namespace {

// Where spatial axis k of spec's arrays is in the array, and in PoolGeometry's three.
int array_axis(const backend::PoolSpec& spec, int k) {
  return (spec.channels_last ? 1 : 2) + k;
}
int slot(const backend::PoolSpec& spec, int k) {
  return 3 - spec.spatial_dims + k;
}
int channel_axis(const backend::PoolSpec& spec) {
  return spec.channels_last ? spec.spatial_dims + 1 : 1;
}

}  // namespace

PoolGeometry pool_geometry(const Shape& x, const Shape& y, const backend::PoolSpec& spec) {
  PoolGeometry g;
  g.n = x[0];
  g.c = x[channel_axis(spec)];
  g.is_max = spec.kind == backend::PoolKind::Max;
  for (int k = 0; k < spec.spatial_dims; ++k) {
    const int d = slot(spec, k);
    g.in[d] = x[array_axis(spec, k)];
    g.out[d] = y[array_axis(spec, k)];
    g.window[d] = spec.window[k];
    g.stride[d] = spec.strides[k];
    g.pad[d] = spec.pad_before[k];
  }
  return g;
}

PoolStrides pool_strides(const Strides& strides, const backend::PoolSpec& spec) {
  PoolStrides s;
  s.n = strides[0];
  s.c = strides[channel_axis(spec)];
  for (int k = 0; k < spec.spatial_dims; ++k) s.s[slot(spec, k)] = strides[array_axis(spec, k)];
  return s;
}

}  // namespace keras::cuda

#pragma once
// Differentiable building blocks of the conv and pooling decompositions, over the spatial
// axes 1..d of a channels_last tensor (N, *spatial, C):
// - window_view: every sliding window as a zero-copy view (N, *out, *window, C), overlapping
//   where the stride is smaller than the window (im2col without the copy);
// - window_embed: its adjoint, summing windows back into an image (col2im);
// - pad_spatial: constant padding, whose gradient is a crop;
// - take_axis: a gather along one axis with host-known indices.

#include <vector>

#include "keras/core/scalar.h"
#include "ops/nn/spatial_args.h"

namespace keras::ops::detail {

/// The windows of a sliding-window op: sizes, steps between windows and between taps.
struct WindowGeometry {
  Spatial window;
  Spatial strides;
  Spatial dilation;
};

/// (N, *out, *window, C) with element (n, o, k, c) = x[n, o * strides + k * dilation, c].
Tensor window_view(const Tensor& x, const Spatial& out, const WindowGeometry& g);
/// zeros(x_shape) with every window of w (shaped as window_view's result) added in place.
Tensor window_embed(const Tensor& w, const Shape& x_shape, const WindowGeometry& g);

/// x padded with `value` on the spatial axes (non-negative amounts), through ops::pad.
Tensor pad_spatial(const Tensor& x, const Spatial& before, const Spatial& after,
                   const Scalar& value);
/// The spatial window [begin, begin + extent) of x, as a view.
Tensor crop_spatial(const Tensor& x, const Spatial& begin, const Spatial& extent);

/// x[..., indices, ...] along `axis` (indices in range, checked by the caller).
Tensor take_axis(const Tensor& x, const std::vector<int64_t>& indices, int axis);


}  // namespace keras::ops::detail

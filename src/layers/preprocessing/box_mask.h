#pragma once
// The random rectangles of RandomErasing and CutMix (Keras's _compute_crop_bounds and
// _generate_batch_mask, which the two layers repeat word for word).

#include <utility>

#include "keras/random/random.h"
#include "keras/tensor/tensor.h"

namespace keras::layers::preprocessing_detail {

/// A span of crop_ratio * length (crop_ratio of shape (batch,)) starting uniformly in
/// [0, length - span): (start, end), each (batch,) in `dtype`.
std::pair<Tensor, Tensor> crop_bounds(int64_t batch, int64_t length, const Tensor& crop_ratio,
                                      const random::Seed& seed, DType dtype);

/// Boolean masks of the pixels with x0 <= x < x1 and y0 <= y < y1 (x along the width, pixel
/// indices as coordinates), one box per image, repeated over the channels: shape (batch, H, W,
/// C) or (batch, C, H, W).
Tensor box_mask(int64_t batch, int64_t height, int64_t width, int64_t channels, bool channels_last,
                const Tensor& x0, const Tensor& x1, const Tensor& y0, const Tensor& y1,
                DType dtype);

}  // namespace keras::layers::preprocessing_detail

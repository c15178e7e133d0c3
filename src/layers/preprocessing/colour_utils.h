#pragma once
// Helpers of the colour augmentation layers (RandomHue, RandomSaturation, ...): one channel of
// a batch of images, a channel replaced, and a (low, high) pair sorted as some of Keras's
// layers store their value_range.

#include <string>
#include <utility>

#include "keras/tensor/tensor.h"

namespace keras::layers::preprocessing_detail {

/// Channel `k` of rank-4 images, (batch, height, width), as Keras's images[..., k] or
/// images[:, k, :, :].
Tensor image_channel(const Tensor& images, int64_t k, const std::string& data_format);

/// The three channels of rank-4 images with channel `k` replaced by `channel` (batch,
/// height, width): Keras's stack of the three, in the layer's data format.
Tensor replace_channel(const Tensor& images, int64_t k, const Tensor& channel,
                       const std::string& data_format);

/// (min, max) of the pair (Keras's sorted(value_range)).
std::pair<double, double> sorted_pair(const std::pair<double, double>& p);

}  // namespace keras::layers::preprocessing_detail

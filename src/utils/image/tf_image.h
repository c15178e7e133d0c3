#pragma once
// How Keras's tf.data pipeline (image_dataset_from_directory) turns a file into a tensor:
// tf.io.decode_image with a channel count, then tf.image.resize, smart_resize's centred crop
// or tf.image.resize_with_pad. Internal to keras::utils.

#include <cstdint>
#include <string>
#include <utility>

#include "keras/tensor/tensor.h"

namespace keras::utils::detail {

/// tf.io.decode_image(contents, channels): a (height, width, channels) uint8 tensor. JPEG uses
/// TensorFlow's fast integer IDCT and, for one channel, libjpeg's own luma (the Y plane).
Tensor decode_like_tensorflow(const std::string& path, int channels);

struct TfResize {
  std::pair<int64_t, int64_t> size;
  /// "bilinear", "nearest", "bicubic", "lanczos3" or "lanczos5".
  std::string interpolation;
  bool crop_to_aspect_ratio = false;
  bool pad_to_aspect_ratio = false;
};

/// tf.image.resize(image, (height, width), "bicubic") of a float32 (h, w, c) image.
Tensor tensorflow_bicubic(const Tensor& image, int64_t height, int64_t width);

/// The resized image (channels last): float32, or the input's uint8 for "nearest", as
/// tf.image.resize returns.
Tensor resize_like_tensorflow(const Tensor& image, const TfResize& how);

}  // namespace keras::utils::detail

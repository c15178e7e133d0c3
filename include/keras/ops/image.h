#pragma once
// keras.ops.image: resizing, affine warps, cropping and padding of images, with the semantics
// of Keras's JAX backend (jax.image.resize, jax.scipy.ndimage.map_coordinates). Keras does not
// re-export these at the top of keras.ops, so neither does keras-cpp: call ops::image::resize.
//
// Images are rank 3 (one image) or rank 4 (a batch), laid out as `data_format` says:
// "channels_last" (..., height, width, channels) or "channels_first" (..., channels, height,
// width); an empty data_format means keras::config::image_data_format().
//
//   Tensor y = ops::image::resize(x, {64, 64}, {.interpolation = "bicubic"});
//   Tensor z = ops::image::affine_transform(x, transform, {.fill_mode = "reflect"});

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "keras/tensor/tensor.h"

namespace keras::ops::image {

/// resize's keyword arguments (keras.ops.image.resize).
struct ResizeOptions {
  /// "bilinear", "nearest", "bicubic" (Keys cubic, a = -0.5), "lanczos3" or "lanczos5".
  std::string interpolation = "bilinear";
  /// Widen the kernel by the downsampling factor (a low-pass filter) when shrinking.
  bool antialias = false;
  /// Crop the largest centred window of the target aspect ratio first.
  bool crop_to_aspect_ratio = false;
  /// Pad the short side evenly to the target aspect ratio first (with `fill_value`).
  bool pad_to_aspect_ratio = false;
  /// Only "constant" is supported, as in Keras.
  std::string fill_mode = "constant";
  double fill_value = 0.0;
  std::string data_format;
};

/// Images resized to `size` = (height, width), with half-pixel centres as jax.image.resize:
/// output pixel i samples input coordinate (i + 0.5) * in / out - 0.5 through the kernel, whose
/// weights are normalized to sum to one (so borders repeat the edge pixels). "nearest" takes
/// input pixel floor((i + 0.5) * in / out) (computed in float32). Integer images are resized in
/// float32, rounded and saturated back to their dtype. Differentiable in `images` (the
/// resampling is linear).
Tensor resize(const Tensor& images, std::array<int64_t, 2> size, const ResizeOptions& options = {});

/// affine_transform's keyword arguments (keras.ops.image.affine_transform).
struct AffineTransformOptions {
  /// "bilinear" or "nearest" (round half away from zero).
  std::string interpolation = "bilinear";
  /// How points outside the image are read: "constant" (fill_value), "nearest" (the edge
  /// pixel), "wrap" (periodic), "mirror" (reflect about the edge pixels' centres: d c b | a b c d)
  /// or "reflect" (reflect about the edge: c b a | a b c d | d c b).
  std::string fill_mode = "constant";
  double fill_value = 0.0;
  std::string data_format;
};

/// Images warped by `transform`, one row [a0, a1, a2, b0, b1, b2, c0, c1] per image (shape
/// (8,) or (batch, 8)): output pixel (x, y) (x along the width) reads input point
/// ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1 (c0 = c1 = 0 gives
/// the affine warps Keras's layers use; JAX-backed Keras ignores c0 and c1, TensorFlow applies
/// them as here). Each sample is interpolated as jax.scipy.ndimage.map_coordinates does with
/// order 0 or 1: in "constant" mode every out-of-range neighbour contributes fill_value with
/// its interpolation weight. Integer images are computed in float32, rounded half away from
/// zero and cast back. Differentiable in `images` (and through the bilinear weights in
/// `transform`).
Tensor affine_transform(const Tensor& images, const Tensor& transform,
                        const AffineTransformOptions& options = {});

/// map_coordinates's arguments after the first three (keras.ops.image.map_coordinates).
struct MapCoordinatesOptions {
  /// As affine_transform's fill_mode.
  std::string fill_mode = "constant";
  double fill_value = 0.0;
};

/// inputs sampled at `coordinates` (shape (inputs.ndim, ...): one coordinate array per input
/// axis), by nearest neighbour (order 0) or linear interpolation (order 1), as
/// jax.scipy.ndimage.map_coordinates. The result has coordinates.shape[1:] and inputs' dtype.
/// Differentiable in `inputs` and (order 1) in `coordinates`.
Tensor map_coordinates(const Tensor& inputs, const Tensor& coordinates, int order,
                       const MapCoordinatesOptions& options = {});

/// crop_images's keyword arguments: exactly two of top_cropping, bottom_cropping and
/// target_height, and two of left_cropping, right_cropping and target_width.
struct CropImagesOptions {
  std::optional<int64_t> top_cropping;
  std::optional<int64_t> left_cropping;
  std::optional<int64_t> bottom_cropping;
  std::optional<int64_t> right_cropping;
  std::optional<int64_t> target_height;
  std::optional<int64_t> target_width;
  std::string data_format;
};

/// The window of the images the options describe (a view; keras.ops.image.crop_images).
Tensor crop_images(const Tensor& images, const CropImagesOptions& options);

/// pad_images's keyword arguments: exactly two of top_padding, bottom_padding and
/// target_height, and two of left_padding, right_padding and target_width.
struct PadImagesOptions {
  std::optional<int64_t> top_padding;
  std::optional<int64_t> left_padding;
  std::optional<int64_t> bottom_padding;
  std::optional<int64_t> right_padding;
  std::optional<int64_t> target_height;
  std::optional<int64_t> target_width;
  std::string data_format;
};

/// The images padded with zeros as the options describe (keras.ops.image.pad_images).
Tensor pad_images(const Tensor& images, const PadImagesOptions& options);

}  // namespace keras::ops::image

#pragma once
// keras.ops.image: resizing, warps, cropping and padding, colour-space conversions, patches,
// filters (Gaussian blur, Sobel edges) and SSIM, with the semantics of Keras's JAX backend
// (jax.image.resize, jax.scipy.ndimage.map_coordinates). Keras does not re-export these at the
// top of keras.ops, so neither does keras-cpp: call ops::image::resize.
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

#include "keras/ops/nn/spatial.h"
#include "keras/random/random.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
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
  /// The value read outside the image when padding to the aspect ratio.
  double fill_value = 0.0;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
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
  /// The value of points outside the image in "constant" mode.
  double fill_value = 0.0;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
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
  /// The value of points outside the input in "constant" mode.
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
  /// Rows to crop from the top.
  std::optional<int64_t> top_cropping;
  /// Columns to crop from the left.
  std::optional<int64_t> left_cropping;
  /// Rows to crop from the bottom.
  std::optional<int64_t> bottom_cropping;
  /// Columns to crop from the right.
  std::optional<int64_t> right_cropping;
  /// The height of the cropped images.
  std::optional<int64_t> target_height;
  /// The width of the cropped images.
  std::optional<int64_t> target_width;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
  std::string data_format;
};

/// The window of the images the options describe (a view; keras.ops.image.crop_images).
Tensor crop_images(const Tensor& images, const CropImagesOptions& options);

/// pad_images's keyword arguments: exactly two of top_padding, bottom_padding and
/// target_height, and two of left_padding, right_padding and target_width.
struct PadImagesOptions {
  /// Rows of zeros to add at the top.
  std::optional<int64_t> top_padding;
  /// Columns of zeros to add at the left.
  std::optional<int64_t> left_padding;
  /// Rows of zeros to add at the bottom.
  std::optional<int64_t> bottom_padding;
  /// Columns of zeros to add at the right.
  std::optional<int64_t> right_padding;
  /// The height of the padded images.
  std::optional<int64_t> target_height;
  /// The width of the padded images.
  std::optional<int64_t> target_width;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
  std::string data_format;
};

/// The images padded with zeros as the options describe (keras.ops.image.pad_images).
Tensor pad_images(const Tensor& images, const PadImagesOptions& options);

// --- Colour spaces -----------------------------------------------------------------------

/// Luma 0.2989 R + 0.5870 G + 0.1140 B (tf.image's weights), with one channel; images with one
/// channel are returned as they are. Computed in the images' float type (float32 for
/// integers) and cast back to the input dtype (truncating, as Keras's astype does).
Tensor rgb_to_grayscale(const Tensor& images, const std::string& data_format = "");

/// HSV from RGB (float images, meaningful for values in [0, 1]; dm_pix's formulas): hue in
/// [0, 1) with red 0, green 1/3, blue 2/3; saturation range / value; value the channel maximum.
Tensor rgb_to_hsv(const Tensor& images, const std::string& data_format = "");

/// RGB from HSV (float images), the inverse of rgb_to_hsv; the hue wraps modulo 1.
Tensor hsv_to_rgb(const Tensor& images, const std::string& data_format = "");

// --- Patches -------------------------------------------------------------------------------

/// extract_patches's keyword arguments (keras.ops.image.extract_patches).
struct ExtractPatchesOptions {
  /// The step between patches; unset means `size` (non-overlapping patches).
  std::optional<ops::IntOrTuple> strides;
  /// The spacing of consecutive samples within a patch in the input (1: contiguous).
  ops::IntOrTuple dilation_rate = 1;
  /// "valid" or "same".
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
  std::string data_format;
};

/// The patches of rank-3/4 images (size of 2 ints or one int: 2-d patches) or rank-4/5 volumes
/// (size of 3 ints), flattened into the channel axis in (row, column, channel) order, as
/// Keras's convolution with an identity kernel lays them out: (N, H', W', ph * pw * C) for
/// channels_last. Differentiable in `images`.
Tensor extract_patches(const Tensor& images, const ops::IntOrTuple& size,
                       const ExtractPatchesOptions& options = {});

/// extract_patches with 3-d patches (an int size means a cube).
Tensor extract_patches_3d(const Tensor& volumes, const ops::IntOrTuple& size,
                          const ExtractPatchesOptions& options = {});

// --- Warps ---------------------------------------------------------------------------------

/// perspective_transform's keyword arguments (keras.ops.image.perspective_transform).
struct PerspectiveTransformOptions {
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// The value of points outside the input.
  double fill_value = 0.0;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
  std::string data_format;
};

/// Images warped by the homography that takes each image's four `end_points` (x, y) to its
/// `start_points` ((4, 2) or (N, 4, 2) each), solved in float32; points outside the input read
/// fill_value. Differentiable in `images` and (bilinear) in the points.
Tensor perspective_transform(const Tensor& images, const Tensor& start_points,
                             const Tensor& end_points,
                             const PerspectiveTransformOptions& options = {});

/// elastic_transform's keyword arguments (keras.ops.image.elastic_transform).
struct ElasticTransformOptions {
  /// The displacement's scale, in pixels per unit of smoothed noise.
  double alpha = 20.0;
  /// The standard deviation of the noise and of the Gaussian that smooths it (kernel size
  /// int(6 sigma) | 1).
  double sigma = 5.0;
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// As affine_transform's fill_mode.
  std::string fill_mode = "reflect";
  /// The value of points outside the image in "constant" mode.
  double fill_value = 0.0;
  /// The seed of the noise; unset draws from the global generator.
  random::Seed seed;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
  std::string data_format;
};

/// Images resampled at (x + alpha dx, y + alpha dy), where the displacement is normal noise
/// times sigma, Gaussian-blurred, one field per image shared by its channels. As on Keras's
/// JAX backend, dx and dy are drawn from the same seed and so are equal. keras-cpp's random
/// stream differs from JAX's, so only the distribution matches Keras.
Tensor elastic_transform(const Tensor& images, const ElasticTransformOptions& options = {});

/// jax.image.scale_and_translate: each of the `spatial_dims` axes resampled to
/// output_shape's size, input point (out + 0.5 - translation) / scale - 0.5 per output index
/// (half-pixel centres), the kernel of `method` ("linear", "bilinear", "trilinear", "cubic",
/// "bicubic", "tricubic", "lanczos3", "lanczos5") widened by 1 / scale when downsampling with
/// antialias, weights normalized per output pixel and zero for points outside the input.
/// `scale` and `translation` hold one number per spatial axis; the weights are computed in
/// their float dtype. Integer images give float32. Differentiable in all three tensors.
Tensor scale_and_translate(const Tensor& images, const Shape& output_shape, const Tensor& scale,
                           const Tensor& translation, const std::vector<int>& spatial_dims,
                           const std::string& method, bool antialias = true);

// --- Filters and similarity ----------------------------------------------------------------

/// Each channel convolved ("same" zero padding) with the normalized Gaussian
/// outer(g(kernel_size[1], sigma[1]), g(kernel_size[0], sigma[0])): as in Keras, the first
/// entries of kernel_size and sigma act along the width and the second along the height.
/// Float images only (Keras's convolution refuses integers).
Tensor gaussian_blur(const Tensor& images, std::array<int64_t, 2> kernel_size = {3, 3},
                     std::array<double, 2> sigma = {1.0, 1.0},
                     const std::string& data_format = "");

/// The Sobel responses of each channel of a batch of images ("same" zero padding), stacked
/// on a new last axis as [dy, dx]: (N, H, W, C, 2) or (N, C, H, W, 2).
Tensor sobel_edges(const Tensor& images, const std::string& data_format = "");

/// ssim's keyword arguments (keras.ops.image.ssim).
struct SSIMOptions {
  /// The dynamic range of the pixels (1 for [0, 1], 255 for [0, 255]).
  double max_val = 1.0;
  /// The Gaussian window's size (at most the image's height and width) and deviation.
  int64_t filter_size = 11;
  /// The Gaussian window's standard deviation.
  double filter_sigma = 1.5;
  /// Keras's `k1`: the luminance term's stabilizer, C1 = (k1 max_val)^2.
  double k1 = 0.01;
  /// Keras's `k2`: the contrast term's stabilizer, C2 = (k2 max_val)^2.
  double k2 = 0.03;
  /// "channels_last" or "channels_first"; empty means keras::config::image_data_format().
  std::string data_format;
};

/// The structural similarity of image1 and image2 (Wang et al. 2004), averaged over the
/// "valid" Gaussian windows and the channels: a scalar per image (shape () for one image,
/// (N,) for a batch), computed in the images' float type and cast back to image1's dtype.
Tensor ssim(const Tensor& image1, const Tensor& image2, const SSIMOptions& options = {});

}  // namespace keras::ops::image

#pragma GCC visibility pop

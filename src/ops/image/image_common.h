#pragma once
// What the keras.ops.image functions share: argument checks, the spatial axes of a data format,
// and the index arithmetic of jax.scipy.ndimage.map_coordinates (its fill modes and the
// neighbours and weights of order-0 and order-1 interpolation).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keras/ops/image.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::image::detail {

/// "channels_last" or "channels_first"; empty gives keras::config::image_data_format().
std::string standardize_data_format(std::string_view op, const std::string& data_format);

/// ValueError naming `op` unless images has rank 3 or 4.
void check_image_rank(std::string_view op, const Tensor& images);

/// The (height, width) axes of rank-`rank` images in `data_format` (non-negative).
std::pair<int, int> spatial_axes(int rank, const std::string& data_format);

/// ValueError naming `op` unless fill_mode is one map_coordinates knows.
void check_fill_mode(std::string_view op, const std::string& fill_mode);

/// The dtype an interpolation computes in: floating images keep theirs (float16 and bfloat16
/// compute in float32), everything else computes in float32.
DType interpolation_dtype(DType images_dtype);

/// An interpolated result brought back to the input dtype: integers are rounded half away from
/// zero (as map_coordinates does) and cast; floats are cast.
Tensor restore_dtype(const Tensor& result, DType dtype);

/// One neighbour of a coordinate along one axis: its (int64) index, already mapped into range
/// by the fill mode, whether the raw index was inside (always true except in "constant"
/// mode, where an undefined tensor means "always valid"), and its interpolation weight
/// (undefined for weight one).
struct Neighbour {
  Tensor index;
  Tensor valid;
  Tensor weight;
};

/// The neighbours of float `coordinate` along an axis of extent `size` for `order` 0 (the
/// nearest, rounded half away from zero) or 1 (floor and floor + 1, weights 1 - f and f).
std::vector<Neighbour> neighbours(const Tensor& coordinate, int64_t size, int order,
                                  const std::string& fill_mode);

/// 0 for "nearest", 1 for "bilinear"; ValueError naming `op` otherwise.
int interpolation_order(std::string_view op, const std::string& interpolation);

/// Batched images `x` ((B, H, W, C) or (B, C, H, W), a float dtype) sampled as
/// map_coordinates does at input points (y_in, x_in), each (B or 1, H, W) in x's dtype: the
/// output pixel (i, j) of image b reads point (y_in[b, i, j], x_in[b, i, j]) of every channel.
Tensor sample_images(const Tensor& x, const Tensor& y_in, const Tensor& x_in, int order,
                     const std::string& fill_mode, double fill_value,
                     const std::string& data_format);

/// elastic_transform with the noise given: `noise` (B, H, W) takes the place of the normal
/// draw (before it is scaled by sigma), so tests can replay Keras's draw.
Tensor elastic_transform_with_noise(const Tensor& images, const Tensor& noise,
                                    const ElasticTransformOptions& options);

}  // namespace keras::ops::image::detail

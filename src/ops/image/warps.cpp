// keras.ops.image.perspective_transform and elastic_transform: each output pixel reads a point
// of the input computed with ops (a homography solved with linalg::solve; a blurred random
// displacement field), sampled as map_coordinates does (detail::sample_images), so autograd
// differentiates the images and the points.

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/linalg.h"
#include "keras/ops/ops.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

void check_points(std::string_view op, const char* name, const Tensor& points) {
  check(points.defined(), op, ": ", name, " is an undefined tensor.");
  const int n = points.ndim();
  check((n == 2 || n == 3) && points.shape()[n - 2] == 4 && points.shape()[n - 1] == 2, op,
        ": invalid ", name,
        " shape: expected (4, 2) for a single image or (N, 4, 2) for a "
        "batch; got ",
        points.shape(), ".");
}

// The 8 homography coefficients taking each end point (x', y') to its start point (x, y):
// x = (a0 x' + a1 y' + a2) / (c0 x' + c1 y' + 1), likewise y, from the 8 x 8 linear system
// of the four correspondences (Keras's compute_homography_matrix). (B, 4, 2) -> (B, 8).
Tensor homography(const Tensor& start, const Tensor& end) {
  auto coordinate = [](const Tensor& p, int64_t i) { return take(p, Tensor(i), -1); };  // (B, 4)
  Tensor sx = coordinate(start, 0), sy = coordinate(start, 1);
  Tensor ex = coordinate(end, 0), ey = coordinate(end, 1);
  Tensor zero = zeros_like(ex), one = ones_like(ex);
  Tensor x_rows = stack(
      {ex, ey, one, zero, zero, zero, negative(multiply(sx, ex)), negative(multiply(sx, ey))}, -1);
  Tensor y_rows = stack(
      {zero, zero, zero, ex, ey, one, negative(multiply(sy, ex)), negative(multiply(sy, ey))}, -1);
  Tensor a = concatenate({x_rows, y_rows}, 1);            // (B, 8, 8)
  Tensor b = expand_dims(concatenate({sx, sy}, -1), -1);  // (B, 8, 1)
  return squeeze(linalg::solve(a, b), -1);
}

}  // namespace

Tensor perspective_transform(const Tensor& images, const Tensor& start_points,
                             const Tensor& end_points, const PerspectiveTransformOptions& o) {
  constexpr std::string_view op = "perspective_transform";
  detail::check_image_rank(op, images);
  detail::interpolation_order(op, o.interpolation);
  check_points(op, "start_points", start_points);
  check_points(op, "end_points", end_points);
  check(start_points.shape() == end_points.shape(), op,
        ": start_points and end_points must have the same shape; got ", start_points.shape(),
        " and ", end_points.shape(), ".");
  backend::BackendScope on_input(images.backend_name());
  // Keras solves for the transform in float32 whatever the images' dtype.
  auto batch_of = [](const Tensor& p) {
    return cast(p.ndim() == 2 ? expand_dims(p, 0) : p, DType::Float32);
  };
  Tensor transform = homography(batch_of(start_points), batch_of(end_points));
  return affine_transform(images, transform,
                          {.interpolation = o.interpolation,
                           .fill_mode = "constant",
                           .fill_value = o.fill_value,
                           .data_format = o.data_format});
}

namespace detail {

Tensor elastic_transform_with_noise(const Tensor& images, const Tensor& noise,
                                    const ElasticTransformOptions& o) {
  constexpr std::string_view op = "elastic_transform";
  const std::string data_format = standardize_data_format(op, o.data_format);
  const int order = interpolation_order(op, o.interpolation);
  const bool batched = images.ndim() == 4;
  const bool last = data_format == "channels_last";
  Tensor x = batched ? images : expand_dims(images, 0);
  const int64_t batch = x.shape()[0];
  const int64_t height = last ? x.shape()[1] : x.shape()[2];
  const int64_t width = last ? x.shape()[2] : x.shape()[3];
  check(noise.shape() == Shape({batch, height, width}), op, ": the noise must have shape (", batch,
        ", ", height, ", ", width, "); got ", noise.shape(), ".");
  const int64_t k = static_cast<int64_t>(6.0 * o.sigma) | 1;
  const int channel_axis = last ? -1 : 1;
  Tensor field = gaussian_blur(expand_dims(multiply(cast(noise, x.dtype()), o.sigma), channel_axis),
                               {k, k}, {o.sigma, o.sigma}, data_format);
  field = multiply(reshape(field, Shape{batch, height, width}), o.alpha);
  const DType dtype = x.dtype();
  Tensor xs = reshape(cast(arange(int64_t{0}, width), dtype), Shape{1, 1, width});
  Tensor ys = reshape(cast(arange(int64_t{0}, height), dtype), Shape{1, height, 1});
  // Keras's JAX backend draws dx and dy from the same seed, so one field moves both axes.
  Tensor out = sample_images(x, add(ys, field), add(xs, field), order, o.fill_mode, o.fill_value,
                             data_format);
  return batched ? out : squeeze(out, 0);
}

}  // namespace detail

Tensor elastic_transform(const Tensor& images, const ElasticTransformOptions& o) {
  constexpr std::string_view op = "elastic_transform";
  detail::check_image_rank(op, images);
  detail::check_fill_mode(op, o.fill_mode);
  detail::interpolation_order(op, o.interpolation);
  const std::string data_format = detail::standardize_data_format(op, o.data_format);
  check(is_floating(images.dtype()), op, ": images must have a float dtype; got ",
        dtype_name(images.dtype()), ". Cast them to float32 first.");
  check(o.sigma > 0, op, ": sigma must be positive; got ", o.sigma, ".");
  backend::BackendScope on_input(images.backend_name());
  const bool last = data_format == "channels_last";
  const int r = images.ndim();
  const int64_t batch = r == 4 ? images.shape()[0] : 1;
  const int64_t height = images.shape()[last ? r - 3 : r - 2];
  const int64_t width = images.shape()[last ? r - 2 : r - 1];
  Tensor noise = random::normal(Shape{batch, height, width}, 0.0, 1.0, images.dtype(), o.seed);
  return detail::elastic_transform_with_noise(images, noise, o);
}

}  // namespace keras::ops::image

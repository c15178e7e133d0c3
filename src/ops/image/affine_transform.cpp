// keras.ops.image.affine_transform and map_coordinates, with the interpolation of
// jax.scipy.ndimage.map_coordinates: every neighbour of a sample point (1 for order 0, 2 per
// axis for order 1) is read through the fill mode's index mapping; in "constant" mode a
// neighbour outside the input reads fill_value. The neighbours are gathered with one gather
// each over the flattened spatial axes, so the gradient with respect to the input is a
// scatter-add that autograd derives.

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "ops/detail/views.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

// Sum over the neighbours of weight * value, value = where(valid, x[index], fill), in the
// order jax's map_coordinates adds them (itertools.product over the axes).
struct Accumulator {
  Tensor sum;
  void add(const Tensor& contribution) {
    sum = sum.defined() ? ops::add(sum, contribution) : contribution;
  }
};

Tensor combine_valid(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return logical_and(a, b);
}

Tensor combine_weight(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return multiply(a, b);
}

}  // namespace

namespace detail {

int interpolation_order(std::string_view op, const std::string& interpolation) {
  if (interpolation == "nearest") return 0;
  if (interpolation == "bilinear") return 1;
  throw ValueError(std::string(op) +
                   ": interpolation must be \"nearest\" or \"bilinear\"; got \"" +
                   interpolation + "\".");
}

Tensor sample_images(const Tensor& x, const Tensor& y_in, const Tensor& x_in, int order,
                     const std::string& fill_mode, double fill_value,
                     const std::string& data_format) {
  const bool last = data_format == "channels_last";
  const DType compute = x.dtype();
  const int64_t batch = x.shape()[0];
  const int64_t height = last ? x.shape()[1] : x.shape()[2];
  const int64_t width = last ? x.shape()[2] : x.shape()[3];
  const int64_t channels = last ? x.shape()[3] : x.shape()[1];
  // (B or 1, H, W) -> (B, H * W).
  auto points = [&](const Tensor& c) {
    return reshape(broadcast_to(c, Shape{batch, height, width}), Shape{batch, height * width});
  };
  auto ny = neighbours(points(y_in), height, order, fill_mode);
  auto nx = neighbours(points(x_in), width, order, fill_mode);
  // Gather from (B, H * W, C) along axis 1 (channels_last) or (B, C, H * W) along axis 2.
  Tensor flat = last ? reshape(x, Shape{batch, height * width, channels})
                     : reshape(x, Shape{batch, channels, height * width});
  const int gather_axis = last ? 1 : 2;
  auto as_column = [&](const Tensor& v) {  // (B, N) -> the gather layout
    return last ? expand_dims(v, 2) : expand_dims(v, 1);
  };
  const Tensor fill = Tensor(fill_value);
  Accumulator acc;
  for (const auto& a : ny) {
    for (const auto& b : nx) {
      Tensor index = add(multiply(a.index, Tensor(width)), b.index);
      Tensor value = ops::detail::gather_along(flat, as_column(index), gather_axis);
      Tensor valid = combine_valid(a.valid, b.valid);
      if (valid.defined()) value = where(as_column(valid), value, cast(fill, compute));
      Tensor weight = combine_weight(a.weight, b.weight);
      acc.add(weight.defined() ? multiply(as_column(weight), value) : value);
    }
  }
  return last ? reshape(acc.sum, Shape{batch, height, width, channels})
              : reshape(acc.sum, Shape{batch, channels, height, width});
}

}  // namespace detail

Tensor affine_transform(const Tensor& images, const Tensor& transform,
                        const AffineTransformOptions& options) {
  constexpr std::string_view op = "affine_transform";
  detail::check_image_rank(op, images);
  const std::string data_format = detail::standardize_data_format(op, options.data_format);
  const int order = detail::interpolation_order(op, options.interpolation);
  detail::check_fill_mode(op, options.fill_mode);
  check(transform.defined(), op, ": the transform is an undefined tensor.");
  check(transform.ndim() == 1 || transform.ndim() == 2, op,
        ": invalid transform rank: expected rank 1 (single transform) or rank 2 (batch of "
        "transforms); got transform of shape ",
        transform.shape(), ".");
  check(transform.shape()[transform.ndim() - 1] == 8, op,
        ": each transform must have 8 entries [a0, a1, a2, b0, b1, b2, c0, c1]; got transform "
        "of shape ",
        transform.shape(), ".");

  backend::BackendScope on_input(images.backend_name());
  const DType dtype = images.dtype();
  const DType compute = detail::interpolation_dtype(dtype);
  const bool batched = images.ndim() == 4;
  Tensor x = cast(batched ? images : expand_dims(images, 0), compute);
  Tensor t = cast(transform.ndim() == 2 ? transform : expand_dims(transform, 0), compute);
  const bool last = data_format == "channels_last";
  const int64_t batch = x.shape()[0];
  const int64_t height = last ? x.shape()[1] : x.shape()[2];
  const int64_t width = last ? x.shape()[2] : x.shape()[3];
  check(t.shape()[0] == batch || t.shape()[0] == 1, op, ": got ", t.shape()[0],
        " transforms for a batch of ", batch, " images; pass one per image (or one for all).");
  check(height > 0 && width > 0, op, ": the images must have a positive height and width; got shape ",
        images.shape(), ".");

  // Output pixel (x, y) reads input point ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k).
  auto column = [&](int i) { return reshape(slice(t, {0, i}, Shape{t.shape()[0], 1}), Shape{-1, 1, 1}); };
  Tensor xs = reshape(cast(arange(int64_t{0}, width), compute), Shape{1, 1, width});
  Tensor ys = reshape(cast(arange(int64_t{0}, height), compute), Shape{1, height, 1});
  Tensor x_in = add(add(multiply(column(0), xs), multiply(column(1), ys)), column(2));
  Tensor y_in = add(add(multiply(column(3), xs), multiply(column(4), ys)), column(5));
  Tensor k = add(add(multiply(column(6), xs), multiply(column(7), ys)), 1.0);
  x_in = divide(x_in, k);
  y_in = divide(y_in, k);
  Tensor out = detail::sample_images(x, y_in, x_in, order, options.fill_mode, options.fill_value,
                                     data_format);
  if (!batched) out = squeeze(out, 0);
  return detail::restore_dtype(out, dtype);
}

Tensor map_coordinates(const Tensor& inputs, const Tensor& coordinates, int order,
                       const MapCoordinatesOptions& options) {
  constexpr std::string_view op = "map_coordinates";
  check(inputs.defined() && coordinates.defined(), op, ": an input is an undefined tensor.");
  check(coordinates.ndim() >= 2, op,
        ": invalid coordinates rank: expected at least rank 2; got coordinates of shape ",
        coordinates.shape(), ".");
  check(coordinates.shape()[0] == inputs.ndim(), op,
        ": the first dimension of coordinates must be the rank of inputs (", inputs.ndim(),
        "); got inputs of shape ", inputs.shape(), " and coordinates of shape ",
        coordinates.shape(), ".");
  check(order == 0 || order == 1, op, ": order must be 0 or 1; got ", order, ".");
  detail::check_fill_mode(op, options.fill_mode);
  for (int64_t d : inputs.shape())
    check(d > 0, op, ": inputs must not be empty; got shape ", inputs.shape(), ".");

  backend::BackendScope on_input(inputs.backend_name());
  const DType dtype = inputs.dtype();
  const DType compute = detail::interpolation_dtype(dtype);
  Tensor flat = ravel(cast(inputs, compute));
  Tensor coords = is_floating(coordinates.dtype()) ? coordinates : cast(coordinates, compute);
  Shape out_shape;
  for (int d = 1; d < coordinates.ndim(); ++d) out_shape.push_back(coordinates.shape()[d]);
  const int rank = inputs.ndim();

  std::vector<std::vector<detail::Neighbour>> per_axis;
  for (int d = 0; d < rank; ++d)
    per_axis.push_back(detail::neighbours(ravel(take(coords, Tensor(int64_t{d}), 0)),
                                          inputs.shape()[d], order, options.fill_mode));
  // Row-major strides of the input.
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d)
    strides[static_cast<size_t>(d)] = strides[static_cast<size_t>(d + 1)] * inputs.shape()[d + 1];

  const Tensor fill = cast(Tensor(options.fill_value), compute);
  Accumulator acc;
  std::vector<size_t> pick(static_cast<size_t>(rank), 0);
  while (true) {
    Tensor index, valid, weight;
    for (int d = 0; d < rank; ++d) {
      const auto& n = per_axis[static_cast<size_t>(d)][pick[static_cast<size_t>(d)]];
      Tensor term = multiply(n.index, Tensor(strides[static_cast<size_t>(d)]));
      index = index.defined() ? add(index, term) : term;
      valid = combine_valid(valid, n.valid);
      weight = combine_weight(weight, n.weight);
    }
    Tensor value = ops::detail::gather_along(flat, index, 0);
    if (valid.defined()) value = where(valid, value, fill);
    acc.add(weight.defined() ? multiply(weight, value) : value);
    // Next combination, the last axis fastest (itertools.product order).
    int d = rank - 1;
    for (; d >= 0; --d) {
      if (++pick[static_cast<size_t>(d)] < per_axis[static_cast<size_t>(d)].size()) break;
      pick[static_cast<size_t>(d)] = 0;
    }
    if (d < 0) break;
  }
  return detail::restore_dtype(reshape(acc.sum, out_shape), dtype);
}

}  // namespace keras::ops::image

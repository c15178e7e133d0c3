// keras.ops.image.crop_images and pad_images: the spatial window or zero border the keyword
// arguments describe, as a slice (a differentiable view) or a pad.

#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

std::string show(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string("None");
}

// Exactly two of (before, after, target) given, none negative; returns the resolved
// (before, after, target) for an axis of extent `extent`. For cropping the target is
// extent - before - after, for padding extent + before + after.
std::array<int64_t, 3> resolve(std::string_view op, const char* before_name,
                               const char* after_name, const char* target_name,
                               std::optional<int64_t> before, std::optional<int64_t> after,
                               std::optional<int64_t> target, int64_t extent, bool cropping) {
  const int given = int(before.has_value()) + int(after.has_value()) + int(target.has_value());
  check(given == 2, op, ": must specify exactly two of ", before_name, ", ", after_name, ", ",
        target_name, "; got ", before_name, "=", show(before), ", ", after_name, "=", show(after),
        ", ", target_name, "=", show(target), ".");
  for (auto [name, v] : {std::pair{before_name, before}, std::pair{after_name, after},
                         std::pair{target_name, target}})
    check(!v || *v >= 0, op, ": ", name, " must be >= 0; got ", name, "=", show(v), ".");
  const int64_t sign = cropping ? -1 : 1;
  int64_t b = 0, a = 0, t = 0;
  if (!target) {
    b = *before, a = *after, t = extent + sign * (b + a);
  } else if (!before) {
    a = *after, t = *target, b = sign * (t - extent) - a;
  } else {
    b = *before, t = *target, a = sign * (t - extent) - b;
  }
  check(b >= 0, op, ": ", before_name, " must be >= 0; got ", before_name, "=", b,
        " for an axis of extent ", extent, ".");
  check(a >= 0, op, ": ", after_name, " must be >= 0; got ", after_name, "=", a,
        " for an axis of extent ", extent, ".");
  check(t >= 0, op, ": ", target_name, " must be >= 0; got ", target_name, "=", t,
        " for an axis of extent ", extent, ".");
  return {b, a, t};
}

}  // namespace

Tensor crop_images(const Tensor& images, const CropImagesOptions& o) {
  constexpr std::string_view op = "crop_images";
  detail::check_image_rank(op, images);
  const std::string data_format = detail::standardize_data_format(op, o.data_format);
  const auto [h_axis, w_axis] = detail::spatial_axes(images.ndim(), data_format);
  const auto [top, bottom, height] =
      resolve(op, "top_cropping", "bottom_cropping", "target_height", o.top_cropping,
              o.bottom_cropping, o.target_height, images.shape()[h_axis], true);
  const auto [left, right, width] =
      resolve(op, "left_cropping", "right_cropping", "target_width", o.left_cropping,
              o.right_cropping, o.target_width, images.shape()[w_axis], true);
  (void)bottom;
  (void)right;
  std::vector<int64_t> start(static_cast<size_t>(images.ndim()), 0);
  Shape shape = images.shape();
  start[static_cast<size_t>(h_axis)] = top;
  start[static_cast<size_t>(w_axis)] = left;
  shape[h_axis] = height;
  shape[w_axis] = width;
  return slice(images, start, shape);
}

Tensor pad_images(const Tensor& images, const PadImagesOptions& o) {
  constexpr std::string_view op = "pad_images";
  detail::check_image_rank(op, images);
  const std::string data_format = detail::standardize_data_format(op, o.data_format);
  const auto [h_axis, w_axis] = detail::spatial_axes(images.ndim(), data_format);
  const auto [top, bottom, height] =
      resolve(op, "top_padding", "bottom_padding", "target_height", o.top_padding,
              o.bottom_padding, o.target_height, images.shape()[h_axis], false);
  const auto [left, right, width] =
      resolve(op, "left_padding", "right_padding", "target_width", o.left_padding,
              o.right_padding, o.target_width, images.shape()[w_axis], false);
  (void)height;
  (void)width;
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(images.ndim()), {0, 0});
  widths[static_cast<size_t>(h_axis)] = {top, bottom};
  widths[static_cast<size_t>(w_axis)] = {left, right};
  return pad(images, widths);
}

}  // namespace keras::ops::image

// keras.ops.image.rgb_to_grayscale, rgb_to_hsv and hsv_to_rgb: elementwise ops on the three
// channel planes (the formulas of Keras's JAX backend, which follows tf.image and dm_pix), so
// autograd differentiates them.

#include "keras/core/promotion.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

int channel_axis(const std::string& data_format) {
  return data_format == "channels_last" ? -1 : -3;
}

int64_t channels(const Tensor& images, int axis) {
  return images.shape()[images.ndim() + axis];
}

// The three planes of an RGB or HSV image, each without the channel axis.
std::array<Tensor, 3> planes(const Tensor& images, int axis) {
  std::array<Tensor, 3> out;
  for (int64_t c = 0; c < 3; ++c) out[static_cast<size_t>(c)] = take(images, Tensor(c), axis);
  return out;
}

// numpy.finfo(dtype).eps.
double machine_epsilon(DType dtype) {
  switch (dtype) {
    case DType::Float64:
      return 2.220446049250313e-16;
    case DType::Float16:
      return 0.0009765625;
    case DType::BFloat16:
      return 0.0078125;
    default:
      return 1.1920928955078125e-07;
  }
}

// The checks rgb_to_hsv and hsv_to_rgb share: rank 3 or 4, a float dtype, three channels.
int check_three_float_channels(std::string_view op, const Tensor& images,
                               const std::string& data_format) {
  detail::check_image_rank(op, images);
  check(is_floating(images.dtype()), op, ": invalid images dtype: expected a float dtype; got ",
        dtype_name(images.dtype()), ". Cast the images to float32 (values in [0, 1]) first.");
  const int axis = channel_axis(data_format);
  check(channels(images, axis) == 3, op,
        ": input images must have 3 channels; got images of shape ", images.shape(),
        " with data_format=\"", data_format, "\".");
  return axis;
}

}  // namespace

Tensor rgb_to_grayscale(const Tensor& images, const std::string& data_format_arg) {
  constexpr std::string_view op = "rgb_to_grayscale";
  detail::check_image_rank(op, images);
  const std::string data_format = detail::standardize_data_format(op, data_format_arg);
  const int axis = channel_axis(data_format);
  const int64_t c = channels(images, axis);
  check(c == 1 || c == 3, op,
        ": invalid channel size: expected 3 (RGB) or 1 (grayscale); got "
        "images of shape ",
        images.shape(), " with data_format=\"", data_format, "\".");
  if (c == 1) return images;
  const DType compute = float_result_type(images.dtype());
  const auto [r, g, b] = planes(cast(images, compute), axis);
  Tensor gray = add(
      add(multiply(r, cast(Tensor(0.2989), compute)), multiply(g, cast(Tensor(0.5870), compute))),
      multiply(b, cast(Tensor(0.1140), compute)));
  return cast(expand_dims(gray, axis), images.dtype());
}

Tensor rgb_to_hsv(const Tensor& images, const std::string& data_format_arg) {
  constexpr std::string_view op = "rgb_to_hsv";
  const std::string data_format = detail::standardize_data_format(op, data_format_arg);
  const int axis = check_three_float_channels(op, images, data_format);
  // Values within one epsilon of zero count as zero (so near-black pixels get no hue).
  Tensor x = where(less(absolute(images), machine_epsilon(images.dtype())), 0.0, images);
  const auto [r, g, b] = planes(x, axis);
  Tensor value = maximum(maximum(r, g), b);
  Tensor range = subtract(value, minimum(minimum(r, g), b));
  Tensor safe_value = where(greater(value, 0.0), value, 1.0);
  Tensor safe_range = where(greater(range, 0.0), range, 1.0);
  Tensor saturation = where(greater(value, 0.0), divide(range, safe_value), 0.0);
  Tensor norm = divide(1.0, multiply(safe_range, 6.0));
  Tensor hue = where(equal(value, g), add(multiply(norm, subtract(b, r)), 2.0 / 6.0),
                     add(multiply(norm, subtract(r, g)), 4.0 / 6.0));
  hue = where(equal(value, r), multiply(norm, subtract(g, b)), hue);
  // A negative hue (red with more blue than green) wraps into [0, 1).
  hue = add(where(greater(range, 0.0), hue, 0.0), cast(less(hue, 0.0), hue.dtype()));
  return stack({hue, saturation, value}, axis);
}

Tensor hsv_to_rgb(const Tensor& images, const std::string& data_format_arg) {
  constexpr std::string_view op = "hsv_to_rgb";
  const std::string data_format = detail::standardize_data_format(op, data_format_arg);
  const int axis = check_three_float_channels(op, images, data_format);
  const auto [hue, saturation, value] = planes(images, axis);
  Tensor dh = multiply(mod(hue, 1.0), 6.0);
  Tensor dr = clip(subtract(absolute(subtract(dh, 3.0)), 1.0), 0.0, 1.0);
  Tensor dg = clip(subtract(2.0, absolute(subtract(dh, 2.0))), 0.0, 1.0);
  Tensor db = clip(subtract(2.0, absolute(subtract(dh, 4.0))), 0.0, 1.0);
  Tensor one_minus_s = subtract(1.0, saturation);
  auto channel = [&](const Tensor& d) {
    return multiply(value, add(one_minus_s, multiply(saturation, d)));
  };
  return stack({channel(dr), channel(dg), channel(db)}, axis);
}

}  // namespace keras::ops::image

// keras.ops.image.gaussian_blur, sobel_edges and ssim: depthwise convolutions with fixed
// kernels (Keras's JAX backend uses lax.conv_general_dilated with one group per channel), so
// autograd differentiates them as convolutions.

#include "keras/core/promotion.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

// The normalized 1-d Gaussian exp(-x^2 / (2 sigma^2)) at x = i - (size - 1) / 2, computed in
// `dtype` as Keras does.
Tensor gaussian_1d(int64_t size, double sigma, DType dtype) {
  Tensor x = subtract(cast(arange(int64_t{0}, size), dtype),
                      cast(Tensor(static_cast<double>(size - 1) / 2.0), dtype));
  Tensor g = exp(multiply(square(divide(x, cast(Tensor(sigma), dtype))), -0.5));
  return divide(g, sum(g));
}

// A (kh, kw) kernel applied to every channel of (N, H, W, C) or (N, C, H, W) images with
// "same" zero padding.
Tensor per_channel_conv(const Tensor& batch, const Tensor& kernel_2d,
                        const std::string& data_format) {
  const int64_t channels = data_format == "channels_last" ? batch.shape()[3] : batch.shape()[1];
  const Shape& k = kernel_2d.shape();
  Tensor kernel = tile(reshape(kernel_2d, Shape{k[0], k[1], 1, 1}), {1, 1, channels, 1});
  return depthwise_conv(batch, kernel, {.padding = "same", .data_format = data_format});
}

}  // namespace

Tensor gaussian_blur(const Tensor& images, std::array<int64_t, 2> kernel_size,
                     std::array<double, 2> sigma, const std::string& data_format_arg) {
  constexpr std::string_view op = "gaussian_blur";
  detail::check_image_rank(op, images);
  const std::string data_format = detail::standardize_data_format(op, data_format_arg);
  check(is_floating(images.dtype()), op, ": images must have a float dtype; got ",
        dtype_name(images.dtype()), ". Cast them to float32 first.");
  check(kernel_size[0] > 0 && kernel_size[1] > 0, op,
        ": kernel_size must be two positive ints; got (", kernel_size[0], ", ", kernel_size[1],
        ").");
  check(sigma[0] > 0 && sigma[1] > 0, op, ": sigma must be two positive numbers; got (", sigma[0],
        ", ", sigma[1], ").");
  const DType dtype = images.dtype();
  // Keras's kernel is outer(g(size[1], sigma[1]), g(size[0], sigma[0])): its rows (the
  // height) come from the second entries.
  Tensor kernel = outer(gaussian_1d(kernel_size[1], sigma[1], dtype),
                        gaussian_1d(kernel_size[0], sigma[0], dtype));
  const bool batched = images.ndim() == 4;
  Tensor out = per_channel_conv(batched ? images : expand_dims(images, 0), kernel, data_format);
  return batched ? out : squeeze(out, 0);
}

Tensor sobel_edges(const Tensor& images, const std::string& data_format_arg) {
  constexpr std::string_view op = "sobel_edges";
  check(images.defined() && images.ndim() == 4, op,
        ": invalid images rank: expected rank 4 (a batch of images); got images of shape ",
        images.defined() ? images.shape() : Shape{}, ". Add a batch axis to a single image.");
  const std::string data_format = detail::standardize_data_format(op, data_format_arg);
  // Integer images are filtered in float64 (exact for these integer kernels) and cast back.
  const DType dtype = images.dtype();
  const DType compute = is_floating(dtype) ? dtype : DType::Float64;
  Tensor x = cast(images, compute);
  Tensor sobel_x = cast(
      Tensor::from_vector(std::vector<double>{-1, 0, 1, -2, 0, 2, -1, 0, 1}, Shape{3, 3}), compute);
  Tensor sobel_y = transpose(sobel_x);
  Tensor dy = per_channel_conv(x, sobel_y, data_format);
  Tensor dx = per_channel_conv(x, sobel_x, data_format);
  return cast(stack({dy, dx}, -1), dtype);
}

Tensor ssim(const Tensor& image1, const Tensor& image2, const SSIMOptions& o) {
  constexpr std::string_view op = "ssim";
  detail::check_image_rank(op, image1);
  detail::check_image_rank(op, image2);
  check(image1.shape() == image2.shape(), op, ": image1 and image2 must have the same shape; got ",
        image1.shape(), " and ", image2.shape(), ".");
  const std::string data_format = detail::standardize_data_format(op, o.data_format);
  const DType original = image1.dtype();
  const DType compute = float_result_type(original);
  const bool batched = image1.ndim() == 4;
  auto prepare = [&](const Tensor& image) {
    Tensor x = cast(image, compute);
    if (!batched) x = expand_dims(x, 0);
    return data_format == "channels_first" ? moveaxis(x, 1, -1) : x;  // (B, H, W, C)
  };
  Tensor x1 = prepare(image1), x2 = prepare(image2);
  const int64_t batch = x1.shape()[0], height = x1.shape()[1], width = x1.shape()[2],
                channels = x1.shape()[3];
  check(o.filter_size >= 1 && o.filter_size <= height && o.filter_size <= width, op,
        ": filter_size must be between 1 and the images' height and width (", height, ", ", width,
        "); got filter_size=", o.filter_size, ".");
  Tensor g = gaussian_1d(o.filter_size, o.filter_sigma, compute);
  Tensor kernel = reshape(outer(g, g), Shape{o.filter_size, o.filter_size, 1, 1});
  // Every channel becomes an image of its own: (B, H, W, C) -> (B * C, H, W, 1).
  auto per_channel = [&](const Tensor& x) {
    return reshape(transpose(x, {0, 3, 1, 2}), Shape{-1, height, width, 1});
  };
  Tensor a = per_channel(x1), b = per_channel(x2);
  auto window_mean = [&](const Tensor& x) {
    return conv(x, kernel, {.padding = "valid", .data_format = "channels_last"});
  };
  Tensor mu1 = window_mean(a), mu2 = window_mean(b);
  Tensor mu1_sq = multiply(mu1, mu1), mu2_sq = multiply(mu2, mu2), mu12 = multiply(mu1, mu2);
  Tensor sigma1_sq = subtract(window_mean(multiply(a, a)), mu1_sq);
  Tensor sigma2_sq = subtract(window_mean(multiply(b, b)), mu2_sq);
  Tensor sigma12 = subtract(window_mean(multiply(a, b)), mu12);
  const double c1 = (o.k1 * o.max_val) * (o.k1 * o.max_val);
  const double c2 = (o.k2 * o.max_val) * (o.k2 * o.max_val);
  Tensor numerator = multiply(add(multiply(mu12, 2.0), c1), add(multiply(sigma12, 2.0), c2));
  Tensor denominator = multiply(add(add(mu1_sq, mu2_sq), c1), add(add(sigma1_sq, sigma2_sq), c2));
  Tensor per_window = divide(numerator, denominator);
  Tensor per_image_channel =
      reshape(mean(per_window, std::vector<int>{1, 2, 3}), Shape{batch, channels});
  Tensor result = mean(per_image_channel, -1);
  if (!batched) result = squeeze(result, 0);
  return cast(result, original);
}

}  // namespace keras::ops::image

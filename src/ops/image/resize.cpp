// keras.ops.image.resize with jax.image.resize's semantics. Each spatial axis is resampled by
// a (out, in) weight matrix built on the host from the kernel (half-pixel centres, weights
// normalized per output pixel, zero when the sample falls outside the image), and applied as
// one batched matmul per axis, so the op is fast and differentiable without a gradient rule of
// its own. "nearest" gathers instead.

#include <cmath>
#include <functional>
#include <limits>

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

constexpr double kPi = 3.14159265358979323846;

double triangle_kernel(double x) { return std::max(0.0, 1.0 - std::abs(x)); }

// Keys (1981) cubic convolution with a = -0.5, as jax.image's "cubic".
double keys_cubic_kernel(double x) {
  if (x >= 2.0) return 0.0;
  if (x >= 1.0) return ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0;
  return ((1.5 * x - 2.5) * x) * x + 1.0;
}

double lanczos_kernel(double radius, double x) {
  if (x > radius) return 0.0;
  if (x <= 1e-3) return 1.0;
  const double y = radius * std::sin(kPi * x) * std::sin(kPi * x / radius);
  return y / (kPi * kPi * x * x);
}

std::function<double(double)> kernel_for(const std::string& method) {
  if (method == "bilinear") return triangle_kernel;
  if (method == "bicubic") return keys_cubic_kernel;
  if (method == "lanczos3") return [](double x) { return lanczos_kernel(3.0, x); };
  return [](double x) { return lanczos_kernel(5.0, x); };  // lanczos5
}

// The (out, in) resampling matrix of jax.image.scale_and_translate for scale out / in and no
// translation, in double precision (as Keras's NumPy backend computes it).
std::vector<double> weight_matrix(int64_t in, int64_t out, const std::function<double(double)>& kernel,
                                  bool antialias) {
  const double scale = static_cast<double>(out) / static_cast<double>(in);
  const double inv_scale = 1.0 / scale;
  const double kernel_scale = antialias ? std::max(inv_scale, 1.0) : 1.0;
  const double threshold = 1000.0 * std::numeric_limits<float>::epsilon();
  std::vector<double> w(static_cast<size_t>(out * in), 0.0);
  for (int64_t j = 0; j < out; ++j) {
    const double sample = (static_cast<double>(j) + 0.5) * inv_scale - 0.5;
    if (!(sample >= -0.5 && sample <= static_cast<double>(in) - 0.5)) continue;
    double* row = w.data() + j * in;
    double total = 0.0;
    for (int64_t i = 0; i < in; ++i) {
      row[i] = kernel(std::abs(sample - static_cast<double>(i)) / kernel_scale);
      total += row[i];
    }
    if (std::abs(total) > threshold) {
      for (int64_t i = 0; i < in; ++i) row[i] /= total;
    } else {
      for (int64_t i = 0; i < in; ++i) row[i] = 0.0;
    }
  }
  return w;
}

// Input pixel floor((i + 0.5) * in / out) for each output pixel i, computed in float32 as
// jax.image does.
std::vector<int64_t> nearest_indices(int64_t in, int64_t out) {
  std::vector<int64_t> idx(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    float v = (static_cast<float>(i) + 0.5f) * static_cast<float>(in);
    v = v / static_cast<float>(out);
    idx[static_cast<size_t>(i)] = std::min<int64_t>(static_cast<int64_t>(std::floor(v)), in - 1);
  }
  return idx;
}

// Crops the largest centred window with the target aspect ratio (Keras's crop_to_aspect_ratio
// arithmetic, including its truncations).
Tensor crop_to_aspect(const Tensor& x, int h_axis, int w_axis, int64_t target_h,
                      int64_t target_w) {
  const int64_t height = x.shape()[h_axis], width = x.shape()[w_axis];
  int64_t crop_h = static_cast<int64_t>(static_cast<double>(width * target_h) / target_w);
  crop_h = std::max<int64_t>(std::min(height, crop_h), 1);
  int64_t crop_w = static_cast<int64_t>(static_cast<double>(height * target_w) / target_h);
  crop_w = std::max<int64_t>(std::min(width, crop_w), 1);
  const int64_t h_start = static_cast<int64_t>(static_cast<double>(height - crop_h) / 2);
  const int64_t w_start = static_cast<int64_t>(static_cast<double>(width - crop_w) / 2);
  std::vector<int64_t> start(static_cast<size_t>(x.ndim()), 0);
  Shape shape = x.shape();
  start[static_cast<size_t>(h_axis)] = h_start;
  start[static_cast<size_t>(w_axis)] = w_start;
  shape[h_axis] = crop_h;
  shape[w_axis] = crop_w;
  return slice(x, start, shape);
}

// Pads the short side evenly (the same amount on both sides, as Keras does) towards the target
// aspect ratio.
Tensor pad_to_aspect(const Tensor& x, int h_axis, int w_axis, int64_t target_h,
                     int64_t target_w, double fill_value) {
  const int64_t height = x.shape()[h_axis], width = x.shape()[w_axis];
  int64_t pad_h = static_cast<int64_t>(static_cast<double>(width * target_h) / target_w);
  pad_h = std::max(height, pad_h);
  int64_t pad_w = static_cast<int64_t>(static_cast<double>(height * target_w) / target_h);
  pad_w = std::max(width, pad_w);
  const int64_t h_start = static_cast<int64_t>(static_cast<double>(pad_h - height) / 2);
  const int64_t w_start = static_cast<int64_t>(static_cast<double>(pad_w - width) / 2);
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  if (h_start > 0) widths[static_cast<size_t>(h_axis)] = {h_start, h_start};
  else if (w_start > 0) widths[static_cast<size_t>(w_axis)] = {w_start, w_start};
  else return x;
  return pad(x, widths, "constant", Scalar(fill_value));
}

}  // namespace

Tensor resize(const Tensor& images, std::array<int64_t, 2> size, const ResizeOptions& options) {
  constexpr std::string_view op = "resize";
  detail::check_image_rank(op, images);
  const std::string data_format = detail::standardize_data_format(op, options.data_format);
  check(size[0] > 0 && size[1] > 0, op, ": size must have positive height and width; got (",
        size[0], ", ", size[1], ").");
  const std::string& method = options.interpolation;
  check(method == "bilinear" || method == "nearest" || method == "bicubic" ||
            method == "lanczos3" || method == "lanczos5",
        op,
        ": interpolation must be one of \"bilinear\", \"nearest\", \"bicubic\", \"lanczos3\", "
        "\"lanczos5\"; got \"",
        method, "\".");
  check(options.fill_mode == "constant", op,
        ": only fill_mode=\"constant\" is supported; got \"", options.fill_mode, "\".");
  check(!(options.crop_to_aspect_ratio && options.pad_to_aspect_ratio), op,
        ": only one of pad_to_aspect_ratio and crop_to_aspect_ratio can be true.");

  backend::BackendScope on_input(images.backend_name());
  const auto [h_axis, w_axis] = detail::spatial_axes(images.ndim(), data_format);
  for (int axis : {h_axis, w_axis})
    check(images.shape()[axis] > 0, op, ": the images must have a positive height and width; got shape ",
          images.shape(), ".");

  Tensor x = images;
  if (options.crop_to_aspect_ratio) x = crop_to_aspect(x, h_axis, w_axis, size[0], size[1]);
  else if (options.pad_to_aspect_ratio)
    x = pad_to_aspect(x, h_axis, w_axis, size[0], size[1], options.fill_value);

  const int64_t in_h = x.shape()[h_axis], in_w = x.shape()[w_axis];
  if (method == "nearest") {
    if (in_h != size[0])
      x = take(x, Tensor::from_vector(nearest_indices(in_h, size[0]), Shape{size[0]}), h_axis);
    if (in_w != size[1])
      x = take(x, Tensor::from_vector(nearest_indices(in_w, size[1]), Shape{size[1]}), w_axis);
    return x;
  }

  const DType dtype = images.dtype();
  const DType compute = detail::interpolation_dtype(dtype);
  x = cast(x, compute);
  // Batch the image: (B, H, W, C) or (B, C, H, W).
  const bool batched = x.ndim() == 4;
  if (!batched) x = expand_dims(x, 0);
  const int64_t batch = x.shape()[0];
  const bool last = data_format == "channels_last";
  const int64_t channels = last ? x.shape()[3] : x.shape()[1];
  const auto kernel = kernel_for(method);
  auto matrix = [&](int64_t in, int64_t out) {
    return cast(Tensor::from_vector(weight_matrix(in, out, kernel, options.antialias),
                                    Shape{out, in}),
                compute);
  };
  const int64_t out_h = size[0], out_w = size[1];
  if (last) {
    int64_t h = in_h;
    if (in_h != out_h) {
      // (out_h, in_h) @ (B, in_h, W * C)
      x = matmul(matrix(in_h, out_h), reshape(x, Shape{batch, in_h, in_w * channels}));
      h = out_h;
    }
    if (in_w != out_w) {
      // (out_w, in_w) @ (B * h, in_w, C)
      x = matmul(matrix(in_w, out_w), reshape(x, Shape{batch * h, in_w, channels}));
    }
    x = reshape(x, Shape{batch, out_h, out_w, channels});
  } else {
    x = reshape(x, Shape{batch * channels, in_h, in_w});
    if (in_h != out_h) x = matmul(matrix(in_h, out_h), x);
    if (in_w != out_w) x = matmul(x, transpose(matrix(in_w, out_w)));
    x = reshape(x, Shape{batch, channels, out_h, out_w});
  }
  if (!batched) x = squeeze(x, 0);
  if (x.dtype() == dtype) return x;
  if (is_integer(dtype)) return saturate_cast(round(x), dtype);
  return cast(x, dtype);
}

}  // namespace keras::ops::image

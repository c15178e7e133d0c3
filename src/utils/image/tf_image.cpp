// tf.io.decode_image and tf.image.resize / resize_with_pad as image_dataset_from_directory
// applies them. The resampling itself is keras::ops::image::resize (half-pixel centres, no
// antialiasing: tf.image.resize's bilinear and nearest).

#include "utils/image/tf_image.h"

#include <cmath>

#include "keras/core/errors.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "utils/image/pil_ops.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {

namespace {

// libpng's png_set_rgb_to_gray(png, 1, 0.299, 0.587), which TensorFlow's PNG decoder uses for
// one channel: 15-bit coefficients truncated from 1e5 fixed point, the sum truncated, and gray
// pixels (r == g == b) kept as they are.
uint8_t libpng_gray(const uint8_t* rgb) {
  constexpr uint32_t red = 29900u * 32768u / 100000u, green = 58700u * 32768u / 100000u;
  constexpr uint32_t blue = 32768u - red - green;
  if (rgb[0] == rgb[1] && rgb[1] == rgb[2]) return rgb[0];
  return static_cast<uint8_t>((red * rgb[0] + green * rgb[1] + blue * rgb[2]) >> 15);
}

}  // namespace

Tensor decode_like_tensorflow(const std::string& path, int channels) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  const RawImage raw = channels == 1 && is_jpeg(bytes)
                           ? decode_jpeg(bytes, path, JpegDct::Fast, /*luma_only=*/true)
                           : decode_image(bytes, path, JpegDct::Fast);
  check<NotImplementedError>(raw.bit_depth <= 8, "Cannot read the 16-bit PNG file ", path,
                             ": TensorFlow decodes it to uint16 values, which keras-cpp's image "
                             "datasets do not reproduce; save it as 8-bit");
  Image img;
  if (channels == 1 && raw.format == "PNG" && raw.mode != "L" && raw.mode != "LA") {
    const Image rgb = convert_raw(raw, "RGB");
    img = Image{"L", rgb.height, rgb.width, std::vector<uint8_t>(rgb.pixels.size() / 3), {}};
    for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = libpng_gray(&rgb.pixels[i * 3]);
  } else {
    img = convert_raw(raw, channels == 1 ? "L" : channels == 3 ? "RGB" : "RGBA");
  }
  if (raw.format == "GIF") {
    // TensorFlow's GIF decoder paints the first frame's transparent pixels black.
    for (size_t i = 0; i < raw.pixels.size(); ++i)
      if (raw.palette[raw.pixels[i] * 4 + 3] == 0)
        std::fill_n(&img.pixels[i * channels], channels, uint8_t{0});
  }
  return Tensor::from_host(img.pixels.data(), DType::UInt8, {img.height, img.width, channels},
                           img.pixels.size());
}

namespace {

// tf.image.resize without antialiasing; bilinear, nearest and lanczos are
// keras::ops::image::resize's (the same sampling), bicubic TensorFlow's own table-driven kernel.
Tensor resize_to(const Tensor& x, const std::string& interpolation, int64_t height, int64_t width) {
  if (interpolation == "bicubic") return tensorflow_bicubic(x, height, width);
  return ops::image::resize(x, {height, width},
                            {.interpolation = interpolation, .data_format = "channels_last"});
}

}  // namespace

Tensor resize_like_tensorflow(const Tensor& image, const TfResize& how) {
  const bool nearest = how.interpolation == "nearest";
  // tf.image.resize computes in float32 and keeps the input dtype only for nearest.
  Tensor x = nearest ? image : image.astype(DType::Float32);
  const auto [target_height, target_width] = how.size;
  const int64_t height = image.shape()[0], width = image.shape()[1];
  if (how.crop_to_aspect_ratio) {
    // smart_resize's centred crop of the target's aspect ratio (Python floats, truncated).
    const int64_t crop_height = std::max<int64_t>(
        std::min(height, static_cast<int64_t>(static_cast<double>(width * target_height) /
                                              static_cast<double>(target_width))),
        1);
    const int64_t crop_width = std::max<int64_t>(
        std::min(width, static_cast<int64_t>(static_cast<double>(height * target_width) /
                                             static_cast<double>(target_height))),
        1);
    const auto top = static_cast<int64_t>(static_cast<double>(height - crop_height) / 2);
    const auto left = static_cast<int64_t>(static_cast<double>(width - crop_width) / 2);
    x = x.slice({{top, top + crop_height}, {left, left + crop_width}}).contiguous();
  }
  if (!how.pad_to_aspect_ratio) return resize_to(x, how.interpolation, target_height, target_width);
  // tf.image.resize_with_pad: resize to fit inside, then pad with zeros (float32 arithmetic).
  const float ratio = std::max(static_cast<float>(width) / static_cast<float>(target_width),
                               static_cast<float>(height) / static_cast<float>(target_height));
  const float resized_height = static_cast<float>(height) / ratio;
  const float resized_width = static_cast<float>(width) / ratio;
  const auto top = std::max<int64_t>(
      0,
      static_cast<int64_t>(std::floor((static_cast<float>(target_height) - resized_height) / 2)));
  const auto left = std::max<int64_t>(
      0, static_cast<int64_t>(std::floor((static_cast<float>(target_width) - resized_width) / 2)));
  Tensor resized = resize_to(x, how.interpolation, static_cast<int64_t>(std::floor(resized_height)),
                             static_cast<int64_t>(std::floor(resized_width)));
  return ops::image::pad_images(resized, {.top_padding = top,
                                          .left_padding = left,
                                          .target_height = target_height,
                                          .target_width = target_width,
                                          .data_format = "channels_last"});
}

}  // namespace keras::utils::detail

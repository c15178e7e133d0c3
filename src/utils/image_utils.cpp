// load_img, img_to_array and array_to_img (keras/src/utils/image_utils.py), on PIL's rules.

#include "keras/utils/image_utils.h"

#include <algorithm>
#include <cmath>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "utils/image/pil_ops.h"
#include "utils/image/raw_image.h"

namespace keras::utils {
namespace {

std::string standardize_data_format(const std::optional<std::string>& data_format) {
  if (!data_format) return config::image_data_format();
  check(*data_format == "channels_last" || *data_format == "channels_first",
        "data_format must be \"channels_last\" or \"channels_first\"; got \"", *data_format, "\"");
  return *data_format;
}

// The PIL mode load_img converts to; "I;16"-like modes never reach here (the decoder refuses).
std::string mode_for(const std::string& color_mode) {
  if (color_mode == "grayscale") return "L";
  if (color_mode == "rgb") return "RGB";
  if (color_mode == "rgba") return "RGBA";
  throw ValueError("color_mode must be \"grayscale\", \"rgb\", or \"rgba\"; got \"" + color_mode +
                   "\"");
}

// load_img's keep_aspect_ratio box: the centred crop of the target's aspect ratio, in integer
// pixels (Keras's floor divisions).
std::array<float, 4> centred_box(int64_t width, int64_t height, int64_t target_width,
                                 int64_t target_height) {
  int64_t crop_height = std::min(height, (width * target_height) / target_width);
  int64_t crop_width = std::min(width, (height * target_width) / target_height);
  int64_t top = (height - crop_height) / 2;
  int64_t left = (width - crop_width) / 2;
  return {static_cast<float>(left), static_cast<float>(top), static_cast<float>(left + crop_width),
          static_cast<float>(top + crop_height)};
}

}  // namespace

int Image::channels() const {
  if (mode == "L" || mode == "I") return 1;
  if (mode == "RGB") return 3;
  return 4;
}

Image load_img_from_memory(std::span<const uint8_t> bytes, const LoadImgOptions& options,
                           const std::string& source) {
  const std::string mode = mode_for(options.color_mode);
  Image img = detail::convert_raw(detail::decode_image(bytes, source), mode);
  if (!options.target_size) return img;
  auto [height, width] = *options.target_size;
  check(height >= 1 && width >= 1, "target_size must be positive (height, width); got (", height,
        ", ", width, ")");
  if (img.height == height && img.width == width) return img;
  std::array<float, 4> box = {0, 0, static_cast<float>(img.width), static_cast<float>(img.height)};
  if (options.keep_aspect_ratio) box = centred_box(img.width, img.height, width, height);
  return detail::pil_resize(img, width, height, options.interpolation, box);
}

Image load_img(const std::string& path, const LoadImgOptions& options) {
  mode_for(options.color_mode);  // a bad option fails before the file is read
  return load_img_from_memory(detail::read_file_bytes(path), options, path);
}

Tensor img_to_array(const Image& img, std::optional<std::string> data_format,
                    std::optional<DType> dtype) {
  const std::string format = standardize_data_format(data_format);
  const Shape shape{img.height, img.width, img.channels()};
  Tensor x = img.mode == "I"
                 ? Tensor::from_vector(img.wide, shape)
                 : Tensor::from_host(img.pixels.data(), DType::UInt8, shape, img.pixels.size());
  x = x.astype(dtype.value_or(config::floatx()));
  if (format == "channels_first") x = ops::transpose(x, {2, 0, 1}).contiguous();
  return x;
}

Image array_to_img(const Tensor& input, const ArrayToImgOptions& options) {
  const std::string format = standardize_data_format(options.data_format);
  check(input.defined() && input.ndim() == 3,
        "Expected image array to have rank 3 (single image). Got array with shape: ",
        input.defined() ? input.shape() : Shape{});
  Tensor x = input.astype(options.dtype.value_or(config::floatx()));
  if (format == "channels_first") x = ops::transpose(x, {1, 2, 0});
  const int64_t channels = x.shape()[2];
  check(channels == 1 || channels == 3 || channels == 4, "Unsupported channel number: ", channels);
  // NumPy's arithmetic in the array's own dtype: float32 values round as float32.
  const bool single = x.dtype() != DType::Float64;
  std::vector<double> values = x.to_vector<double>();
  auto round_to_dtype = [single](double v) {
    return single ? static_cast<double>(static_cast<float>(v)) : v;
  };
  if (options.scale && !values.empty()) {
    const double lo = *std::min_element(values.begin(), values.end());
    for (double& v : values) v = round_to_dtype(v - lo);
    const double hi = *std::max_element(values.begin(), values.end());
    for (double& v : values) {
      if (hi != 0) v = round_to_dtype(v / hi);
      v = round_to_dtype(v * 255);
    }
  }
  Image img;
  img.height = x.shape()[0];
  img.width = x.shape()[1];
  const double hi = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
  // astype truncates toward zero; out-of-range values wrap through int32 as on x86 NumPy.
  auto truncate = [](double v) { return static_cast<int32_t>(std::trunc(v)); };
  if (channels == 1 && hi > 255) {
    img.mode = "I";
    for (double v : values) img.wide.push_back(truncate(v));
    return img;
  }
  img.mode = channels == 1 ? "L" : channels == 3 ? "RGB" : "RGBA";
  img.pixels.reserve(values.size());
  for (double v : values) img.pixels.push_back(static_cast<uint8_t>(truncate(v)));
  return img;
}

void save_img(const std::string& path, const Tensor& x, const SaveImgOptions& options) {
  std::string format = options.file_format.value_or("");
  if (format.empty()) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
      format = path.substr(dot + 1);
  }
  std::transform(format.begin(), format.end(), format.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (format == "jpg") format = "jpeg";
  Image img = array_to_img(x, {.data_format = options.data_format, .scale = options.scale});
  save_image_file(path, img, format, options.quality);
}

}  // namespace keras::utils

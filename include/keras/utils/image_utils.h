#pragma once
// Keras's image file helpers: load_img, img_to_array, array_to_img and save_img, with the
// pixels PIL gives (Keras loads images through PIL).
//
//   keras::utils::Image img = keras::utils::load_img("cat.jpg", {.target_size = {{224, 224}}});
//   keras::Tensor x = keras::utils::img_to_array(img);           // (224, 224, 3) float32
//   keras::utils::save_img("out.png", x);                         // scaled to 0..255
//
// PNG (libpng), JPEG (libjpeg-turbo), GIF (giflib, first frame) and BMP (stb_image) files are
// read; the format comes from the file's first bytes, as PIL sniffs it. PNG, JPEG and BMP are
// written. Resizing reproduces PIL's Image.resize (its fixed-point resampling filters and its
// nearest-neighbour coordinate rounding), so pixels match Keras's exactly.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// An image as PIL holds one after load_img or array_to_img. `mode` is one of PIL's modes: "L"
/// (grayscale), "RGB", "RGBA" (8 bits a band, in `pixels`) or "I" (32-bit integer grayscale, in
/// `wide`: array_to_img of one channel with values above 255). Rows top to bottom, bands
/// interleaved.
struct Image {
  /// PIL's mode: "L", "RGB", "RGBA" or "I".
  std::string mode;
  /// Rows, in pixels.
  int64_t height = 0;
  /// Columns, in pixels.
  int64_t width = 0;
  /// The 8-bit samples of modes "L", "RGB" and "RGBA": height * width * channels() bytes.
  std::vector<uint8_t> pixels;
  /// The 32-bit samples of mode "I": height * width values (empty for the other modes).
  std::vector<int32_t> wide;
  /// 1, 3 or 4.
  int channels() const;
};

/// load_img's keyword arguments (keras.utils.load_img).
struct LoadImgOptions {
  /// "grayscale", "rgb" or "rgba".
  std::string color_mode = "rgb";
  /// (height, width); std::nullopt keeps the file's size.
  std::optional<std::pair<int64_t, int64_t>> target_size;
  /// PIL's filters: "nearest", "bilinear", "bicubic", "hamming", "box" or "lanczos".
  std::string interpolation = "nearest";
  /// Crop the centre to the target's aspect ratio before resizing (no distortion).
  bool keep_aspect_ratio = false;
};

/// Reads an image file (keras.utils.load_img). IOError naming the path for a missing,
/// unreadable, corrupt or unknown file; ValueError for a bad option.
Image load_img(const std::string& path, const LoadImgOptions& options = {});
/// The same from the bytes of a file (Keras accepts an io.BytesIO); `source` names it in
/// error messages.
Image load_img_from_memory(std::span<const uint8_t> bytes, const LoadImgOptions& options = {},
                           const std::string& source = "<memory>");

/// The pixels as a (height, width, channels) tensor, or (channels, height, width) for
/// "channels_first" (keras.utils.img_to_array). data_format defaults to
/// keras::config::image_data_format(), dtype to floatx().
Tensor img_to_array(const Image& img, std::optional<std::string> data_format = std::nullopt,
                    std::optional<DType> dtype = std::nullopt);

/// array_to_img's keyword arguments (keras.utils.array_to_img).
struct ArrayToImgOptions {
  /// "channels_last" or "channels_first"; default keras::config::image_data_format().
  std::optional<std::string> data_format;
  /// Rescale so that the minimum is 0 and the maximum 255: x - min, then divided by the
  /// maximum of that and multiplied by 255 (as Keras's array_to_img).
  bool scale = true;
  /// The type the values are computed in before the cast to 8 bits; default floatx().
  std::optional<DType> dtype;
};

/// A rank-3 tensor of 1, 3 or 4 channels as an image (keras.utils.array_to_img): the values
/// (scaled or not) are truncated to integers as NumPy's astype("uint8") does.
Image array_to_img(const Tensor& x, const ArrayToImgOptions& options = {});

/// save_img's keyword arguments (keras.utils.save_img).
struct SaveImgOptions {
  /// "channels_last" or "channels_first"; default keras::config::image_data_format().
  std::optional<std::string> data_format;
  /// "png", "jpeg" (or "jpg") or "bmp"; default the path's extension.
  std::optional<std::string> file_format;
  /// Rescale so that the minimum is 0 and the maximum 255, as array_to_img's `scale`.
  bool scale = true;
  /// JPEG quality, 1 to 95 (PIL's default 75).
  int quality = 75;
};

/// Writes a rank-3 tensor as an image file (keras.utils.save_img). RGBA to JPEG drops the alpha
/// channel with a warning on stderr, as Keras.
void save_img(const std::string& path, const Tensor& x, const SaveImgOptions& options = {});
/// Writes an image (from load_img or array_to_img) in `file_format` ("png", "jpeg", "bmp").
void save_image_file(const std::string& path, const Image& img, const std::string& file_format,
                     int quality = 75);

}  // namespace keras::utils

#pragma GCC visibility pop

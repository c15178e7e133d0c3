#pragma once
// An image file as PIL opens it, before load_img's color_mode conversion, and the decoders
// that produce one. Internal to keras::utils.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace keras::utils::detail {

/// PIL's mode on opening: "L", "LA", "RGB", "RGBA" or "P" (palette indices).
struct RawImage {
  /// "PNG", "JPEG", "GIF" or "BMP".
  std::string format;
  /// The file's bits per sample (16 for 16-bit PNG, whose samples keep their high byte here).
  int bit_depth = 8;
  std::string mode;
  int64_t height = 0;
  int64_t width = 0;
  /// height * width * bands bytes (P: one palette index a pixel).
  std::vector<uint8_t> pixels;
  /// P: 256 RGBA entries (alpha 0 for a transparent index, 255 otherwise).
  std::vector<uint8_t> palette;
  /// L and RGB: a PNG tRNS colour, fully transparent when converted to RGBA.
  std::optional<std::array<uint8_t, 3>> color_key;
};

/// How a JPEG's DCT is inverted: PIL uses libjpeg's default (accurate integer), TensorFlow's
/// decode_image the fast integer one.
enum class JpegDct { Accurate, Fast };

RawImage decode_png(std::span<const uint8_t> bytes, const std::string& source);
/// `luma_only`: libjpeg's grayscale output (the Y plane), as TensorFlow decodes to 1 channel.
RawImage decode_jpeg(std::span<const uint8_t> bytes, const std::string& source, JpegDct dct,
                     bool luma_only = false);
bool is_jpeg(std::span<const uint8_t> bytes);
RawImage decode_gif(std::span<const uint8_t> bytes, const std::string& source);
RawImage decode_bmp(std::span<const uint8_t> bytes, const std::string& source);
/// Picks the decoder from the first bytes (as PIL does, whatever the extension); IOError naming
/// `source` for anything else.
RawImage decode_image(std::span<const uint8_t> bytes, const std::string& source,
                      JpegDct dct = JpegDct::Accurate);
/// The whole file; IOError naming the path when it cannot be read.
std::vector<uint8_t> read_file_bytes(const std::string& path);

}  // namespace keras::utils::detail

// Chooses a decoder from a file's signature, as PIL identifies images by content.

#include <cstring>
#include <fstream>
#include <iterator>

#include "keras/core/errors.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {
namespace {

bool starts_with(std::span<const uint8_t> bytes, const char* magic, size_t length) {
  return bytes.size() >= length && std::memcmp(bytes.data(), magic, length) == 0;
}

}  // namespace

bool is_jpeg(std::span<const uint8_t> bytes) {
  return starts_with(bytes, "\xff\xd8\xff", 3);
}

RawImage decode_image(std::span<const uint8_t> bytes, const std::string& source, JpegDct dct) {
  if (starts_with(bytes, "\x89PNG\r\n\x1a\n", 8)) return decode_png(bytes, source);
  if (is_jpeg(bytes)) return decode_jpeg(bytes, source, dct);
  if (starts_with(bytes, "GIF87a", 6) || starts_with(bytes, "GIF89a", 6))
    return decode_gif(bytes, source);
  if (starts_with(bytes, "BM", 2)) return decode_bmp(bytes, source);
  throw IOError("Cannot identify the image file " + source +
                ": it is not a PNG, JPEG, GIF or BMP file (checked by its first bytes)");
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  check<IOError>(in.good(), "Cannot open the image file ", path, " (missing or unreadable)");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace keras::utils::detail

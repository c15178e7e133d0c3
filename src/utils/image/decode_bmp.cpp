// BMP through stb_image (uncompressed 1/4/8/16/24/32-bit), as RGB: PIL's palette and L modes
// of a BMP convert to the same pixels.

#include <stb_image.h>

#include "keras/core/errors.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {

RawImage decode_bmp(std::span<const uint8_t> bytes, const std::string& source) {
  int width = 0, height = 0, channels = 0;
  uint8_t* data = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &width,
                                        &height, &channels, 3);
  check<IOError>(data != nullptr, "Cannot decode the BMP file ", source, ": ",
                 stbi_failure_reason());
  RawImage image;
  image.format = "BMP";
  image.mode = "RGB";
  image.width = width;
  image.height = height;
  image.pixels.assign(data, data + static_cast<size_t>(width) * height * 3);
  stbi_image_free(data);
  return image;
}

}  // namespace keras::utils::detail

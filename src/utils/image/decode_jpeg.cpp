// JPEG through libjpeg-turbo: grayscale files open as "L", colour files as "RGB" (libjpeg's
// YCbCr conversion with fancy upsampling, as PIL and TensorFlow both use it).

#include <cstdio>

#include "keras/core/errors.h"
#include "utils/image/jpeg_errors.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {
namespace {

// A corrupt-data warning (a truncated scan, a bad marker) is an error here: PIL refuses
// truncated files unless told otherwise (ImageFile.LOAD_TRUNCATED_IMAGES).
void on_jpeg_warning(j_common_ptr info, int level) {
  if (level < 0) on_jpeg_error(info);
}

}  // namespace

RawImage decode_jpeg(std::span<const uint8_t> bytes, const std::string& source, JpegDct dct,
                     bool luma_only) {
  RawImage image;
  image.format = "JPEG";
  jpeg_decompress_struct cinfo{};
  JpegErrors errors;
  cinfo.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = on_jpeg_error;
  errors.base.emit_message = on_jpeg_warning;
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&cinfo);
    throw IOError("Cannot decode the JPEG file " + source + ": " + errors.message);
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, bytes.data(), static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    std::snprintf(errors.message, sizeof errors.message,
                  "CMYK JPEG is not supported; convert it to RGB first");
    std::longjmp(errors.jump, 1);
  }
  const bool gray = luma_only || cinfo.jpeg_color_space == JCS_GRAYSCALE;
  cinfo.out_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
  cinfo.dct_method = dct == JpegDct::Fast ? JDCT_IFAST : JDCT_ISLOW;
  jpeg_start_decompress(&cinfo);
  image.mode = gray ? "L" : "RGB";
  image.width = cinfo.output_width;
  image.height = cinfo.output_height;
  const size_t row_bytes = static_cast<size_t>(cinfo.output_width) * cinfo.output_components;
  image.pixels.resize(row_bytes * cinfo.output_height);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = image.pixels.data() + cinfo.output_scanline * row_bytes;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return image;
}

}  // namespace keras::utils::detail

// PNG through libpng, kept in the file's own mode as PIL opens it: grayscale, gray+alpha, RGB,
// RGBA or palette (with its tRNS alphas). Sub-byte depths are widened to 8 bits; 16-bit colour
// keeps its high byte (PIL's "RGB;16B" unpacking).

#include <png.h>

#include <csetjmp>
#include <cstring>

#include "keras/core/errors.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {
namespace {

struct PngSession {
  std::jmp_buf jump;
  std::string message;
  bool unsupported = false;  // a valid file keras-cpp does not read (NotImplementedError)
  std::span<const uint8_t> bytes;
  size_t offset = 0;
};

void on_png_error(png_structp png, png_const_charp message) {
  auto* session = static_cast<PngSession*>(png_get_error_ptr(png));
  session->message = message;
  std::longjmp(session->jump, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

void read_from_span(png_structp png, png_bytep out, png_size_t count) {
  auto* session = static_cast<PngSession*>(png_get_io_ptr(png));
  if (session->offset + count > session->bytes.size()) png_error(png, "file is truncated");
  std::memcpy(out, session->bytes.data() + session->offset, count);
  session->offset += count;
}

}  // namespace

RawImage decode_png(std::span<const uint8_t> bytes, const std::string& source) {
  PngSession session;
  session.bytes = bytes;
  RawImage image;
  image.format = "PNG";
  std::vector<png_bytep> rows;
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &session, on_png_error, on_png_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  check<IOError>(png && info, "libpng could not start reading ", source);
  // Everything that needs destroying lives outside this block, so the longjmp skips nothing.
  if (setjmp(session.jump)) {
    png_destroy_read_struct(&png, &info, nullptr);
    if (session.unsupported)
      throw NotImplementedError("Cannot read the PNG file " + source + ": " + session.message);
    throw IOError("Cannot decode the PNG file " + source + ": " + session.message);
  }
  png_set_read_fn(png, &session, read_from_span);
  png_read_info(png, info);
  const int color_type = png_get_color_type(png, info);
  const int depth = png_get_bit_depth(png, info);
  image.width = png_get_image_width(png, info);
  image.height = png_get_image_height(png, info);
  if (depth == 16 && color_type == PNG_COLOR_TYPE_GRAY) {
    session.message = "16-bit grayscale PNG (PIL's mode I;16) is not supported; save it as 8-bit";
    session.unsupported = true;
    std::longjmp(session.jump, 1);
  }
  image.bit_depth = depth;
  if (depth == 16) png_set_strip_16(png);
  if (depth < 8) {
    if (color_type == PNG_COLOR_TYPE_PALETTE)
      png_set_packing(png);
    else
      png_set_expand_gray_1_2_4_to_8(png);
  }
  png_set_interlace_handling(png);
  // The tRNS chunk stays a palette alpha table or a colour key, as PIL keeps it in
  // info["transparency"]: only an RGBA conversion uses it.
  png_bytep trans_alpha = nullptr;
  int num_trans = 0;
  png_color_16p trans_color = nullptr;
  if (png_get_valid(png, info, PNG_INFO_tRNS))
    png_get_tRNS(png, info, &trans_alpha, &num_trans, &trans_color);
  if (color_type == PNG_COLOR_TYPE_PALETTE) {
    png_colorp colors = nullptr;
    int num_colors = 0;
    png_get_PLTE(png, info, &colors, &num_colors);
    image.mode = "P";
    image.palette.assign(256 * 4, 0);
    for (int i = 0; i < 256; ++i) image.palette[i * 4 + 3] = 255;
    for (int i = 0; i < num_colors && i < 256; ++i) {
      image.palette[i * 4 + 0] = colors[i].red;
      image.palette[i * 4 + 1] = colors[i].green;
      image.palette[i * 4 + 2] = colors[i].blue;
    }
    for (int i = 0; trans_alpha && i < num_trans && i < 256; ++i)
      image.palette[i * 4 + 3] = trans_alpha[i];
  } else if (trans_color) {
    auto level = [depth](png_uint_16 v) {
      // The key is in the file's bit depth; compare it as the 8-bit samples are stored.
      if (depth == 16) return static_cast<uint8_t>(v >> 8);
      if (depth < 8) return static_cast<uint8_t>(v * (255 / ((1 << depth) - 1)));
      return static_cast<uint8_t>(v);
    };
    if (color_type == PNG_COLOR_TYPE_GRAY) {
      uint8_t g = level(trans_color->gray);
      image.color_key = std::array<uint8_t, 3>{g, g, g};
    } else if (color_type == PNG_COLOR_TYPE_RGB) {
      image.color_key = std::array<uint8_t, 3>{level(trans_color->red), level(trans_color->green),
                                               level(trans_color->blue)};
    }
  }
  if (color_type == PNG_COLOR_TYPE_GRAY) image.mode = "L";
  if (color_type == PNG_COLOR_TYPE_GRAY_ALPHA) image.mode = "LA";
  if (color_type == PNG_COLOR_TYPE_RGB) image.mode = "RGB";
  if (color_type == PNG_COLOR_TYPE_RGB_ALPHA) image.mode = "RGBA";
  png_read_update_info(png, info);
  const size_t row_bytes = png_get_rowbytes(png, info);
  image.pixels.resize(row_bytes * static_cast<size_t>(image.height));
  rows.resize(static_cast<size_t>(image.height));
  for (int64_t y = 0; y < image.height; ++y) rows[y] = image.pixels.data() + y * row_bytes;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return image;
}

}  // namespace keras::utils::detail

// save_img's writers: PNG (libpng), JPEG (libjpeg-turbo with PIL's defaults: quality 75,
// 4:2:0 chroma subsampling, accurate DCT) and BMP (stb_image_write, 24 or 32 bits).

#include <png.h>
#include <stb_image_write.h>

#include <csetjmp>
#include <cstdio>
#include <iostream>
#include <memory>

#include "keras/core/errors.h"
#include "keras/utils/image_utils.h"
#include "utils/image/jpeg_errors.h"

namespace keras::utils {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_for_writing(const std::string& path) {
  File file(std::fopen(path.c_str(), "wb"));
  check<IOError>(file != nullptr, "Cannot write the image file ", path,
                 " (is the folder there and writable?)");
  return file;
}

struct CodecErrors {
  std::jmp_buf jump;
  std::string message;
};

void on_png_error(png_structp png, png_const_charp message) {
  auto* errors = static_cast<CodecErrors*>(png_get_error_ptr(png));
  errors->message = message;
  std::longjmp(errors->jump, 1);
}

// What libpng writes; kept in memory (not registers) across the setjmp below.
struct PngLayout {
  png_uint_32 width, height;
  int bit_depth, color_type;
  png_bytep* rows;
};

void write_png_rows(std::FILE* file, const std::string& path, const PngLayout& layout) {
  CodecErrors errors;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, on_png_error, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  check<IOError>(png && info, "libpng could not start writing ", path);
  if (setjmp(errors.jump)) {
    png_destroy_write_struct(&png, &info);
    throw IOError("Cannot write the PNG file " + path + ": " + errors.message);
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, layout.width, layout.height, layout.bit_depth, layout.color_type,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, layout.rows);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

void write_png(const std::string& path, const Image& img) {
  // Mode I is written as 16-bit grayscale, clipped to 0..65535, as PIL does.
  const bool wide = img.mode == "I";
  const int c = img.channels();
  std::vector<uint8_t> data = img.pixels;
  if (wide) {
    data.clear();
    for (int32_t v : img.wide) {
      const int32_t clipped = std::clamp<int32_t>(v, 0, 65535);
      data.push_back(static_cast<uint8_t>(clipped >> 8));
      data.push_back(static_cast<uint8_t>(clipped & 0xff));
    }
  }
  const size_t row_bytes = static_cast<size_t>(img.width) * c * (wide ? 2 : 1);
  std::vector<png_bytep> rows(static_cast<size_t>(img.height));
  for (int64_t y = 0; y < img.height; ++y) rows[y] = data.data() + y * row_bytes;
  const int color_type = c == 1   ? PNG_COLOR_TYPE_GRAY
                         : c == 3 ? PNG_COLOR_TYPE_RGB
                                  : PNG_COLOR_TYPE_RGB_ALPHA;
  File file = open_for_writing(path);
  write_png_rows(file.get(), path,
                 {static_cast<png_uint_32>(img.width), static_cast<png_uint_32>(img.height),
                  wide ? 16 : 8, color_type, rows.data()});
}

void write_jpeg(const std::string& path, const Image& img, int quality) {
  check(quality >= 1 && quality <= 100, "JPEG quality must be in 1..100; got ", quality);
  check<NotImplementedError>(img.mode == "L" || img.mode == "RGB", "Cannot write mode ", img.mode,
                             " as JPEG (", path, ")");
  File file = open_for_writing(path);
  jpeg_compress_struct cinfo{};
  detail::JpegErrors errors;
  cinfo.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = detail::on_jpeg_error;
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&cinfo);
    throw IOError("Cannot write the JPEG file " + path + ": " + errors.message);
  }
  jpeg_create_compress(&cinfo);
  jpeg_stdio_dest(&cinfo, file.get());
  cinfo.image_width = static_cast<JDIMENSION>(img.width);
  cinfo.image_height = static_cast<JDIMENSION>(img.height);
  cinfo.input_components = img.channels();
  cinfo.in_color_space = img.mode == "L" ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  const size_t row_bytes = static_cast<size_t>(img.width) * img.channels();
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(img.pixels.data()) + cinfo.next_scanline * row_bytes;
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
}

void write_bmp(const std::string& path, const Image& img) {
  check<NotImplementedError>(img.mode != "I", "Cannot write mode I as BMP (", path,
                             "); use PNG, or scale the values to 0..255");
  File file = open_for_writing(path);
  auto to_file = [](void* context, void* data, int size) {
    std::fwrite(data, 1, static_cast<size_t>(size), static_cast<std::FILE*>(context));
  };
  const int ok =
      stbi_write_bmp_to_func(to_file, file.get(), static_cast<int>(img.width),
                             static_cast<int>(img.height), img.channels(), img.pixels.data());
  check<IOError>(ok != 0 && std::ferror(file.get()) == 0, "Cannot write the BMP file ", path);
}

}  // namespace

void save_image_file(const std::string& path, const Image& img, const std::string& file_format,
                     int quality) {
  if (file_format == "png") return write_png(path, img);
  if (file_format == "bmp") return write_bmp(path, img);
  if (file_format == "jpeg" || file_format == "jpg") {
    if (img.mode == "RGBA") {
      std::cerr << "Warning: The JPEG format does not support RGBA images, converting to RGB.\n";
      Image rgb{"RGB", img.height, img.width, {}, {}};
      for (size_t i = 0; i < img.pixels.size(); i += 4)
        rgb.pixels.insert(rgb.pixels.end(), &img.pixels[i], &img.pixels[i + 3]);
      return write_jpeg(path, rgb, quality);
    }
    return write_jpeg(path, img, quality);
  }
  throw ValueError("Unknown image file format \"" + file_format + "\" for " + path +
                   ": save_img writes png, jpeg (jpg) and bmp; pass file_format or use one of "
                   "these extensions");
}

}  // namespace keras::utils

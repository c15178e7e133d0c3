// Image.convert as PIL's Convert.c computes it, for the modes image files open in.

#include "keras/core/errors.h"
#include "utils/image/pil_ops.h"

namespace keras::utils::detail {
namespace {

// PIL's L24: luma with weights 0.299, 0.587, 0.114 scaled by 2^16, rounded.
uint8_t luma(const uint8_t* rgb) {
  return static_cast<uint8_t>((rgb[0] * 19595 + rgb[1] * 38470 + rgb[2] * 7471 + 0x8000) >> 16);
}

int bands_of(const std::string& mode) {
  if (mode == "L" || mode == "P") return 1;
  if (mode == "LA") return 2;
  if (mode == "RGB") return 3;
  return 4;
}

// The RGBA value of one source pixel.
std::array<uint8_t, 4> rgba_of(const RawImage& raw, const uint8_t* p) {
  if (raw.mode == "P") {
    const uint8_t* c = &raw.palette[p[0] * 4];
    return {c[0], c[1], c[2], c[3]};
  }
  if (raw.mode == "L") {
    uint8_t a = raw.color_key && (*raw.color_key)[0] == p[0] ? 0 : 255;
    return {p[0], p[0], p[0], a};
  }
  if (raw.mode == "LA") return {p[0], p[0], p[0], p[1]};
  if (raw.mode == "RGB") {
    bool keyed = raw.color_key && (*raw.color_key)[0] == p[0] && (*raw.color_key)[1] == p[1] &&
                 (*raw.color_key)[2] == p[2];
    return {p[0], p[1], p[2], static_cast<uint8_t>(keyed ? 0 : 255)};
  }
  return {p[0], p[1], p[2], p[3]};
}

}  // namespace

Image convert_raw(const RawImage& raw, const std::string& mode) {
  Image out;
  out.mode = mode;
  out.height = raw.height;
  out.width = raw.width;
  const int in_bands = bands_of(raw.mode);
  const int out_bands = bands_of(mode);
  const int64_t count = raw.height * raw.width;
  out.pixels.resize(static_cast<size_t>(count * out_bands));
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t* p = &raw.pixels[i * in_bands];
    uint8_t* q = &out.pixels[i * out_bands];
    if (mode == "L") {
      // L and LA keep their gray level; colour and palette pixels take PIL's luma.
      if (raw.mode == "L" || raw.mode == "LA")
        q[0] = p[0];
      else if (raw.mode == "P")
        q[0] = luma(&raw.palette[p[0] * 4]);
      else
        q[0] = luma(p);
    } else {
      std::array<uint8_t, 4> c = rgba_of(raw, p);
      for (int b = 0; b < out_bands; ++b) q[b] = c[b];
    }
  }
  return out;
}

}  // namespace keras::utils::detail

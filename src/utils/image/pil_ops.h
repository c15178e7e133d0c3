#pragma once
// PIL's colour conversions and Image.resize on 8-bit images, reproduced to the bit: load_img
// applies them, so keras-cpp gives Keras's pixels. Internal to keras::utils.

#include <array>

#include "keras/utils/image_utils.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {

/// Image.convert(mode) for mode "L", "RGB" or "RGBA" (L from colour by ITU-R 601-2 luma in
/// PIL's fixed point; palette through its colours; RGBA from a PNG colour key).
Image convert_raw(const RawImage& raw, const std::string& mode);

/// Image.resize((width, height), filter, box) with box = (left, top, right, bottom) in source
/// pixels. filter is "nearest", "box", "bilinear", "hamming", "bicubic" or "lanczos". RGBA
/// resizes premultiplied by alpha, as PIL does for every filter but nearest.
Image pil_resize(const Image& img, int64_t width, int64_t height, const std::string& filter,
                 const std::array<float, 4>& box);

}  // namespace keras::utils::detail

// Image.resize as Pillow computes it (Resample.c, Geometry.c, _imaging.c), for 8-bit images:
// the same support, rounding of bounds, 22-bit fixed-point coefficients, horizontal pass
// first with its intermediate 8-bit rounding; nearest neighbour by the affine walk that sums
// the step in double; RGBA premultiplied around the filters.

#include <cmath>
#include <numbers>

#include "keras/core/errors.h"
#include "utils/image/pil_ops.h"

namespace keras::utils::detail {
namespace {

constexpr int kPrecisionBits = 32 - 8 - 2;

struct Filter {
  double (*weight)(double);
  double support;
};

double box_weight(double x) {
  return (x > -0.5 && x <= 0.5) ? 1.0 : 0.0;
}
double bilinear_weight(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}
double hamming_weight(double x) {
  x = std::fabs(x);
  if (x == 0.0) return 1.0;
  if (x >= 1.0) return 0.0;
  x *= std::numbers::pi;
  return std::sin(x) / x * (0.54f + 0.46f * std::cos(x));  // float constants, as Pillow
}
double bicubic_weight(double x) {
  constexpr double a = -0.5;
  x = std::fabs(x);
  if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
  if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
  return 0.0;
}
double sinc(double x) {
  if (x == 0.0) return 1.0;
  x *= std::numbers::pi;
  return std::sin(x) / x;
}
double lanczos_weight(double x) {
  return (-3.0 <= x && x < 3.0) ? sinc(x) * sinc(x / 3) : 0.0;
}

Filter filter_named(const std::string& name) {
  if (name == "box") return {box_weight, 0.5};
  if (name == "bilinear") return {bilinear_weight, 1.0};
  if (name == "hamming") return {hamming_weight, 1.0};
  if (name == "bicubic") return {bicubic_weight, 2.0};
  if (name == "lanczos") return {lanczos_weight, 3.0};
  throw ValueError("Invalid interpolation method " + name +
                   " specified. Supported methods are nearest, bilinear, bicubic, hamming, box, "
                   "lanczos");
}

// One output position's source range [first, first + weights.size()) and fixed-point weights.
struct Taps {
  int first = 0;
  std::vector<int32_t> weights;
};

std::vector<Taps> coefficients(int in_size, float in0, float in1, int out_size, Filter filter) {
  const double scale = static_cast<double>(in1 - in0) / out_size;
  const double filterscale = scale < 1.0 ? 1.0 : scale;
  const double support = filter.support * filterscale;
  const double inv_filterscale = 1.0 / filterscale;
  std::vector<Taps> taps(static_cast<size_t>(out_size));
  for (int xx = 0; xx < out_size; ++xx) {
    const double center = in0 + (xx + 0.5) * scale;
    int xmin = static_cast<int>(center - support + 0.5);
    if (xmin < 0) xmin = 0;
    int xmax = static_cast<int>(center + support + 0.5);
    if (xmax > in_size) xmax = in_size;
    xmax -= xmin;
    std::vector<double> k(static_cast<size_t>(std::max(xmax, 0)));
    double ww = 0.0;
    for (int x = 0; x < xmax; ++x) {
      k[x] = filter.weight((x + xmin - center + 0.5) * inv_filterscale);
      ww += k[x];
    }
    Taps& t = taps[xx];
    t.first = xmin;
    for (double w : k) {
      if (ww != 0.0) w /= ww;
      const double fixed = w * (1 << kPrecisionBits);
      t.weights.push_back(static_cast<int32_t>(w < 0 ? -0.5 + fixed : 0.5 + fixed));
    }
  }
  return taps;
}

uint8_t clip8(int32_t sum) {
  const int32_t v = sum >> kPrecisionBits;
  return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}

// Rows [row0, row0 + rows) of `in` resampled along x.
Image resample_horizontal(const Image& in, int row0, int rows, const std::vector<Taps>& taps) {
  const int c = in.channels();
  Image out{in.mode, rows, static_cast<int64_t>(taps.size()), {}, {}};
  out.pixels.resize(static_cast<size_t>(rows * out.width * c));
  for (int y = 0; y < rows; ++y) {
    const uint8_t* line = &in.pixels[(row0 + y) * in.width * c];
    for (int64_t xx = 0; xx < out.width; ++xx) {
      const Taps& t = taps[xx];
      for (int b = 0; b < c; ++b) {
        int32_t sum = 1 << (kPrecisionBits - 1);
        for (size_t x = 0; x < t.weights.size(); ++x)
          sum += line[(t.first + x) * c + b] * t.weights[x];
        out.pixels[(y * out.width + xx) * c + b] = clip8(sum);
      }
    }
  }
  return out;
}

Image resample_vertical(const Image& in, const std::vector<Taps>& taps, int shift) {
  const int c = in.channels();
  Image out{in.mode, static_cast<int64_t>(taps.size()), in.width, {}, {}};
  out.pixels.resize(static_cast<size_t>(out.height * out.width * c));
  for (int64_t yy = 0; yy < out.height; ++yy) {
    const Taps& t = taps[yy];
    for (int64_t x = 0; x < in.width; ++x) {
      for (int b = 0; b < c; ++b) {
        int32_t sum = 1 << (kPrecisionBits - 1);
        for (size_t y = 0; y < t.weights.size(); ++y)
          sum += in.pixels[((t.first - shift + y) * in.width + x) * c + b] * t.weights[y];
        out.pixels[(yy * out.width + x) * c + b] = clip8(sum);
      }
    }
  }
  return out;
}

// ImagingResampleInner.
Image resample(const Image& in, int width, int height, Filter filter,
               const std::array<float, 4>& box) {
  const bool need_horizontal = width != in.width || box[0] != 0 || box[2] != width;
  const bool need_vertical = height != in.height || box[1] != 0 || box[3] != height;
  auto vertical = coefficients(static_cast<int>(in.height), box[1], box[3], height, filter);
  const int first_row = vertical.front().first;
  const int last_row = vertical.back().first + static_cast<int>(vertical.back().weights.size());
  Image current = in;
  int shift = 0;
  if (need_horizontal) {
    auto horizontal = coefficients(static_cast<int>(in.width), box[0], box[2], width, filter);
    current = resample_horizontal(in, first_row, last_row - first_row, horizontal);
    shift = first_row;
  }
  if (need_vertical) current = resample_vertical(current, vertical, shift);
  return current;
}

// ImagingScaleAffine: source x = floor(a2 + a0 * (x + 0.5)), the step added up in double.
Image nearest(const Image& in, int width, int height, const std::array<float, 4>& box) {
  const int c = in.channels();
  const double a0 = static_cast<double>(box[2] - box[0]) / width;
  const double a4 = static_cast<double>(box[3] - box[1]) / height;
  auto coord = [](double v) { return v < 0.0 ? -1 : static_cast<int>(v); };
  std::vector<int> xin(static_cast<size_t>(width), -1);
  double xo = box[0] + a0 * 0.5;
  for (int x = 0; x < width; ++x, xo += a0) {
    const int v = coord(xo);
    if (v >= 0 && v < in.width) xin[x] = v;
  }
  Image out{
      in.mode, height, width, std::vector<uint8_t>(static_cast<size_t>(width * height * c)), {}};
  double yo = box[1] + a4 * 0.5;
  for (int y = 0; y < height; ++y, yo += a4) {
    const int yi = coord(yo);
    if (yi < 0 || yi >= in.height) continue;
    for (int x = 0; x < width; ++x) {
      if (xin[x] < 0) continue;
      for (int b = 0; b < c; ++b)
        out.pixels[(y * width + x) * c + b] = in.pixels[(yi * in.width + xin[x]) * c + b];
    }
  }
  return out;
}

Image crop(const Image& in, int left, int top, int width, int height) {
  const int c = in.channels();
  Image out{
      in.mode, height, width, std::vector<uint8_t>(static_cast<size_t>(width * height * c)), {}};
  for (int y = 0; y < height; ++y)
    std::copy_n(&in.pixels[((top + y) * in.width + left) * c], width * c,
                &out.pixels[y * width * c]);
  return out;
}

// PIL's RGBA -> RGBa (MULDIV255) and back (255 * c / alpha, clipped).
void premultiply(Image& img) {
  for (size_t i = 0; i < img.pixels.size(); i += 4) {
    const unsigned alpha = img.pixels[i + 3];
    for (int b = 0; b < 3; ++b) {
      const unsigned tmp = img.pixels[i + b] * alpha + 128;
      img.pixels[i + b] = static_cast<uint8_t>(((tmp >> 8) + tmp) >> 8);
    }
  }
}
void unpremultiply(Image& img) {
  for (size_t i = 0; i < img.pixels.size(); i += 4) {
    const unsigned alpha = img.pixels[i + 3];
    if (alpha == 255 || alpha == 0) continue;
    for (int b = 0; b < 3; ++b)
      img.pixels[i + b] = static_cast<uint8_t>(std::min(255u, 255u * img.pixels[i + b] / alpha));
  }
}

}  // namespace

Image pil_resize(const Image& img, int64_t width, int64_t height, const std::string& filter,
                 const std::array<float, 4>& box) {
  check(img.mode != "I", "Resizing a 32-bit integer (mode I) image is not supported");
  check(width >= 1 && height >= 1, "height and width must be > 0; got (", height, ", ", width, ")");
  const bool whole = box[0] == 0 && box[1] == 0 && box[2] == img.width && box[3] == img.height;
  if (width == img.width && height == img.height && whole) return img;
  if (filter != "nearest") filter_named(filter);  // a bad name fails before any work
  if (img.mode == "RGBA" && filter != "nearest") {
    Image premultiplied = img;
    premultiply(premultiplied);
    Image out = pil_resize(Image{"RGBa", img.height, img.width, premultiplied.pixels, {}}, width,
                           height, filter, box);
    out.mode = "RGBA";
    unpremultiply(out);
    return out;
  }
  const int w = static_cast<int>(width), h = static_cast<int>(height);
  if (box[0] == static_cast<int>(box[0]) && box[2] - box[0] == w &&
      box[1] == static_cast<int>(box[1]) && box[3] - box[1] == h)
    return crop(img, static_cast<int>(box[0]), static_cast<int>(box[1]), w, h);
  if (filter == "nearest") return nearest(img, w, h, box);
  return resample(img, w, h, filter_named(filter), box);
}

}  // namespace keras::utils::detail

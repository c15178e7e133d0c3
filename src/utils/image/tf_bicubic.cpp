// TensorFlow's ResizeBicubic with half-pixel centres (tf.image.resize's "bicubic" without
// antialiasing): Keys' cubic (a = -0.5) read from TensorFlow's 1024-step weight table, taps
// outside the image dropped and the rest renormalized, rows interpolated along x first.

#include <cmath>

#include "utils/image/tf_image.h"

namespace keras::utils::detail {
namespace {

constexpr int kTableSize = 1024;

// TensorFlow's coefficient table: entry 2i is the weight at distance i / 1024, entry 2i + 1 at
// 1 + i / 1024.
const std::vector<float>& keys_cubic_table() {
  static const std::vector<float> table = [] {
    constexpr float a = -0.5f;
    std::vector<float> t((kTableSize + 1) * 2);
    for (int i = 0; i <= kTableSize; ++i) {
      float x = static_cast<float>(i * 1.0 / kTableSize);
      t[i * 2] = ((a + 2) * x - (a + 3)) * x * x + 1;
      x += 1.0f;
      t[i * 2 + 1] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    }
    return t;
  }();
  return table;
}

struct BicubicTaps {
  int64_t index[4];
  float weight[4];
};

BicubicTaps taps_at(int64_t out, float scale, int64_t limit) {
  const float in = (static_cast<float>(out) + 0.5f) * scale - 0.5f;
  const auto base = static_cast<int64_t>(std::floor(in));
  const auto offset =
      static_cast<int64_t>(std::lrintf((in - static_cast<float>(base)) * kTableSize));
  const std::vector<float>& table = keys_cubic_table();
  const float raw[4] = {table[offset * 2 + 1], table[offset * 2], table[(kTableSize - offset) * 2],
                        table[(kTableSize - offset) * 2 + 1]};
  BicubicTaps t{};
  float sum = 0;
  for (int k = 0; k < 4; ++k) {
    const int64_t wanted = base - 1 + k;
    t.index[k] = std::min(limit - 1, std::max<int64_t>(0, wanted));
    t.weight[k] = t.index[k] == wanted ? raw[k] : 0.0f;
    sum += t.weight[k];
  }
  if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min())
    for (float& w : t.weight) w *= 1.0f / sum;
  return t;
}

}  // namespace

Tensor tensorflow_bicubic(const Tensor& image, int64_t height, int64_t width) {
  const int64_t in_h = image.shape()[0], in_w = image.shape()[1], c = image.shape()[2];
  const std::vector<float> in = image.to_vector<float>();
  std::vector<BicubicTaps> xs, ys;
  for (int64_t x = 0; x < width; ++x)
    xs.push_back(taps_at(x, static_cast<float>(in_w) / static_cast<float>(width), in_w));
  for (int64_t y = 0; y < height; ++y)
    ys.push_back(taps_at(y, static_cast<float>(in_h) / static_cast<float>(height), in_h));
  std::vector<float> out(static_cast<size_t>(height * width * c));
  auto at = [&](int64_t row, int64_t col, int64_t ch) { return in[(row * in_w + col) * c + ch]; };
  for (int64_t y = 0; y < height; ++y)
    for (int64_t x = 0; x < width; ++x)
      for (int64_t ch = 0; ch < c; ++ch) {
        float rows[4];
        for (int k = 0; k < 4; ++k) {
          const int64_t r = ys[y].index[k];
          const BicubicTaps& t = xs[x];
          rows[k] = at(r, t.index[0], ch) * t.weight[0] + at(r, t.index[1], ch) * t.weight[1] +
                    at(r, t.index[2], ch) * t.weight[2] + at(r, t.index[3], ch) * t.weight[3];
        }
        const BicubicTaps& t = ys[y];
        out[(y * width + x) * c + ch] = rows[0] * t.weight[0] + rows[1] * t.weight[1] +
                                        rows[2] * t.weight[2] + rows[3] * t.weight[3];
      }
  return Tensor::from_vector(out, {height, width, c});
}

}  // namespace keras::utils::detail

#include "quantizers/zero_point.h"

#include <algorithm>
#include <cmath>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::quantizers::detail {

HostMatrix HostMatrix::of(const Tensor& x) {
  check(x.ndim() == 2, "Expected a 2-d matrix; got shape ", x.shape(), ".");
  HostMatrix m;
  m.rows = x.shape()[0];
  m.cols = x.shape()[1];
  m.data = ops::cast(x, DType::Float32).to_vector<float>();
  return m;
}

Tensor HostMatrix::to_tensor() const { return Tensor::from_vector(data, Shape{rows, cols}); }

HostMatrix HostMatrix::columns(int64_t begin, int64_t end) const {
  HostMatrix out(rows, end - begin);
  for (int64_t r = 0; r < rows; ++r)
    std::copy(data.begin() + r * cols + begin, data.begin() + r * cols + end,
              out.data.begin() + r * out.cols);
  return out;
}

HostMatrix HostMatrix::transposed() const {
  HostMatrix out(cols, rows);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) out(c, r) = (*this)(r, c);
  return out;
}

ZeroPointParams compute_quantization_parameters(const HostMatrix& x, int bits, bool symmetric,
                                                bool per_channel, int64_t group_size) {
  check(x.rows > 0 && x.cols > 0, "compute_quantization_parameters: the input cannot be empty.");
  const int64_t groups =
      per_channel && group_size > 0 ? (x.cols + group_size - 1) / group_size : 1;
  // Min and max per row and group (the zero padding of a short last group counts, as Keras's
  // ops.pad before the reshape), or over everything when not per channel.
  HostMatrix lo(x.rows, groups), hi(x.rows, groups);
  auto reduce = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1, bool padded) {
    float mn = x(r0, c0), mx = mn;
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t c = c0; c < c1; ++c) {
        mn = std::min(mn, x(r, c));
        mx = std::max(mx, x(r, c));
      }
    if (padded) {
      mn = std::min(mn, 0.0f);
      mx = std::max(mx, 0.0f);
    }
    return std::pair{mn, mx};
  };
  for (int64_t r = 0; r < x.rows; ++r)
    for (int64_t g = 0; g < groups; ++g) {
      std::pair<float, float> m;
      if (groups > 1) {
        const int64_t c0 = g * group_size, c1 = std::min(c0 + group_size, x.cols);
        m = reduce(r, r + 1, c0, c1, c1 - c0 < group_size);
      } else if (per_channel) {
        m = reduce(r, r + 1, 0, x.cols, false);
      } else {
        m = r == 0 ? reduce(0, x.rows, 0, x.cols, false) : std::pair{lo(0, 0), hi(0, 0)};
      }
      lo(r, g) = m.first;
      hi(r, g) = m.second;
    }
  ZeroPointParams p{HostMatrix(x.rows, groups), HostMatrix(x.rows, groups),
                    static_cast<float>((int64_t{1} << bits) - 1)};
  for (size_t i = 0; i < lo.data.size(); ++i) {
    float mn = lo.data[i], mx = hi.data[i];
    if (symmetric) {
      const float max_abs = std::max(std::fabs(mn), mx);
      if (mn < 0) mn = -max_abs;
      mx = max_abs;
    }
    if (mn == mx) {
      mn -= 1;
      mx += 1;
    }
    // range / maxq: maxq is a scalar broadcast over the ranges (when there are several).
    float scale = xla_divide(mx - mn, p.maxq, lo.data.size() > 1);
    if (scale <= 0) scale = 1e-8f;
    // Keras casts the zero point to uint8; out-of-range values (an all-positive group) are
    // clamped here.
    const float zero = symmetric ? (p.maxq + 1) / 2 : std::nearbyint(-mn / scale);
    p.scale.data[i] = scale;
    p.zero.data[i] = std::clamp(zero, 0.0f, 255.0f);
  }
  return p;
}

float quantize_with_zero_point(float x, float scale, float zero, float maxq,
                               bool broadcast_scale) {
  const float safe_scale = scale == 0 ? 1e-8f : scale;
  return std::clamp(std::nearbyint(xla_divide(x, safe_scale, broadcast_scale) + zero), 0.0f, maxq);
}

}  // namespace keras::quantizers::detail

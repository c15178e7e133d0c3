#include "quantizers/awq.h"

#include <algorithm>
#include <cmath>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::quantizers::detail {
namespace {

constexpr int kAwqBits = 4;

// Keras's levels of the scaled weights: per row and group (group_size > 0 and several groups)
// or per row, the group of input c being c / group_size.
struct Levels {
  HostMatrix q;
  ZeroPointParams params;
};

Levels quantize_levels(const HostMatrix& w, int64_t group_size) {
  Levels out{HostMatrix(w.rows, w.cols),
             compute_quantization_parameters(w, kAwqBits, /*symmetric=*/false,
                                             /*per_channel=*/true, group_size)};
  const bool grouped = group_size != -1;
  for (int64_t r = 0; r < w.rows; ++r)
    for (int64_t c = 0; c < w.cols; ++c) {
      // Keras takes scale[:, c // group_size] (one column when the inputs fit in one group).
      const int64_t g = grouped ? std::min(c / group_size, out.params.scale.cols - 1) : 0;
      // Per channel Keras divides by the (rows, 1) scale broadcast over the inputs; in groups
      // by a gathered scale of x's own shape.
      out.q(r, c) = quantize_with_zero_point(w(r, c), out.params.scale(r, g),
                                             out.params.zero(r, g), out.params.maxq,
                                             !grouped && w.cols > 1);
    }
  return out;
}

}  // namespace

std::vector<float> awq_search_optimal_scales(const HostMatrix& weights,
                                             const std::vector<float>& activation_magnitudes,
                                             int64_t num_grid_points, int64_t group_size) {
  const int64_t in = weights.cols;
  std::vector<float> x_max = activation_magnitudes;
  for (float& v : x_max)
    if (v < 1e-8f) v = 1.0f;
  std::vector<float> best(static_cast<size_t>(in), 1.0f);
  float best_loss = 0;
  for (int64_t i = 0; i <= num_grid_points; ++i) {
    const double ratio = static_cast<double>(i) / static_cast<double>(num_grid_points);
    std::vector<float> scales(static_cast<size_t>(in));
    for (int64_t c = 0; c < in; ++c) {
      const float s = ratio == 0 ? 1.0f
                                 : std::pow(x_max[static_cast<size_t>(c)], static_cast<float>(ratio));
      scales[static_cast<size_t>(c)] = std::max(s, 1e-4f);
    }
    const auto [mn, mx] = std::minmax_element(scales.begin(), scales.end());
    const float mean = std::max(std::sqrt(*mx * *mn), 1e-8f);
    for (float& s : scales) s = xla_divide(s, mean, in > 1);
    HostMatrix scaled = weights;
    for (int64_t r = 0; r < weights.rows; ++r)
      for (int64_t c = 0; c < in; ++c) scaled(r, c) *= scales[static_cast<size_t>(c)];
    const Levels levels = quantize_levels(scaled, group_size);
    // mean((w - dequantized / scales)^2 * x_max^2)
    double sum = 0;
    const bool grouped = group_size != -1;
    for (int64_t r = 0; r < weights.rows; ++r)
      for (int64_t c = 0; c < in; ++c) {
        const int64_t g = grouped ? std::min(c / group_size, levels.params.scale.cols - 1) : 0;
        const float deq = dequantize_with_zero_point(levels.q(r, c), levels.params.scale(r, g),
                                                     levels.params.zero(r, g));
        const float diff = weights(r, c) - xla_divide(deq, scales[static_cast<size_t>(c)], true);
        const float xm = x_max[static_cast<size_t>(c)];
        sum += static_cast<double>(diff * diff * (xm * xm));
      }
    const float loss = static_cast<float>(sum / static_cast<double>(weights.rows * in));
    if (i == 0 || loss < best_loss) {
      best_loss = loss;
      best = scales;
    }
  }
  return best;
}

CalibratedMatrix awq_quantize_matrix(const HostMatrix& weights_transpose,
                                     const std::vector<float>& activation_magnitudes,
                                     int64_t num_grid_points, int64_t group_size) {
  const int64_t out = weights_transpose.rows, in = weights_transpose.cols;
  const std::vector<float> scales = awq_search_optimal_scales(
      weights_transpose, activation_magnitudes, num_grid_points, group_size);
  HostMatrix scaled = weights_transpose;
  for (int64_t r = 0; r < out; ++r)
    for (int64_t c = 0; c < in; ++c) scaled(r, c) *= scales[static_cast<size_t>(c)];
  const Levels levels = quantize_levels(scaled, group_size);
  std::vector<float> g_idx(static_cast<size_t>(in), 0.0f);
  if (group_size != -1)
    for (int64_t c = 0; c < in; ++c)
      g_idx[static_cast<size_t>(c)] = static_cast<float>(c / group_size);
  auto to_uint8 = [](const HostMatrix& m) {
    std::vector<uint8_t> v(m.data.begin(), m.data.end());
    return Tensor::from_vector(v, Shape{m.rows, m.cols});
  };
  return {to_uint8(levels.q), levels.params.scale.to_tensor(), to_uint8(levels.params.zero),
          Tensor::from_vector(g_idx, Shape{in}), Tensor::from_vector(scales, Shape{in})};
}

void AwqLayerState::update(const Tensor& inputs) {
  const int64_t rows = static_cast<int64_t>(magnitudes_.size());
  // As Keras's hook: the input read as rows of `rows` features (see GptqLayerState::update).
  check(inputs.size() > 0 && inputs.size() % rows == 0, "AWQ: expected a non-empty input whose "
        "size is a multiple of ", rows, " features; got shape ", inputs.shape(), ".");
  const std::vector<float> x = ops::cast(inputs, DType::Float32).to_vector<float>();
  for (size_t i = 0; i < x.size(); ++i) {
    float& m = magnitudes_[i % magnitudes_.size()];
    m = std::max(m, std::fabs(x[i]));
  }
}

CalibratedMatrix AwqLayerState::quantize(const Tensor& kernel, int64_t num_grid_points,
                                         int64_t group_size) const {
  return awq_quantize_matrix(HostMatrix::of(kernel).transposed(), magnitudes_, num_grid_points,
                             group_size);
}

}  // namespace keras::quantizers::detail

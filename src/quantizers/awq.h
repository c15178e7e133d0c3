#pragma once
// AWQ as Keras 3.15 runs it (keras/src/quantizers/awq.py): per input, the largest |x| of the
// calibration inputs; a grid search of scales = x_max^ratio (ratio in 0, 1/n, ..., 1, each
// normalised by the square root of its largest times its smallest) for the least
// activation-weighted error of 4-bit asymmetric quantization of the scaled kernel; then that
// quantization. Host float32 loops in the order of Keras's ops.

#include <cstdint>
#include <vector>

#include "keras/tensor/tensor.h"
#include "quantizers/gptq.h"

namespace keras::quantizers::detail {

/// awq_search_optimal_scales(weights (out, in), activation_magnitudes (in,), ...).
std::vector<float> awq_search_optimal_scales(const HostMatrix& weights,
                                             const std::vector<float>& activation_magnitudes,
                                             int64_t num_grid_points, int64_t group_size);

/// awq_quantize_matrix: the levels, scale, zero, awq_scales and g_idx (the group of each input
/// as float32; zeros with group_size -1).
CalibratedMatrix awq_quantize_matrix(const HostMatrix& weights_transpose,
                                     const std::vector<float>& activation_magnitudes,
                                     int64_t num_grid_points, int64_t group_size);

/// Keras's AWQ object of one layer: the running max |x| per input, then the quantization.
class AwqLayerState {
 public:
  explicit AwqLayerState(int64_t rows) : magnitudes_(static_cast<size_t>(rows), 0.0f) {}
  /// update_activation_magnitudes: `inputs` of any rank, its last axis `rows`.
  void update(const Tensor& inputs);
  const std::vector<float>& magnitudes() const { return magnitudes_; }
  CalibratedMatrix quantize(const Tensor& kernel, int64_t num_grid_points,
                            int64_t group_size) const;

 private:
  std::vector<float> magnitudes_;
};

}  // namespace keras::quantizers::detail

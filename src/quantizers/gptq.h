#pragma once
// GPTQ as Keras 3.15 runs it (keras/src/quantizers/gptq.py): a layer's Hessian from the
// inputs of its calls, then its kernel quantized column by column, each column's rounding
// error spread over the columns not yet quantized through the inverse Hessian, in blocks of
// 128 columns. Host float32 loops in the order of Keras's ops.

#include <cstdint>

#include "keras/tensor/tensor.h"
#include "quantizers/zero_point.h"

namespace keras::quantizers::detail {

/// GPTQConfig's numbers that the quantization itself reads.
struct GptqSettings {
  int weight_bits = 4;
  bool per_channel = true;
  bool symmetric = false;
  int64_t group_size = 128;
  bool activation_order = false;
  double hessian_damping = 0.01;
  int64_t blocksize = 128;
};

/// A calibrated kernel in Keras's layout: `quantized` (out, in) uint8 levels, `scale` float32
/// and `zero` uint8 (out, groups), `g_idx` float32 (in,) (GPTQ: position / group_size, whose
/// integer part is the group; AWQ: the group), `awq_scales` float32 (in,) for AWQ only.
struct CalibratedMatrix {
  Tensor quantized, scale, zero, g_idx, awq_scales;
};

/// gptq_quantize_matrix(weights_transpose (out, in), inv_hessian (in, in), ...): with
/// activation_order the columns go in the order of `order_metric` (largest first; Keras's
/// default metric is 1 / diag(inv_hessian)).
CalibratedMatrix gptq_quantize_matrix(const HostMatrix& weights_transpose,
                                      const HostMatrix& inv_hessian, const GptqSettings& settings,
                                      std::vector<float> order_metric = {});

/// Keras's GPTQ object of one layer: the running Hessian 2/n X^T X of its inputs, then the
/// quantization of its kernel.
class GptqLayerState {
 public:
  explicit GptqLayerState(int64_t rows) : rows_(rows), hessian_(rows, rows) {}
  /// update_hessian_with_batch: `inputs` of any rank, its last axis `rows`.
  void update(const Tensor& inputs);
  const HostMatrix& hessian() const { return hessian_; }
  /// quantize_and_correct_layer: the kernel (in, out) quantized with the Hessian damped.
  CalibratedMatrix quantize(const Tensor& kernel, const GptqSettings& settings) const;

 private:
  int64_t rows_;
  HostMatrix hessian_;
  int64_t num_samples_ = 0;
};

/// The inverse of a square matrix (the backend's float32 LU, as Keras's linalg.inv); ValueError
/// when singular.
HostMatrix inverse(const HostMatrix& m);

}  // namespace keras::quantizers::detail

#pragma once
// Keras's asymmetric/symmetric zero-point quantization of GPTQ and AWQ
// (keras/src/quantizers/quantizers.py: compute_quantization_parameters,
// quantize_with_zero_point, dequantize_with_zero_point), on host float32 matrices in the order
// of Keras's float32 ops, so the integer levels match Keras's.

#include <cstdint>
#include <vector>

#include "keras/tensor/tensor.h"

namespace keras::quantizers::detail {

/// A row-major float32 matrix on the host.
struct HostMatrix {
  int64_t rows = 0, cols = 0;
  std::vector<float> data;

  HostMatrix() = default;
  HostMatrix(int64_t r, int64_t c, float fill = 0.0f)
      : rows(r), cols(c), data(static_cast<size_t>(r * c), fill) {}
  float& operator()(int64_t r, int64_t c) { return data[static_cast<size_t>(r * cols + c)]; }
  float operator()(int64_t r, int64_t c) const { return data[static_cast<size_t>(r * cols + c)]; }
  /// A 2-D tensor's values as float32.
  static HostMatrix of(const Tensor& x);
  Tensor to_tensor() const;
  /// The columns [begin, end).
  HostMatrix columns(int64_t begin, int64_t end) const;
  HostMatrix transposed() const;
};

/// Per row and group: w ~ scale * (q - zero), q in [0, maxq].
struct ZeroPointParams {
  HostMatrix scale;  ///< (rows, groups)
  HostMatrix zero;   ///< (rows, groups), whole numbers in [0, 255] (Keras casts them to uint8)
  float maxq = 0;
};

/// compute_quantization_parameters(x, bits, symmetric, per_channel, group_size): groups of
/// `group_size` columns when per_channel and group_size > 0 and there are several (the last
/// padded with zeros, which count in its min and max), else one per row (per_channel) or one
/// for the whole matrix, repeated for every row.
ZeroPointParams compute_quantization_parameters(const HostMatrix& x, int bits, bool symmetric,
                                                bool per_channel, int64_t group_size);

/// round(x / scale + zero) clipped to [0, maxq] (a zero scale taken as 1e-8), half to even.
/// `broadcast_scale`: the scale was broadcast against x in Keras's op, where XLA divides by
/// multiplying with the reciprocal (see xla_divide).
float quantize_with_zero_point(float x, float scale, float zero, float maxq,
                               bool broadcast_scale = false);

/// a / b as Keras's float32 op computes it under JAX: XLA rewrites a division whose divisor is
/// broadcast (a scalar or a smaller array) as a * (1 / b), which can differ from a / b in the
/// last bit and so move a level across a rounding boundary; a same-shape division is exact.
inline float xla_divide(float a, float b, bool broadcast) {
  return broadcast ? a * (1.0f / b) : a / b;
}
/// scale * (q - zero).
inline float dequantize_with_zero_point(float q, float scale, float zero) {
  return scale * (q - zero);
}

}  // namespace keras::quantizers::detail

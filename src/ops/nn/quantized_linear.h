#pragma once
// The int8 forward of a quantized Dense (Keras's _int8_call) in two backend calls where the
// backend has QuantizedMatmul: the inputs quantized per row in one pass, then the int8 GEMM
// with the dequantization, bias and activation as its epilogue. Keras's formulas, the same
// float32 roundings; the layers stay plain `call`s on ops and the choice lives here.

#include <optional>
#include <utility>

#include "keras/activations/activation.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// The range and epsilon of an AbsMaxQuantizer with int8 output.
struct Int8QuantizerSpec {
  float lo = -127.0f, hi = 127.0f, epsilon = 1e-7f;

  /// From an AbsMaxQuantizer's value_range and epsilon (Keras's Python floats, weakly typed:
  /// float32 in the arithmetic).
  static Int8QuantizerSpec of(std::pair<double, double> value_range, double epsilon) {
    return {static_cast<float>(value_range.first), static_cast<float>(value_range.second),
            static_cast<float>(epsilon)};
  }
};

/// Keras's abs_max_quantize of x along its last axis: {values int8 (x's shape), scale float32
/// (x's shape with last extent 1)} in one backend pass, or nullopt where the fused kernel does
/// not apply (x not float32, the backend lacks QuantizedMatmul, or gradients are being
/// recorded for x: the ops path keeps the scale's gradient).
std::optional<std::pair<Tensor, Tensor>> quantize_rows_int8(const Tensor& x,
                                                            const Int8QuantizerSpec& spec);

/// activation(x @ kernel / (kernel_scale * inputs_scale) + bias) with x (..., K) float32
/// quantized per row by `spec`, kernel (K, N) int8, kernel_scale (N) and bias (N) float32 (bias
/// may be undefined): the fused path, differentiable for x and bias as Keras's custom gradient
/// (dx through the dequantized kernel). An undefined tensor where it does not apply.
Tensor quantized_linear(const Tensor& x, const Tensor& kernel, const Tensor& kernel_scale,
                        const Tensor& bias, const activations::Activation& activation,
                        const Int8QuantizerSpec& spec);

}  // namespace keras::ops::detail

#pragma once
// Keras's _analyze_quantization_info (keras/src/layers/core/einsum_dense.py): for an EinsumDense
// equation, the axes the int8 quantizers reduce over and how a scale (with kept dims) is
// transposed, expanded and squeezed to broadcast against the einsum's output.

#include <string>
#include <vector>

#include "keras/core/shape.h"
#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// How one operand's scale maps onto the output.
struct ScaleLayout {
  std::vector<int> reduced;    ///< the operand's axes whose labels are not in the output
  std::vector<int> transpose;  ///< permutation of the scale's axes
  std::vector<int> expand;     ///< output axes the operand lacks (expand_dims after transpose)
  std::vector<int> squeeze;    ///< axes squeezed after that
};

struct EinsumQuantizationInfo {
  ScaleLayout input, kernel;
  /// "<output>,<kernel>-><input>": the inputs' gradient from the upstream gradient.
  std::string gradient_equation;
};

/// The analysis of `equation` for inputs of rank `input_rank`; ValueError for an equation that
/// is not [X],[Y]->[Z], ...[X],[Y]->...[Z] or [X]...,[Y]->[Z]... (Keras's message), TypeError
/// for one with "..." (Keras 3.15 fails on those; the elision code is kept for when it does not).
EinsumQuantizationInfo analyze_einsum_quantization(const std::string& equation, int input_rank);

/// A scale with kept dims laid out for the output (Keras's _adjust_scale_for_quant).
Tensor scale_for_output(const Tensor& scale, const ScaleLayout& layout);
/// The reverse: a stored kernel scale back to the kernel's axes (_adjust_scale_for_dequant).
Tensor scale_for_kernel(const Tensor& scale, const ScaleLayout& layout);
/// The shape of the stored kernel_scale for a kernel of `kernel_shape` (_get_kernel_scale_shape
/// without block size).
Shape kernel_scale_shape(const Shape& kernel_shape, const ScaleLayout& layout);

}  // namespace keras::layers::detail

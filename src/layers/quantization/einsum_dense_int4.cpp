// int4 EinsumDense (keras/src/layers/core/einsum_dense.py: _int4_build, _int4_call,
// quantize("int4")). As Keras, the kernel is reshaped (not transposed) to (rows, columns),
// rows = the product of the equation's reduced kernel axes, columns = the rest, then quantized
// like a Dense kernel and packed along the columns: kernel (rows, ceil(columns / 2)) int8,
// kernel_scale (columns,) per channel, or kernel_scale and kernel_zero (ceil(rows / block_size),
// columns) and g_idx (rows,) with blocks. Each call dequantizes the kernel to its float shape
// and runs the float einsum.

#include <algorithm>

#include "keras/layers/core/einsum_dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/einsum_quantization_info.h"
#include "layers/quantization/int4_layer.h"
#include "layers/quantization/lora_requantize.h"
#include "layers/quantization/quantized_layer.h"

namespace keras::layers {
namespace {

struct FlatKernel {
  int64_t rows = 1, columns = 1;
};

// Keras's flattening: the reduced axes' extents multiply into rows, the others into columns.
FlatKernel flatten_kernel(const Shape& kernel_shape, const std::vector<int>& reduced) {
  FlatKernel flat;
  for (int i = 0; i < kernel_shape.rank(); ++i) {
    const bool is_reduced = std::find(reduced.begin(), reduced.end(), i) != reduced.end();
    (is_reduced ? flat.rows : flat.columns) *= kernel_shape[static_cast<size_t>(i)];
  }
  return flat;
}

}  // namespace

void EinsumDenseLayer::int4_build(const Shape& kernel_shape) {
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const FlatKernel flat = flatten_kernel(kernel_shape, info.kernel.reduced);
  const int64_t block_size = detail::int4_block_size(*this, options_.quantization_config);
  int4_kernel_shape_ = kernel_shape;
  kernel_ = add_weight({.shape = {flat.rows, (flat.columns + 1) / 2},
                        .initializer = "zeros",
                        .trainable = false,
                        .dtype = DType::Int8,
                        .name = "kernel"});
  const Shape scale_shape =
      block_size > 0 ? Shape{detail::int4_groups(flat.rows, block_size), flat.columns}
                     : Shape{flat.columns};
  kernel_scale_ = add_weight(
      {.shape = scale_shape, .initializer = "ones", .trainable = false, .name = "kernel_scale"});
  if (block_size <= 0) return;
  kernel_zero_ = add_weight({.shape = scale_shape,
                             .initializer = "zeros",
                             .trainable = false,
                             .dtype = DType::Int8,
                             .name = "kernel_zero"});
  g_idx_ = add_weight({.shape = {flat.rows},
                       .initializer = "zeros",
                       .trainable = false,
                       .dtype = DType::Float32,
                       .name = "g_idx"});
  g_idx_.assign(quantizers::group_index(flat.rows, block_size));
}

Tensor EinsumDenseLayer::int4_kernel() const {
  const int64_t columns = kernel_scale_.shape()[kernel_scale_.shape().rank() - 1];
  return ops::reshape(quantizers::unpack_int4(kernel_.value(), columns, -1), int4_kernel_shape_);
}

Tensor EinsumDenseLayer::int4_call(const Tensor& inputs) {
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const Tensor x = autocast(inputs);
  const DType dtype = compute_dtype();
  const Tensor float_kernel = int4_dequantized_kernel();
  // An activation quantizer from the config applies per channel only (as Keras).
  const std::optional<quantizers::AbsMaxQuantizer> inputs_quantizer =
      kernel_zero_.defined()
          ? std::nullopt
          : detail::inputs_quantizer(options_.quantization_config, "int4");
  auto forward = [&](const Tensor& in) {
    if (!inputs_quantizer) return ops::einsum(equation_, in, float_kernel);
    quantizers::Quantized qi = (*inputs_quantizer)(in, ops::Axes(info.input.reduced));
    Tensor product = ops::einsum(equation_, ops::cast(qi.values, dtype), float_kernel);
    return ops::cast(product, dtype) / detail::scale_for_output(qi.scale, info.input);
  };
  Tensor y = detail::with_inputs_gradient(x, forward, [&] {
    return [float_kernel, info](const Tensor& upstream) {
      return ops::einsum(info.gradient_equation, upstream, float_kernel);
    };
  });
  return quantized_output(y, x);
}

Tensor EinsumDenseLayer::int4_dequantized_kernel() const {
  const int64_t columns = kernel_scale_.shape()[kernel_scale_.shape().rank() - 1];
  const Tensor unpacked = quantizers::unpack_int4(kernel_.value(), columns, -1);
  // Keras's _dequantize_kernel: flat (rows, columns), then the kernel's shape.
  const Tensor dequantized =
      kernel_zero_.defined()
          ? quantizers::dequantize_with_sz_map(unpacked, kernel_scale_.value(),
                                               kernel_zero_.value(), g_idx_.value(), 0)
          : ops::cast(unpacked, compute_dtype()) / kernel_scale_.value();
  return ops::reshape(ops::cast(dequantized, compute_dtype()), int4_kernel_shape_);
}

std::vector<std::pair<Variable, Tensor>> EinsumDenseLayer::int4_lora_requantized() const {
  // Keras: dequantized in the kernel's shape, the update added, flattened to (rows, columns)
  // again and quantized as a Dense kernel.
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const FlatKernel flat = flatten_kernel(int4_kernel_shape_, info.kernel.reduced);
  const Tensor merged = ops::reshape(int4_dequantized_kernel() + lora_update(),
                                     {flat.rows, flat.columns});
  const detail::RequantizedKernel q = detail::requantize_merged_kernel(
      merged, "int4", detail::int4_block_size(*this, options_.quantization_config));
  std::vector<std::pair<Variable, Tensor>> out{{kernel_, q.values}, {kernel_scale_, q.scale}};
  if (q.zero.defined()) out.emplace_back(kernel_zero_, q.zero);
  return out;
}

void EinsumDenseLayer::int4_quantize(const quantizers::QuantizationConfigPtr& config) {
  const auto info = detail::analyze_einsum_quantization(equation_, input_rank_);
  const Shape kernel_shape = kernel_.shape();
  const FlatKernel flat = flatten_kernel(kernel_shape, info.kernel.reduced);
  const int64_t block_size = detail::int4_block_size(*config);
  // Keras's EinsumDense ignores a config's weight_quantizer here (Dense uses it).
  const detail::Int4Kernel q = detail::quantize_int4_kernel(
      ops::reshape(kernel_.value(), {flat.rows, flat.columns}), block_size,
      quantizers::AbsMaxQuantizer{.axis = std::vector{0}, .value_range = {-8, 7}});
  remove_weight(kernel_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), detail::int4_policy_mode(block_size)));
  quantized_build(kernel_shape);
  kernel_.assign(q.packed);
  kernel_scale_.assign(q.scale);
  if (q.zero.defined()) kernel_zero_.assign(q.zero);
}

}  // namespace keras::layers

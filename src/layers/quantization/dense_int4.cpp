// int4 Dense (keras/src/layers/core/dense.py: _int4_build, _int4_call, quantize("int4")):
// the kernel's int4 values packed two per byte along the units axis, (input_dim,
// ceil(units / 2)) int8, with
//   per channel (block_size None or -1): kernel_scale (units,), kernel = round(w * scale);
//   sub-channel (block_size > 0): kernel_scale and kernel_zero (ceil(input_dim / block_size),
//     units), g_idx (input_dim,) = each input row's group, w ~ (kernel - zero) * scale.

#include "keras/layers/core/dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/int4_layer.h"
#include "layers/quantization/quantized_layer.h"
#include "ops/nn/int4_matmul.h"

namespace keras::layers {

void DenseLayer::int4_build(const Shape& kernel_shape) {
  const int64_t input_dim = kernel_shape[0];
  const int64_t block_size = detail::int4_block_size(*this, options_.quantization_config);
  kernel_ = add_weight({.shape = {input_dim, (units_ + 1) / 2},
                        .initializer = "zeros",
                        .trainable = false,
                        .dtype = DType::Int8,
                        .name = "kernel"});
  const Shape scale_shape = block_size > 0
                                ? Shape{detail::int4_groups(input_dim, block_size), units_}
                                : Shape{units_};
  kernel_scale_ = add_weight(
      {.shape = scale_shape, .initializer = "ones", .trainable = false, .name = "kernel_scale"});
  if (block_size <= 0) return;
  kernel_zero_ = add_weight({.shape = scale_shape,
                             .initializer = "zeros",
                             .trainable = false,
                             .dtype = DType::Int8,
                             .name = "kernel_zero"});
  g_idx_ = add_weight({.shape = {input_dim},
                       .initializer = "zeros",
                       .trainable = false,
                       .dtype = DType::Float32,
                       .name = "g_idx"});
  g_idx_.assign(quantizers::group_index(input_dim, block_size));
}

Tensor DenseLayer::int4_kernel() const { return quantizers::unpack_int4(kernel_.value(), units_, -1); }

Tensor DenseLayer::int4_call(const Tensor& inputs) {
  const Tensor x = autocast(inputs);
  const DType dtype = compute_dtype();
  const int64_t units = units_;
  const Tensor packed = kernel_.value(), kernel_scale = kernel_scale_.value();
  const Tensor zero = kernel_zero_.defined() ? kernel_zero_.value() : Tensor();
  const Tensor g_idx = kernel_zero_.defined() ? g_idx_.value() : Tensor();
  // The float kernel, for the ops path and the gradient (by value: a gradient may run after
  // this call has returned).
  auto float_kernel = [packed, units, kernel_scale, zero, g_idx, dtype] {
    return detail::dequantize_int4_kernel(packed, units, kernel_scale, zero, g_idx, dtype);
  };
  // Per channel, as Keras: the float inputs times the int4 values, divided by kernel_scale;
  // with an activation quantizer in the config, int8 inputs and an int32 product instead.
  // Sub-channel, as Keras: the inputs times the dequantized kernel (Keras ignores any inputs
  // quantizer there; its config cannot hold one).
  const std::optional<quantizers::AbsMaxQuantizer> inputs_quantizer =
      zero.defined() ? std::nullopt
                     : detail::inputs_quantizer(options_.quantization_config, "int4");
  auto forward = [&](const Tensor& in) {
    if (inputs_quantizer) {
      quantizers::Quantized qi = (*inputs_quantizer)(in, -1);
      return ops::cast(ops::matmul(qi.values, int4_kernel()), dtype) / (kernel_scale * qi.scale);
    }
    // The backend's int4 GEMM where it has one (the kernel unpacked panel by panel).
    if (Tensor y = ops::detail::int4_matmul(in, packed, units, kernel_scale, zero, g_idx);
        y.defined())
      return y;
    if (!zero.defined())
      return ops::matmul(in, ops::cast(int4_kernel(), dtype)) / kernel_scale;
    return ops::matmul(in, float_kernel());
  };
  const Tensor y = detail::with_inputs_gradient(x, forward, [&] {
    return [float_kernel](const Tensor& upstream) {
      return ops::matmul(upstream, ops::transpose(float_kernel()));
    };
  });
  return quantized_output(y, x);
}

void DenseLayer::int4_quantize(const quantizers::QuantizationConfigPtr& config) {
  const Shape kernel_shape = kernel_.shape();
  const int64_t block_size = detail::int4_block_size(*config);
  const detail::Int4Kernel q = detail::quantize_int4_kernel(
      kernel_.value(), block_size,
      config->weight_quantizer.value_or(
          quantizers::AbsMaxQuantizer{.axis = std::vector{0}, .value_range = {-8, 7}}));
  remove_weight(kernel_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), detail::int4_policy_mode(block_size)));
  quantized_build(kernel_shape);
  kernel_.assign(q.packed);
  kernel_scale_.assign(q.scale);
  if (q.zero.defined()) kernel_zero_.assign(q.zero);
}

}  // namespace keras::layers

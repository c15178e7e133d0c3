#include "ops/nn/quantized_linear.h"

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/epilogue.h"

namespace keras::ops::detail {
namespace {

bool on(const Tensor& t, const Backend& be) { return !t.defined() || &t.backend() == &be; }

bool is_vector_of(const Tensor& t, int64_t n) {
  return t.dtype() == DType::Float32 && t.ndim() == 1 && t.shape()[0] == n && t.is_contiguous();
}

// Keras's abs_max_quantize of each row of a (rows, k) matrix: (int8 values, float32 scale per
// row), in one backend call.
std::pair<Tensor, Tensor> quantize_matrix_rows(const Tensor& rows, const Int8QuantizerSpec& spec,
                                               Backend& be) {
  Tensor q = empty(rows.shape(), DType::Int8, be);
  Tensor scale = empty({rows.shape()[0]}, DType::Float32, be);
  be.quantize_rows_int8(q.array(), scale.array(), rows.array(), spec.lo, spec.hi, spec.epsilon);
  return {q, scale};
}

}  // namespace

std::optional<std::pair<Tensor, Tensor>> quantize_rows_int8(const Tensor& x,
                                                            const Int8QuantizerSpec& spec) {
  Backend& be = x.backend();
  if (x.dtype() != DType::Float32 || x.ndim() == 0 || autograd::should_record(x) ||
      !backend::use_fused(be, backend::Capability::QuantizedMatmul))
    return std::nullopt;
  const auto [q, scale] = quantize_matrix_rows(as_matrix_rows(x), spec, be);
  Shape scale_shape = x.shape();
  scale_shape[scale_shape.size() - 1] = 1;
  return std::pair{reshape(q, x.shape()), reshape(scale, scale_shape)};
}

Tensor quantized_linear(const Tensor& x, const Tensor& kernel, const Tensor& kernel_scale,
                        const Tensor& bias, const activations::Activation& activation,
                        const Int8QuantizerSpec& spec) {
  Backend& be = x.backend();
  if (x.dtype() != DType::Float32 || x.ndim() == 0 || kernel.dtype() != DType::Int8 ||
      kernel.ndim() != 2 || !kernel.is_contiguous() || x.shape().back() != kernel.shape()[0])
    return Tensor();
  const int64_t n = kernel.shape()[1];
  if (!is_vector_of(kernel_scale, n) || (bias.defined() && !is_vector_of(bias, n)) ||
      !on(kernel, be) || !on(kernel_scale, be) || !on(bias, be) ||
      !backend::use_fused(be, backend::Capability::QuantizedMatmul))
    return Tensor();
  const std::optional<backend::Activation> fused = fusable_activation(activation);
  const backend::Activation act = fused.value_or(backend::Activation::None);

  const Tensor rows = as_matrix_rows(x);
  const auto [q, inputs_scale] = quantize_matrix_rows(rows, spec, be);
  Tensor out = empty({rows.shape()[0], n}, DType::Float32, be);
  be.int8_linear(out.array(), q.array(), kernel.array(), inputs_scale.array(),
                 kernel_scale.array(), bias.defined() ? bias.array() : backend::Array{}, act);
  if (autograd::should_record(rows, bias)) {
    // Keras's custom gradient: the rounding passes the gradient straight through, the kernel
    // and its scale get none.
    autograd::record("quantized_linear", {rows, bias}, out,
                     [kernel, kernel_scale, act, has_bias = bias.defined()](
                         const autograd::Context& ctx, const Tensor& g) {
                       EpilogueGrad e = bias_activation_grad(ctx.output(), g, act,
                                                             has_bias && ctx.needs_input_grad(1));
                       Tensor float_kernel = cast(kernel, DType::Float32) / kernel_scale;
                       return TensorList{ctx.needs_input_grad(0)
                                             ? matmul(e.dz, transpose(float_kernel))
                                             : Tensor(),
                                         e.db};
                     });
  }
  Shape out_shape = x.shape();
  out_shape[out_shape.size() - 1] = n;
  Tensor y = reshape(out, out_shape);
  return fused ? y : activation(y);
}

}  // namespace keras::ops::detail

// EinsumDense in float8 mode (keras/src/layers/core/einsum_dense.py: quantize("float8"),
// _float8_build, _float8_call): the float kernel, fake-quantized per call (float8_layer.h).

#include "keras/layers/core/einsum_dense.h"
#include "keras/ops/ops.h"
#include "layers/quantization/float8_layer.h"
#include "layers/quantization/quantized_layer.h"

namespace keras::layers {

Tensor EinsumDenseLayer::float8_call(const Tensor& inputs, bool training) {
  Tensor y = detail::float8_product(
      *this, float8_, ops::cast(inputs, compute_dtype()), kernel_.value(), training,
      lora_enabled(),
      [this](const Tensor& x, const Tensor& k) { return ops::einsum(equation_, x, k); });
  if (bias_.defined()) y = ops::add(y, detail::float8_bias(*this, bias_));
  return options_.activation(y);
}

void EinsumDenseLayer::float8_quantize(const quantizers::QuantizationConfigPtr& config) {
  // Keras keeps the float kernel and bias and adds the scales and histories after them.
  options_.quantization_config = config;
  float8_ = detail::add_float8_variables(*this);
  set_dtype_policy(detail::quantized_policy(dtype_policy(), "float8"));
}

}  // namespace keras::layers

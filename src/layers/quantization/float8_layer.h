#pragma once
// What float8 Dense and EinsumDense share (keras/src/layers/core/dense.py and einsum_dense.py:
// _float8_build, _float8_call): fake-quantized training with delayed scaling. The layer keeps
// its float kernel; each call quantize-dequantizes the inputs and the kernel in e4m3fn and the
// outputs' gradient in e5m2, and, when training, hands the new scales and amax histories to the
// optimizer as the "gradients" of those variables (overwrite_with_gradient).

#include <functional>
#include <vector>

#include "keras/layers/layer.h"
#include "keras/quantizers/float8.h"

namespace keras::layers::detail {

/// Keras's _float8_build: the six variables, added to `layer` in Keras's order, with the
/// policy's amax_history_length (1024 for a policy that is not float8).
quantizers::Float8Variables add_float8_variables(Layer& layer);

/// product(qdq(inputs), qdq(kernel)) with the outputs' gradient quantize-dequantized, as
/// Keras's _float8_call up to the bias. NotImplementedError when `lora_enabled` (Keras:
/// "Currently, `_float8_call` doesn't support LoRA").
Tensor float8_product(const Layer& layer, const quantizers::Float8Variables& v,
                      const Tensor& inputs, const Tensor& kernel, bool training,
                      bool lora_enabled,
                      const std::function<Tensor(const Tensor&, const Tensor&)>& product);

/// The bias as Keras adds it in float8 mode: rounded through bfloat16 under a float32 compute
/// dtype (Keras does it to get XLA's bias-add fusion; the rounding is part of the numbers).
Tensor float8_bias(const Layer& layer, const Variable& bias);

/// Keras's variable_serialization_spec["float8"]: kernel, bias (when there is one), then the
/// six float8 variables.
std::vector<Variable> float8_saved_variables(const Variable& kernel, const Variable& bias,
                                             const quantizers::Float8Variables& v);

}  // namespace keras::layers::detail

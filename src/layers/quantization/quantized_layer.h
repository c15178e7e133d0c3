#pragma once
// What the quantized layers (Dense, EinsumDense, Embedding) share: Keras's checks and the
// policy and quantizers that follow from a mode and a config.

#include <optional>
#include <string>

#include "keras/autograd/node.h"
#include "keras/layers/layer.h"
#include "keras/ops/ops.h"

namespace keras::layers::detail {

/// NotImplementedError unless the layer is exactly `keras_class` (Keras's type_check: a
/// subclass may hold other weights that quantize() would not know of).
void require_exact_class(const Layer& layer, const char* keras_class);
/// NotImplementedError for a mode keras-cpp does not implement for this layer yet.
void require_implemented_mode(const Layer& layer, const std::string& mode);
/// "<mode>_from_<source>" for a layer whose float policy is `policy`.
DTypePolicy quantized_policy(const DTypePolicy& policy, const std::string& mode);
/// The quantizer of the inputs: the config's activation quantizer when a config is set (none
/// when it has none), else the mode's default (int8: AbsMaxQuantizer()).
std::optional<quantizers::AbsMaxQuantizer> inputs_quantizer(
    const quantizers::QuantizationConfigPtr& config, const std::string& mode);

/// forward(x) differentiated as Keras's custom gradients of the quantized calls: the inputs'
/// gradient is make_grad()(upstream) (through the dequantized kernel; the rounding of the inputs
/// passes it straight through). Nothing is built for the gradient when nothing records.
template <typename Forward, typename MakeGrad>
Tensor with_inputs_gradient(const Tensor& x, const Forward& forward, const MakeGrad& make_grad) {
  if (!autograd::should_record(x)) return forward(x);
  return ops::custom_gradient([&](const Tensor& in) {
    return std::pair{forward(in), ops::core::GradFn1(make_grad())};
  })(x);
}

}  // namespace keras::layers::detail

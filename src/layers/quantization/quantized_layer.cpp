#include "layers/quantization/quantized_layer.h"

namespace keras::layers::detail {

void require_exact_class(const Layer& layer, const char* keras_class) {
  if (layer.class_name() != keras_class)
    throw NotImplementedError("Layer " + layer.class_name() +
                              " does not have a `quantize()` method implemented.");
}

void require_implemented_mode(const Layer& layer, const std::string& mode) {
  // Keras's _quantization_mode_error: GPTQ and AWQ quantize Dense and EinsumDense only.
  if (mode == "gptq" || mode == "awq")
    throw NotImplementedError(
        "Invalid quantization mode. Expected one of ('int8', 'float8', 'int4', 'gptq', 'awq'). "
        "Received: quantization_mode=" + mode + " (" + layer.class_name() + " '" +
        layer.name() + "' is left as it is; Keras quantizes only Dense and EinsumDense with it).");
  if (mode != "int8" && mode != "int4")
    throw NotImplementedError(layer.class_name() + " '" + layer.name() +
                              "': keras-cpp does not implement the quantization mode '" + mode +
                              "' yet (it has 'int8' and 'int4'); see docs/quantization.md.");
}

DTypePolicy quantized_policy(const DTypePolicy& policy, const std::string& mode) {
  if (!policy.quantization_mode.empty()) return policy;
  return DTypePolicy::from_name(mode + "_from_" + policy.name);
}

std::optional<quantizers::AbsMaxQuantizer> inputs_quantizer(
    const quantizers::QuantizationConfigPtr& config, const std::string& mode) {
  if (config) return config->activation_quantizer;
  return quantizers::QuantizationConfig::default_for(mode).activation_quantizer;
}

}  // namespace keras::layers::detail

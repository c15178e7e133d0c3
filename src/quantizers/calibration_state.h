#pragma once
// What a GPTQ/AWQ layer needs from the calibration machinery (src/quantizers/calibrate.cpp):
// its bits and groups from its dtype policy, and the hook through which an uncalibrated layer
// reports the inputs of its calls while calibration runs (Keras patches layer.call instead).

#include <cstdint>
#include <functional>
#include <string>

#include "keras/layers/dtype_policy.h"
#include "keras/quantizers/quantizers.h"
#include "keras/tensor/tensor.h"

// Declared ahead with default visibility, as the public header does (why: sharded_variables.h).
#pragma GCC visibility push(default)
namespace keras {
class Layer;
}
#pragma GCC visibility pop

namespace keras::quantizers::detail {

/// The weight bits of a "gptq/<bits>/<group>_from_..." or "awq/<bits>/<group>_from_..." policy.
int calibrated_weight_bits(const DTypePolicy& policy);
/// "gptq/<bits>/<group>" or "awq/<bits>/<group>": the policy mode of a GPTQConfig/AWQConfig
/// (Keras's dtype_policy_string); ValueError for another config.
std::string calibrated_policy_mode(const QuantizationConfigPtr& config);
/// The config a GPTQ or AWQ layer keeps: `config`'s settings without its calibration inputs
/// (dataset, tokenizer, quantization_layer_structure), which is also what it serializes. The
/// structure holds the model's layers, so a layer keeping it would own itself through its
/// config: a reference cycle that leaked every calibrated model. Any other config as it is.
QuantizationConfigPtr without_calibration_inputs(const QuantizationConfigPtr& config);
/// The groups of `input_dim` inputs under the policy's group size (-1: one group).
int64_t calibrated_groups(int64_t input_dim, const DTypePolicy& policy);

/// Called by an uncalibrated GPTQ/AWQ layer with the inputs of each call; passes them to the
/// observer calibration registered for that layer on this thread, if any.
void observe_calibration_inputs(const Layer& layer, const Tensor& inputs);

/// While alive, inputs reported for `layer` on this thread go to `observer`.
class CalibrationObserverScope {
 public:
  CalibrationObserverScope(const Layer& layer, std::function<void(const Tensor&)> observer);
  ~CalibrationObserverScope();
  CalibrationObserverScope(const CalibrationObserverScope&) = delete;
  CalibrationObserverScope& operator=(const CalibrationObserverScope&) = delete;

 private:
  const Layer* layer_;
};

}  // namespace keras::quantizers::detail

#include "quantizers/calibration_state.h"

#include <map>
#include <string>

#include "keras/core/errors.h"

namespace keras::quantizers::detail {
namespace {

// One calibration runs on the calling thread; other threads' calls of the same layers (a
// model served while another copy calibrates) see no observer.
thread_local std::map<const Layer*, std::function<void(const Tensor&)>> observers;

}  // namespace

// The bits of "gptq/4/128_from_float32" (DTypePolicy::from_name checked the form; it keeps the
// group size in block_size).
int calibrated_weight_bits(const DTypePolicy& policy) {
  const size_t a = policy.name.find('/'), b = policy.name.find('/', a + 1);
  check(a != std::string::npos && b != std::string::npos, "The dtype policy '", policy.name,
        "' is not a GPTQ/AWQ policy ('<gptq|awq>/<weight_bits>/<group_size>_from_<source>').");
  return std::stoi(policy.name.substr(a + 1, b - a - 1));
}

int64_t calibrated_groups(int64_t input_dim, const DTypePolicy& policy) {
  const int64_t group = policy.block_size;
  return group == -1 ? 1 : (input_dim + group - 1) / group;
}

void observe_calibration_inputs(const Layer& layer, const Tensor& inputs) {
  if (observers.empty()) return;
  auto it = observers.find(&layer);
  if (it != observers.end()) it->second(inputs);
}

CalibrationObserverScope::CalibrationObserverScope(const Layer& layer,
                                                   std::function<void(const Tensor&)> observer)
    : layer_(&layer) {
  observers[layer_] = std::move(observer);
}

CalibrationObserverScope::~CalibrationObserverScope() { observers.erase(layer_); }

}  // namespace keras::quantizers::detail

#include "saving/keras_calibrated_files.h"

#include <algorithm>

#include "keras/ops/ops.h"
#include "quantizers/calibration_state.h"

namespace keras::saving::detail {

std::optional<std::pair<Variable, Tensor>> symmetric_zero_points_left_out(
    const Layer& layer, std::vector<Variable>& vars, size_t saved) {
  if (layer.quantization_mode() != "gptq" || saved + 1 != vars.size()) return std::nullopt;
  const Config config = layer.get_config();
  const Config& q = config.contains("quantization_config") ? config["quantization_config"]
                                                           : Config();
  if (!q.is_object() || !q.contains("config") || !q["config"].value("symmetric", false))
    return std::nullopt;
  auto is_zero = [](const Variable& v) {
    const std::string& p = v.path();
    auto ends = [&p](const std::string& s) {
      return p.size() >= s.size() && p.compare(p.size() - s.size(), s.size(), s) == 0;
    };
    return ends("/kernel_zero") || ends("/zero_point");
  };
  auto it = std::find_if(vars.begin(), vars.end(), is_zero);
  if (it == vars.end()) return std::nullopt;
  const Variable zero = *it;
  vars.erase(it);
  const int bits = quantizers::detail::calibrated_weight_bits(layer.dtype_policy());
  // Keras's symmetric zero point: (maxq + 1) / 2 with maxq = 2^bits - 1.
  return std::pair{zero, ops::full(zero.shape(), int64_t{1} << (bits - 1), DType::UInt8)};
}

}  // namespace keras::saving::detail

#pragma once
// Keras 3.15.1 writes its GPTQ/AWQ Dense and EinsumDense layers without their zero points
// (save_own_variables skips kernel_zero; its own loader then fails on the file). For a
// symmetric GPTQ config every zero point is 2^(bits - 1), so such a file can still be read
// faithfully; for the others (asymmetric GPTQ, every AWQ) the zero points are lost.

#include <optional>
#include <utility>
#include <vector>

#include "keras/layers/layer.h"

namespace keras::saving::detail {

/// When `layer` is a GPTQ layer of a symmetric config and the file holds one variable fewer
/// than `vars` (Keras's layout without kernel_zero): removes the zero-point variable from `vars`
/// and returns it with the value it must take (2^(bits - 1) everywhere). Otherwise nothing.
std::optional<std::pair<Variable, Tensor>> symmetric_zero_points_left_out(
    const Layer& layer, std::vector<Variable>& vars, size_t saved);

}  // namespace keras::saving::detail

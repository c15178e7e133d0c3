#pragma once
// What GPTQ/AWQ Dense and EinsumDense share (dense_calibrated.cpp,
// einsum_dense_calibrated.cpp): the variables Keras builds, the stored form of the levels,
// the dequantized kernel, and the saved form of a layer that was never calibrated.

#include <string>
#include <vector>

#include "keras/layers/layer.h"

namespace keras::layers::detail {

/// Keras's GPTQ/AWQ variables of a (rows, columns) kernel, in Keras's build order.
struct CalibratedVariables {
  Variable quantized_kernel, kernel_scale, kernel_zero, awq_scales, g_idx;
};

/// Adds them to `layer` (whose policy is "gptq/..." or "awq/..."): the uint8 levels
/// (columns, rows), two 4-bit values per byte along the columns when 4-bit; `zero_name` is
/// Keras's name of the zero points ("kernel_zero" on Dense, "zero_point" on EinsumDense).
CalibratedVariables add_calibrated_variables(Layer& layer, int64_t rows, int64_t columns,
                                             const std::string& zero_name);

/// The levels (columns, rows) as the quantized kernel stores them (packed when 4-bit).
Tensor stored_levels(const Tensor& levels, const DTypePolicy& policy);
/// The levels (columns, rows) from the stored kernel.
Tensor unpacked_levels(const Variable& quantized_kernel, int64_t columns,
                       const DTypePolicy& policy);
/// The float kernel (rows, columns) the levels stand for: (q - zero[g]) * scale[g], transposed,
/// and divided by awq_scales per row under AWQ.
Tensor dequantized_levels(const Tensor& levels, const CalibratedVariables& v,
                          const std::string& mode);

/// Assigns calibration's result to the variables; `what` names the layer in errors.
void assign_calibrated(CalibratedVariables v, const Tensor& quantized,
                       const Tensor& scale, const Tensor& zero, const Tensor& g_idx,
                       const Tensor& awq_scales, const DTypePolicy& policy,
                       const std::string& what);

/// What a never-calibrated layer is saved as: its float kernel (rows, columns) rounded to the
/// nearest level with its config's settings, in Keras's order (bias first when defined), with
/// a warning naming the layer.
std::vector<Variable> rounded_saved_variables(const Layer& layer, const Tensor& kernel,
                                              const Variable& bias,
                                              const quantizers::QuantizationConfigPtr& config);

}  // namespace keras::layers::detail

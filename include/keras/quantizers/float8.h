#pragma once
// float8 of Keras 3.15 without a float8 tensor dtype (keras/src/quantizers/quantizers.py:
// quantize_and_dequantize, compute_float8_scale, compute_float8_amax_history). Values rounded
// onto a float8 format's grid are kept in a wider float dtype: Keras casts to float8 and
// straight back, so the float8 tensor itself is never seen.

#include <string>

#include "keras/autograd/variable.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::quantizers {

/// The largest finite value of "float8_e4m3fn" (448) or "float8_e5m2" (57344)
/// (ml_dtypes.finfo(format).max); ValueError for another name.
double float8_max(const std::string& format);

/// x cast to the float8 `format` and back (ml_dtypes' and XLA's cast): round to nearest, ties
/// to even, onto the format's grid, subnormals included; past the largest value e4m3fn gives
/// NaN (it has no infinity) and e5m2 +-inf; nan stays nan. Computed in float32 (bfloat16 and
/// float16 inputs convert exactly; float64 ones are rounded to float32 first), returned in x's
/// dtype.
Tensor round_to_float8(const Tensor& x, const std::string& format);

/// keras.quantizers.quantize_and_dequantize: inputs / scale clipped to +-float8_max(format),
/// rounded onto the format's grid, times scale, all in `compute_dtype`.
Tensor quantize_and_dequantize(const Tensor& inputs, const Tensor& scale,
                               const std::string& format, DType compute_dtype);

/// keras.quantizers.compute_float8_scale (delayed scaling, Transformer Engine's rule): the new
/// scale 1 / ((dtype_max / amax) / 2^margin), or the old `scale` where amax is 0 or not finite.
Tensor compute_float8_scale(const Tensor& amax, const Tensor& scale, const Tensor& dtype_max,
                            int margin = 0);

/// keras.quantizers.compute_float8_amax_history: roll(amax_history, -1) with its first entry
/// replaced by max|x| (so the old first entry moves to the end and the old second is dropped,
/// as Keras's scatter_update does).
Tensor compute_float8_amax_history(const Tensor& x, const Tensor& amax_history);

/// The six variables of a float8 Dense or EinsumDense (Keras's _float8_build): float32 scalar
/// scales (ones) and amax histories (zeros), trainable, not autocast, overwritten with their
/// "gradients" by the optimizers.
struct Float8Variables {
  /// The scale of the inputs.
  Variable inputs_scale, inputs_amax_history;
  /// The scale of the kernel.
  Variable kernel_scale, kernel_amax_history;
  /// The scale of the outputs' gradient.
  Variable outputs_grad_scale, outputs_grad_amax_history;
  /// \var inputs_amax_history
  /// The recent max|inputs| values the inputs' scale is computed from.
  /// \var kernel_amax_history
  /// The recent max|kernel| values the kernel's scale is computed from.
  /// \var outputs_grad_amax_history
  /// The recent max|gradient| values the outputs' gradient scale is computed from.
};

}  // namespace keras::quantizers

#pragma GCC visibility pop

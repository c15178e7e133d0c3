#pragma once
// One row of Keras's abs_max_quantize along the last axis (the inputs of an int8 Dense):
//   scale = hi / (max |x| + epsilon);  q = cast<int8>(clip(round_half_even(x * scale), lo, hi))
// with the float32 roundings of those ops and their NaN behaviour (a NaN in the row makes the
// scale NaN; a NaN value casts to 0, as NumPy on x86 does through int32). Vectorized for
// AVX-512 and AVX2 (one pass for max |x|, one for the values); a scalar loop elsewhere.

#include <cstdint>

namespace keras::cpu {

void quantize_row_int8(const float* x, int64_t k, float lo, float hi, float epsilon, int8_t* q,
                       float* scale);

}  // namespace keras::cpu

#pragma once
// keras.ops.math reductions: logsumexp, top_k, in_top_k, segment_*.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace math {

}  // namespace math
}  // namespace keras::ops

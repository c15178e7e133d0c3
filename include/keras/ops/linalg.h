#pragma once
// keras.ops.linalg: decompositions, solvers and norms, differentiable.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace linalg {

}  // namespace linalg
}  // namespace keras::ops

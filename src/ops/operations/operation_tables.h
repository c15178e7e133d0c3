#pragma once
// The built-in op classes, one table per Keras module (keras.src.ops.numpy, .nn, .math, .core,
// .linalg, .image). operation_registry.cpp adds them all on first use.

#include <vector>

#include "keras/ops/operation.h"

namespace keras::ops::detail {

using OperationTable = std::vector<OperationSpec>;

void add_numpy_operations(OperationTable& table);
void add_nn_operations(OperationTable& table);
void add_math_operations(OperationTable& table);
void add_core_operations(OperationTable& table);
void add_linalg_operations(OperationTable& table);
void add_image_operations(OperationTable& table);

}  // namespace keras::ops::detail

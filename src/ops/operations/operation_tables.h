#pragma once
// The built-in op classes, one table per Keras module (keras.src.ops.numpy, .nn, .math, .core,
// .linalg, .image, .einops). operation_registry.cpp adds them all on first use.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "keras/ops/operation.h"

namespace keras::ops::detail {

using OperationTable = std::vector<OperationSpec>;

/// An op class of `module` with one output, f(call).
inline OperationSpec one_output(std::string class_name, const char* module,
                                std::function<Tensor(const OperationCall&)> f) {
  return {std::move(class_name), module,
          [f = std::move(f)](const OperationCall& c) { return TensorList{f(c)}; }};
}

/// An op class of `module` computed as f(x) from call(x).
inline OperationSpec unary_op(std::string class_name, const char* module,
                              Tensor (*f)(const Tensor&)) {
  return one_output(std::move(class_name), module,
                    [f](const OperationCall& c) { return f(c.tensor(0)); });
}

void add_numpy_operations(OperationTable& table);
void add_nn_operations(OperationTable& table);
void add_math_operations(OperationTable& table);
void add_core_operations(OperationTable& table);
void add_linalg_operations(OperationTable& table);
void add_image_operations(OperationTable& table);
void add_einops_operations(OperationTable& table);

}  // namespace keras::ops::detail

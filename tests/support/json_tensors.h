#pragma once
// Tensors written as nested JSON lists (the oracle scripts' inputs and outputs): shared by
// tests and tools/interop, header-only.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "keras/keras.h"

namespace keras::test {

/// The leaves of nested lists in C order, and their shape (following the first elements).
inline void flatten_json(const nlohmann::json& j, std::vector<nlohmann::json>& leaves,
                         Shape& shape, int depth = 0) {
  if (!j.is_array()) {
    leaves.push_back(j);
    return;
  }
  if (shape.rank() == depth) shape.push_back(static_cast<int64_t>(j.size()));
  for (const nlohmann::json& item : j) flatten_json(item, leaves, shape, depth + 1);
}

/// Nested lists as a tensor of `dtype` ("string", or a number type's name).
inline Tensor tensor_from_json(const nlohmann::json& j, const std::string& dtype) {
  std::vector<nlohmann::json> leaves;
  Shape shape;
  flatten_json(j, leaves, shape);
  if (dtype == "string") {
    std::vector<std::string> values;
    for (const nlohmann::json& v : leaves) values.push_back(v.get<std::string>());
    return StringTensor(values, shape);
  }
  std::vector<double> values;
  for (const nlohmann::json& v : leaves) values.push_back(v.get<double>());
  return ops::cast(Tensor::from_vector(values, shape), dtype_from_string(dtype));
}

}  // namespace keras::test

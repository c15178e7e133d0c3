#pragma once
// keras.ops core: conversion, casting, shape queries, stopping gradients.

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace core {

/// `x` converted to `dtype` (float to int truncates toward zero, as NumPy).
Tensor cast(const Tensor& x, DType dtype);

/// A tensor holding `values` with `shape` (default: 1-d), on the current backend unless
/// `backend` is given. The dtype is T's (double stays float64), or `dtype` when given.
template <typename T>
Tensor convert_to_tensor(const std::vector<T>& values, const Shape& shape,
                         std::optional<DType> dtype = std::nullopt,
                         std::string_view backend = {}) {
  Tensor t = Tensor::from_vector(values, shape, backend);
  return dtype ? cast(t, *dtype) : t;
}
/// A 1-d tensor holding `values`; the dtype is T's, or `dtype` when given.
template <typename T>
Tensor convert_to_tensor(const std::vector<T>& values, std::optional<DType> dtype = std::nullopt) {
  return convert_to_tensor(values, Shape{static_cast<int64_t>(values.size())}, dtype);
}
/// A 0-d tensor holding `value`; dtype as Keras gives a Python scalar (int32, float32, bool)
/// unless `dtype` is given.
Tensor convert_to_tensor(const Scalar& value, std::optional<DType> dtype = std::nullopt);
/// `x` itself, or cast when `dtype` differs.
Tensor convert_to_tensor(const Tensor& x, std::optional<DType> dtype = std::nullopt);

/// The values of `x` in row-major order (keras.ops.convert_to_numpy).
template <typename T>
std::vector<T> convert_to_numpy(const Tensor& x) {
  return x.to_vector<T>();
}

/// The shape of `x`.
Shape shape(const Tensor& x);
/// The dtype of `x`.
DType dtype(const Tensor& x);
/// True when `x` is a defined tensor.
bool is_tensor(const Tensor& x);

/// `x` with gradients blocked: the same values, treated as a constant by autograd.
Tensor stop_gradient(const Tensor& x);

}  // namespace core
}  // namespace keras::ops

#pragma GCC visibility pop

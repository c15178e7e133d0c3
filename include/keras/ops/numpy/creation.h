#pragma once
// keras.ops (numpy) array creation. `dtype` defaults to floatx() for float-valued creators.

#include <optional>

#include "keras/core/scalar.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

/// A tensor of zeros (dtype defaults to floatx()).
Tensor zeros(const Shape& shape, std::optional<DType> dtype = std::nullopt);
/// A tensor of ones (dtype defaults to floatx()).
Tensor ones(const Shape& shape, std::optional<DType> dtype = std::nullopt);
/// A tensor filled with `fill_value` (dtype from the value as Keras infers it, or `dtype`).
Tensor full(const Shape& shape, const Scalar& fill_value,
            std::optional<DType> dtype = std::nullopt);
Tensor zeros_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
Tensor ones_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
Tensor full_like(const Tensor& x, const Scalar& fill_value,
                 std::optional<DType> dtype = std::nullopt);
/// Values start, start + step, ... below stop (int32 for integer arguments, else floatx()).
Tensor arange(const Scalar& start, std::optional<Scalar> stop = std::nullopt,
              const Scalar& step = 1, std::optional<DType> dtype = std::nullopt);

}  // namespace numpy
}  // namespace keras::ops

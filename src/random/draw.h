#pragma once
// What the keras.random functions share: the (seed, counter) of one draw and its numbered
// streams (see the contract in keras/random/random.h).

#include <cstdint>
#include <optional>
#include <string_view>

#include "keras/backend/backend.h"
#include "keras/random/random.h"

namespace keras::random::detail {

/// The key of one draw: stream k is (seed, counter + k 2^48).
struct DrawKey {
  uint64_t seed = 0;
  uint64_t counter = 0;

  /// Takes one (seed, counter) pair from `seed`.
  static DrawKey from(const Seed& seed);
  /// A new tensor of `shape` and `dtype` on `backend` filled by the random primitive from
  /// stream `k`.
  Tensor stream(backend::RandomKind kind, const Shape& shape, DType dtype,
                backend::Backend& backend, uint64_t k = 0) const;
};

/// `dtype` (default floatx()) checked to be a float type; ValueError naming `op` otherwise.
DType float_dtype(std::string_view op, std::optional<DType> dtype);

/// `param` (a number or a tensor) as float64 broadcast to `shape`, checked to broadcast
/// there; ValueError naming `op`, `name` and both shapes otherwise. Carries no gradient.
Tensor param_to_shape(std::string_view op, std::string_view name, const Tensor& param,
                      const Shape& shape, backend::Backend& backend);

}  // namespace keras::random::detail

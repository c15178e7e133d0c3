#pragma once
// How the cpu kernels compute for each storage type: float16 and bfloat16 in float, the rest
// in themselves.

#include <type_traits>

#include "keras/core/dtype.h"
#include "keras/core/half.h"

namespace keras::cpu {

template <typename T>
struct ComputeType {
  using type = T;
};
template <>
struct ComputeType<float16_t> {
  using type = float;
};
template <>
struct ComputeType<bfloat16_t> {
  using type = float;
};
/// The type arithmetic on a T happens in.
template <typename T>
using compute_t = typename ComputeType<T>::type;

template <typename T>
inline constexpr bool is_half_v = std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>;
template <typename T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_half_v<T>;

/// Converts between storage and compute types with C++ (and NumPy-on-x86) semantics;
/// half types round to nearest even.
template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_half_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (is_half_v<To>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> &&
                       sizeof(To) < 4) {
    // NumPy on x86 converts through a 32-bit integer and keeps the low bits.
    return static_cast<To>(static_cast<int32_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace keras::cpu

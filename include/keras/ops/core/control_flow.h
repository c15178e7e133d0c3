#pragma once
// keras.ops core: cond, switch_, while_loop, fori_loop, scan, associative_scan, map,
// vectorized_map, as plain C++ helpers that work under autograd.

#include <functional>

#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace core {

}  // namespace core
}  // namespace keras::ops

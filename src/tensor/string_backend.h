#pragma once
// Where "string" tensors live: a host backend whose storage holds std::string objects. It
// copies strings (so views, contiguous() and slicing work as for numbers) and refuses every
// numeric primitive with the string TypeError, so an op that meets a string tensor fails
// cleanly at the seam instead of reading std::string bytes as numbers. It is not in the
// backend registry: no one selects it, tensors of strings simply land on it.

#include <cstdint>
#include <vector>

#include "keras/backend/backend.h"

namespace keras::detail {

/// The one backend of string tensors.
backend::Backend& string_backend();

/// True when `b` is string_backend().
bool is_string_backend(const backend::Backend& b);

/// The storage offsets (in elements) of a strided array's elements, in row-major order.
std::vector<int64_t> strided_offsets(const backend::Array& a);

}  // namespace keras::detail

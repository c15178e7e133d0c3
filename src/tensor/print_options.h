#pragma once
// NumPy's default print options, shared by the printing of numeric and string tensors.

#include <cstdint>

namespace keras::detail {

/// Tensors of more than this many elements print summarized (numpy's `threshold`).
inline constexpr int64_t kPrintThreshold = 1000;
/// A summarized axis shows this many entries at each edge (numpy's `edgeitems`).
inline constexpr int64_t kPrintEdgeItems = 3;

}  // namespace keras::detail

#pragma once
// The packed int8 kernels of quantized layers (int8_gemm.h's PackedInt8Matrix), packed once per
// weight buffer instead of on every call: at batch 32 packing a Dense kernel cost two thirds of
// its product.
//
// Entries are keyed by the weight's Storage (held by the entry, so its memory cannot be reused
// for another tensor while cached), offset, shape and kernel version. An entry is dropped at the
// next lookup once nobody but the cache holds its Storage (the variable moved to new memory, or
// the tensor was a temporary). This is sound because keras-cpp does not write into memory that
// someone else also holds: Variable::assign copies on write when the storage is shared
// (src/autograd/variable.cpp), as compiled programs do for the variables their step writes, so
// a reassigned kernel gets new memory and a new entry. Writing into a kernel's memory through a
// raw data() pointer bypasses this (as it bypasses autograd); assign() instead.
//
// The cost: the packed copy lives as long as the kernel (about the int8 kernel's bytes again,
// plus column sums; packed_int8_weights_bytes() reports it).

#include <cstddef>
#include <memory>

#include "int8_gemm.h"
#include "keras/backend/storage.h"

namespace keras::cpu {

/// `b` (k, n) int8, contiguous, packed for the current int8 kernel; packed on the first call
/// for this buffer, then shared. Thread-safe.
std::shared_ptr<const PackedInt8Matrix> packed_int8_weights(const backend::Array& b);

/// The bytes all cached packings hold now.
size_t packed_int8_weights_bytes();

}  // namespace keras::cpu

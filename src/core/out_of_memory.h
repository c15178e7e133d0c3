#pragma once
// The words of an out-of-memory error, shared by the allocators and the tensor factory.

#include <cstdint>
#include <string>

namespace keras::detail {

/// "6000000000 bytes (5.59 GiB)".
std::string byte_count(uint64_t bytes);

/// Throws ResourceExhaustedError for a failed host allocation of `bytes`, with the fixes.
[[noreturn]] void throw_out_of_memory(uint64_t bytes);

}  // namespace keras::detail

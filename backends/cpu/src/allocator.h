#pragma once
// A caching allocator for host memory: freed blocks go back to a free list per size class
// instead of to the system, so the steady state of a training loop allocates nothing.

#include <cstddef>

namespace keras::cpu {

/// A block of at least `nbytes`, 64-byte aligned (null for 0 bytes).
void* cached_alloc(size_t nbytes);
/// Returns a block from cached_alloc with the same `nbytes`.
void cached_free(void* p, size_t nbytes);
/// Returns every block of the shared free lists to the system (each thread also keeps up to 16
/// small blocks per size class, 3 MiB at most, until it exits).
void release_cached_memory();
/// Bytes currently held in the shared free lists.
size_t cached_bytes();

}  // namespace keras::cpu

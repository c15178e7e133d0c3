// A chain of elementwise primitives as one pass over memory: the flat index space is cut into
// blocks small enough that every register of a block stays in cache, and each block runs the
// chain's steps in order with this backend's own unary/binary/where/copy kernels. The values
// are therefore exactly those of the unfused calls; what changes is that a chain of k steps
// reads its inputs from memory once instead of k times, keeps its temporaries in a block-sized
// scratch buffer instead of whole arrays, and wakes the thread pool once instead of k times.

#include <algorithm>
#include <cstdlib>
#include <new>
#include <vector>

#include "core/out_of_memory.h"
#include "cpu_backend.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

using backend::ChainLayout;
using backend::ElementwiseChain;
using backend::ElementwiseStep;

// Elements per block. Each step of each block is one kernel call (a fraction of a
// microsecond), so blocks are as large as cache allows: up to 64 KiB of float32 per register
// (a chain's few registers stay in L2), at least 16 KiB, and no more blocks than threads when
// the arrays are small enough to be in cache anyway.
constexpr int64_t kMinBlock = 4096, kMaxBlock = 16384;

int64_t block_elements(int64_t n) {
  const int64_t per_thread = (n + num_threads() - 1) / num_threads();
  return std::clamp(per_thread, kMinBlock, kMaxBlock);
}

void run_step(CpuBackend& be, const ElementwiseStep& s, const std::vector<Array>& r) {
  using Kind = ElementwiseStep::Kind;
  switch (s.kind) {
    case Kind::Unary:
      return be.unary(static_cast<backend::UnaryOp>(s.op), r[s.out], r[s.in[0]], s.p0, s.p1);
    case Kind::Binary:
      return be.binary(static_cast<backend::BinaryOp>(s.op), r[s.out], r[s.in[0]], r[s.in[1]]);
    case Kind::Where: return be.where(r[s.out], r[s.in[0]], r[s.in[1]], r[s.in[2]]);
    case Kind::Copy:
      return be.copy(r[s.out], r[s.in[0]], static_cast<backend::CopyMode>(s.op));
  }
}

// A block of `rows` rows starting at row r0, as a (rows, P) view of an array of `layout`.
void place(Array& a, ChainLayout layout, int64_t base, int64_t r0, int64_t rows, int64_t p) {
  a.shape = Shape{rows, p};
  switch (layout) {
    case ChainLayout::Dense: a.strides = Strides{p, 1}, a.offset = base + r0 * p; break;
    case ChainLayout::Scalar: a.strides = Strides{0, 0}, a.offset = base; break;
    case ChainLayout::Row: a.strides = Strides{1, 0}, a.offset = base + r0; break;
    case ChainLayout::Column: a.strides = Strides{0, 1}, a.offset = base; break;
  }
}

// Each thread keeps its scratch memory from one chain to the next (it is touched every step:
// fresh memory would be fresh page faults and cold cache lines). It is plain heap memory, so
// that freeing it when the thread exits needs no backend.
void free_scratch(void*, void* data, size_t) { std::free(data); }

const Ref<backend::Storage>& scratch_of_this_thread(CpuBackend& be, size_t nbytes) {
  thread_local Ref<backend::Storage> scratch;
  if (nbytes && (!scratch || scratch->nbytes() < nbytes)) {
    scratch = Ref<backend::Storage>();
    const size_t rounded = (nbytes + 63) / 64 * 64;
    void* data = std::aligned_alloc(64, rounded);
    if (!data) keras::detail::throw_out_of_memory(rounded);
    scratch = make_ref<backend::Storage>(&be, data, rounded, free_scratch, nullptr);
  }
  return scratch;
}

}  // namespace

void CpuBackend::elementwise(const ElementwiseChain& chain, std::span<const Array> arrays) {
  const int64_t n = chain.numel, p = chain.row_length;
  if (n == 0 || chain.steps.empty()) return;
  const size_t num_arrays = arrays.size();
  const int64_t rows = n / p, block_rows = std::max<int64_t>(1, block_elements(n) / p);
  // Temporaries share one block-sized scratch buffer per task, each at a 64-byte boundary.
  std::vector<int64_t> temp_byte_offset;
  size_t scratch_bytes = 0;
  for (DType t : chain.temp_dtypes) {
    temp_byte_offset.push_back(static_cast<int64_t>(scratch_bytes));
    scratch_bytes += (static_cast<size_t>(block_rows * p) * itemsize(t) + 63) / 64 * 64;
  }
  const int64_t blocks = (rows + block_rows - 1) / block_rows;
  // Threads join where each unfused call would have used them: waking the pool costs more
  // than a chain of small steps gains from it (measured with the Dense(10) step).
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / (block_rows * p));
  parallel_for(blocks, grain, [&](int64_t first, int64_t last) {
    std::vector<Array> regs(num_arrays + chain.temp_dtypes.size());
    for (size_t r = 0; r < num_arrays; ++r) {
      regs[r].storage = arrays[r].storage;
      regs[r].dtype = arrays[r].dtype;
    }
    const Ref<backend::Storage>& scratch = scratch_of_this_thread(*this, scratch_bytes);
    for (size_t t = 0; t < chain.temp_dtypes.size(); ++t) {
      Array& a = regs[num_arrays + t];
      a.storage = scratch;
      a.dtype = chain.temp_dtypes[t];
    }
    for (int64_t b = first; b < last; ++b) {
      const int64_t r0 = b * block_rows, nrows = std::min(block_rows, rows - r0);
      for (size_t r = 0; r < num_arrays; ++r)
        place(regs[r], chain.layouts[r], arrays[r].offset, r0, nrows, p);
      for (size_t t = 0; t < chain.temp_dtypes.size(); ++t) {
        Array& a = regs[num_arrays + t];
        place(a, ChainLayout::Dense, temp_byte_offset[t] / static_cast<int64_t>(itemsize(a.dtype)),
              0, nrows, p);
      }
      for (const ElementwiseStep& s : chain.steps) run_step(*this, s, regs);
    }
  });
}

}  // namespace keras::cpu

// A chain of elementwise primitives as one pass over memory: the flat index space is cut into
// blocks small enough that every register of a block stays in cache, and each block runs the
// chain's steps in order with this backend's own unary/binary/where/copy kernels. The values
// are therefore exactly those of the unfused calls; what changes is that a chain of k steps
// reads its inputs from memory once instead of k times, keeps its temporaries in a block-sized
// scratch buffer instead of whole arrays, and wakes the thread pool once instead of k times.

#include <algorithm>
#include <vector>

#include "cpu_backend.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

using backend::ChainLayout;
using backend::ElementwiseChain;
using backend::ElementwiseStep;

// Elements per block: 16 KiB of float32 per register, a chain's few registers in L1/L2.
constexpr int64_t kBlock = 4096;

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

}  // namespace

void CpuBackend::elementwise(const ElementwiseChain& chain, std::span<const Array> arrays) {
  const int64_t n = chain.numel, p = chain.row_length;
  if (n == 0 || chain.steps.empty()) return;
  const size_t num_arrays = arrays.size();
  const int64_t rows = n / p, block_rows = std::max<int64_t>(1, kBlock / p);
  // Temporaries share one block-sized scratch buffer per task, each at a 64-byte boundary.
  std::vector<int64_t> temp_byte_offset;
  size_t scratch_bytes = 0;
  for (DType t : chain.temp_dtypes) {
    temp_byte_offset.push_back(static_cast<int64_t>(scratch_bytes));
    scratch_bytes += (static_cast<size_t>(block_rows * p) * itemsize(t) + 63) / 64 * 64;
  }
  const int64_t blocks = (rows + block_rows - 1) / block_rows;
  // A chain of k steps does k elementwise passes of work per element: split it as finely as
  // k separate calls would be split together.
  const int64_t work = block_rows * p * static_cast<int64_t>(chain.steps.size());
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / work);
  parallel_for(blocks, grain, [&](int64_t first, int64_t last) {
    std::vector<Array> regs(num_arrays + chain.temp_dtypes.size());
    for (size_t r = 0; r < num_arrays; ++r) {
      regs[r].storage = arrays[r].storage;
      regs[r].dtype = arrays[r].dtype;
    }
    Ref<backend::Storage> scratch;
    if (scratch_bytes) scratch = allocate(scratch_bytes);
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

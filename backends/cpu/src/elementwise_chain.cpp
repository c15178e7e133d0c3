// A chain of elementwise primitives as one pass over memory: the flat index space is cut into
// blocks small enough that every register of a block stays in cache, and each block runs the
// chain's steps in order with this backend's own unary/binary/where/copy kernels. The values
// are therefore exactly those of the unfused calls; what changes is that a chain of k steps
// reads its inputs from memory once instead of k times, keeps its temporaries in a block-sized
// scratch buffer instead of whole arrays, and wakes the thread pool once instead of k times.
// Float32 steps on dense or broadcast-scalar registers call the row functions the primitives
// use (float_unary_rows, float_binary_rows) on plain pointers; a chain made only of those
// (Adam's update) runs on float pointers alone. Other steps run the primitives' own loops
// (elementwise_loops.h) on loops built from the registers' pointers and strides, without the
// array views and make_loop of a primitive's call: an optimizer's one-element chains (its
// step count, bias corrections) cost a fraction of a microsecond each. A chain that is an
// optimizer's update runs its own single-pass kernel instead (chain_kernels.h).

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <vector>

#include "chain_kernels.h"
#include "core/out_of_memory.h"
#include "cpu_backend.h"
#include "elementwise_loops.h"
#include "float_binary.h"
#include "float_unary.h"
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
// A chain of row functions (run_chain_on_rows) calls each for a few hundred nanoseconds per
// block, so its blocks can be small enough for its registers to stay in the level-1 cache
// (8 KiB each): Adam's update 4% (the Dense(10) step) to 11% (the MLP's) faster than in the
// primitives' blocks.
constexpr int64_t kRowsBlock = 2048;

int64_t block_elements(int64_t n) {
  const int64_t per_thread = (n + num_threads() - 1) / num_threads();
  return std::clamp(per_thread, kMinBlock, kMaxBlock);
}

// Where a register's part of a block starts, and its byte strides over the block's grid of
// rows by row_length elements.
struct BlockOperand {
  char* ptr;
  int64_t row_stride, col_stride;
};

BlockOperand block_of(char* base, ChainLayout layout, int64_t item, int64_t r0, int64_t p) {
  switch (layout) {
    case ChainLayout::Dense:
      return {base + r0 * p * item, p * item, item};
    case ChainLayout::Scalar:
      return {base, 0, 0};
    case ChainLayout::Row:
      return {base + r0 * item, item, 0};
    case ChainLayout::Column:
      return {base, 0, item};
  }
  return {base, 0, 0};
}

// A step's loop over `rows` rows of `p` elements: one dimension where every operand's rows
// follow each other, as make_loop would merge them.
template <int N>
StridedLoop<N> block_loop(const BlockOperand* regs, const std::array<int, N>& which, int64_t rows,
                          int64_t p) {
  StridedLoop<N> loop;
  bool flat = true;
  for (int r : which) flat = flat && regs[r].row_stride == regs[r].col_stride * p;
  flat = flat || rows == 1;
  loop.ndim = flat || p == 1 ? 1 : 2;  // p == 1: one element per row, walked by row
  loop.shape[0] = flat ? rows * p : rows;
  loop.shape[1] = p;
  for (int k = 0; k < N; ++k) {
    const BlockOperand& o = regs[which[k]];
    loop.base[k] = o.ptr;
    loop.strides[k][0] = flat ? o.col_stride : o.row_stride;
    loop.strides[k][1] = o.col_stride;
  }
  return loop;
}

// One step on a block through the primitives' own loops (elementwise_loops.h).
void run_step(const ElementwiseStep& s, const BlockOperand* regs, const DType* dtype_of,
              int64_t rows, int64_t p) {
  using Kind = ElementwiseStep::Kind;
  switch (s.kind) {
    case Kind::Unary:
      return unary_on_loop(static_cast<backend::UnaryOp>(s.op), dtype_of[s.in[0]],
                           block_loop<2>(regs, {s.out, s.in[0]}, rows, p), s.p0, s.p1);
    case Kind::Binary:
      return binary_on_loop(static_cast<backend::BinaryOp>(s.op), dtype_of[s.in[0]],
                            block_loop<3>(regs, {s.out, s.in[0], s.in[1]}, rows, p));
    case Kind::Where:
      return where_on_loop(dtype_of[s.out],
                           block_loop<4>(regs, {s.out, s.in[0], s.in[1], s.in[2]}, rows, p));
    case Kind::Copy: {
      // Summing into a destination that overlaps itself must not race (as CpuBackend::copy).
      const BlockOperand& dst = regs[s.out];
      const bool accumulate = static_cast<backend::CopyMode>(s.op) == backend::CopyMode::Add;
      const bool overlaps = (rows > 1 && dst.row_stride == 0) || (p > 1 && dst.col_stride == 0);
      return copy_on_loop(dtype_of[s.out], dtype_of[s.in[0]],
                          block_loop<2>(regs, {s.out, s.in[0]}, rows, p), accumulate,
                          accumulate && overlaps ? INT64_MAX : kElementwiseGrain);
    }
  }
}

// Whether a step runs on raw float pointers (float_unary_rows, float_binary_rows, memcpy or a
// fill) instead of through the primitive's strided loop: every register it touches float32,
// dense or a broadcast scalar (a unary op's input dense). Same values either way: the
// primitives run these ops through the same row functions.
bool runs_on_rows(const ElementwiseStep& s, const ElementwiseChain& chain,
                  std::span<const Array> arrays) {
  using Kind = ElementwiseStep::Kind;
  auto dtype_of = [&](int r) {
    return r < chain.num_arrays ? arrays[r].dtype : chain.temp_dtypes[r - chain.num_arrays];
  };
  auto layout_of = [&](int r) {
    return r < chain.num_arrays ? chain.layouts[r] : ChainLayout::Dense;
  };
  auto fits = [&](int r, bool scalar_ok) {
    return dtype_of(r) == DType::Float32 && (layout_of(r) == ChainLayout::Dense ||
                                             (scalar_ok && layout_of(r) == ChainLayout::Scalar));
  };
  if (!fits(s.out, false)) return false;
  switch (s.kind) {
    case Kind::Unary:
      return fits(s.in[0], false) &&
             has_float_unary_rows(static_cast<backend::UnaryOp>(s.op), static_cast<float>(s.p0),
                                  static_cast<float>(s.p1));
    case Kind::Binary:
      return has_float_binary_rows(static_cast<backend::BinaryOp>(s.op)) && fits(s.in[0], true) &&
             fits(s.in[1], true);
    case Kind::Copy:
      return fits(s.in[0], true);
    case Kind::Where:
      return false;
  }
  return false;
}

// One step of `n` elements on the registers' first elements (see runs_on_rows).
void run_rows(const ElementwiseStep& s, float* const* ptr, const int64_t* step_of, int64_t n) {
  using Kind = ElementwiseStep::Kind;
  float* out = ptr[s.out];
  const float* x = ptr[s.in[0]];
  switch (s.kind) {
    case Kind::Unary:
      return float_unary_rows(static_cast<backend::UnaryOp>(s.op), out, x, n,
                              static_cast<float>(s.p0), static_cast<float>(s.p1));
    case Kind::Binary:
      return float_binary_rows(static_cast<backend::BinaryOp>(s.op), out, x, step_of[s.in[0]],
                               ptr[s.in[1]], step_of[s.in[1]], n);
    case Kind::Copy:
      if (static_cast<backend::CopyMode>(s.op) == backend::CopyMode::Add)
        return float_binary_rows(backend::BinaryOp::Add, out, out, 1, x, step_of[s.in[0]], n);
      if (step_of[s.in[0]] == 0) return std::fill(out, out + n, *x);
      if (out != x) std::memmove(out, x, static_cast<size_t>(n) * sizeof(float));
      return;
    case Kind::Where:
      return;
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

// Threads join where each unfused call would have used them: waking the pool costs more than
// a chain of small steps gains from it (measured with the Dense(10) step).
int64_t grain_in_blocks(int64_t block_elements) {
  return std::max<int64_t>(1, kElementwiseGrain / block_elements);
}

// A few registers' worth of values on the stack, more on the heap.
template <typename T>
class RegisterFile {
 public:
  explicit RegisterFile(size_t n)
      : data_(n <= kInline ? inline_ : (heap_.resize(n), heap_.data())) {}
  T& operator[](size_t r) { return data_[r]; }
  T* data() { return data_; }

 private:
  static constexpr size_t kInline = 32;
  T inline_[kInline];
  std::vector<T> heap_;
  T* data_;
};

// A chain whose every step runs on rows: its registers are float pointers and element steps,
// set once per block, with no array views, and a chain within one task's grain (an optimizer's
// scalars, a small layer's update) runs on the calling thread without the pool's call.
void run_chain_on_rows(CpuBackend& be, const ElementwiseChain& chain,
                       std::span<const Array> arrays) {
  const int64_t n = chain.numel, block = std::min(n, kRowsBlock);
  const size_t num_arrays = arrays.size(), num_temps = chain.temp_dtypes.size();
  const size_t num_regs = num_arrays + num_temps;
  const int64_t temp_floats = (block + 15) / 16 * 16;  // each temporary at a 64-byte boundary
  RegisterFile<float*> base(num_regs);
  RegisterFile<int64_t> step_of(num_regs);
  for (size_t r = 0; r < num_arrays; ++r) {
    base[r] = static_cast<float*>(arrays[r].data());
    step_of[r] = chain.layouts[r] == ChainLayout::Scalar ? 0 : 1;
  }
  for (size_t r = num_arrays; r < num_regs; ++r) step_of[r] = 1;
  const size_t scratch_bytes = num_temps * static_cast<size_t>(temp_floats) * sizeof(float);
  auto run_blocks = [&](int64_t first, int64_t last) {
    RegisterFile<float*> ptr(num_regs);
    float* scratch = num_temps
                         ? static_cast<float*>(scratch_of_this_thread(be, scratch_bytes)->data())
                         : nullptr;
    for (size_t t = 0; t < num_temps; ++t)
      ptr[num_arrays + t] = scratch + static_cast<int64_t>(t) * temp_floats;
    for (int64_t b = first; b < last; ++b) {
      const int64_t start = b * block, count = std::min(block, n - start);
      for (size_t r = 0; r < num_arrays; ++r) ptr[r] = base[r] + start * step_of[r];
      for (const ElementwiseStep& s : chain.steps) run_rows(s, ptr.data(), step_of.data(), count);
    }
  };
  const int64_t blocks = (n + block - 1) / block, grain = grain_in_blocks(block);
  if (blocks <= grain || num_threads() == 1) return run_blocks(0, blocks);
  parallel_for(blocks, grain, run_blocks);
}

// A chain with a kernel of its own (chain_kernels.h): one pass, split over the pool in the
// elementwise grain.
void run_chain_kernel(ChainKernel kernel, std::span<const Array> arrays, int64_t n) {
  count_chain_kernel_run();
  RegisterFile<float*> base(arrays.size());
  for (size_t r = 0; r < arrays.size(); ++r) base[r] = static_cast<float*>(arrays[r].data());
  if (n <= kElementwiseGrain || num_threads() == 1) return kernel(base.data(), 0, n);
  parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t e) { kernel(base.data(), b, e); });
}

}  // namespace

void CpuBackend::elementwise(const ElementwiseChain& chain, std::span<const Array> arrays) {
  const int64_t n = chain.numel, p = chain.row_length;
  if (n == 0 || chain.steps.empty()) return;
  if (ChainKernel kernel = find_chain_kernel(chain, arrays))
    return run_chain_kernel(kernel, arrays, n);
  const size_t num_arrays = arrays.size(), num_temps = chain.temp_dtypes.size();
  const size_t num_regs = num_arrays + num_temps;
  // Decided per call, not cached in the chain: a few comparisons per step, and a chain is
  // shared by every thread that calls its compiled function.
  RegisterFile<uint8_t> on_rows(chain.steps.size());
  for (size_t i = 0; i < chain.steps.size(); ++i)
    on_rows[i] = runs_on_rows(chain.steps[i], chain, arrays);
  if (std::all_of(on_rows.data(), on_rows.data() + chain.steps.size(), [](uint8_t r) { return r; }))
    return run_chain_on_rows(*this, chain, arrays);
  RegisterFile<DType> dtype_of(num_regs);
  RegisterFile<int64_t> item(num_regs);
  for (size_t r = 0; r < num_regs; ++r) {
    dtype_of[r] = r < num_arrays ? arrays[r].dtype : chain.temp_dtypes[r - num_arrays];
    item[r] = static_cast<int64_t>(itemsize(dtype_of[r]));
  }
  const int64_t rows = n / p, block_rows = std::max<int64_t>(1, block_elements(n) / p);
  // Temporaries share one block-sized scratch buffer per task, each at a 64-byte boundary.
  RegisterFile<int64_t> temp_byte_offset(num_temps);
  size_t scratch_bytes = 0;
  for (size_t t = 0; t < num_temps; ++t) {
    temp_byte_offset[t] = static_cast<int64_t>(scratch_bytes);
    scratch_bytes += (static_cast<size_t>(block_rows * p * item[num_arrays + t]) + 63) / 64 * 64;
  }
  const int64_t blocks = (rows + block_rows - 1) / block_rows;
  auto run_blocks = [&](int64_t first, int64_t last) {
    RegisterFile<BlockOperand> regs(num_regs);
    RegisterFile<float*> ptr(num_regs);
    RegisterFile<int64_t> step_of(num_regs);
    char* scratch = num_temps
                        ? static_cast<char*>(scratch_of_this_thread(*this, scratch_bytes)->data())
                        : nullptr;
    for (size_t r = 0; r < num_regs; ++r)
      step_of[r] = r < num_arrays && chain.layouts[r] == ChainLayout::Scalar ? 0 : 1;
    for (int64_t b = first; b < last; ++b) {
      const int64_t r0 = b * block_rows, nrows = std::min(block_rows, rows - r0);
      for (size_t r = 0; r < num_arrays; ++r)
        regs[r] = block_of(static_cast<char*>(arrays[r].data()), chain.layouts[r], item[r], r0, p);
      for (size_t t = 0; t < num_temps; ++t) {
        const int64_t it = item[num_arrays + t];
        regs[num_arrays + t] = {scratch + temp_byte_offset[t], p * it, it};
      }
      for (size_t r = 0; r < num_regs; ++r) ptr[r] = reinterpret_cast<float*>(regs[r].ptr);
      for (size_t i = 0; i < chain.steps.size(); ++i) {
        if (on_rows[i])
          run_rows(chain.steps[i], ptr.data(), step_of.data(), nrows * p);
        else
          run_step(chain.steps[i], regs.data(), dtype_of.data(), nrows, p);
      }
    }
  };
  const int64_t grain = grain_in_blocks(block_rows * p);
  if (blocks <= grain || num_threads() == 1) return run_blocks(0, blocks);
  parallel_for(blocks, grain, run_blocks);
}

}  // namespace keras::cpu

#pragma once
// The elementwise engine of the cpu backend: N same-shaped strided operands are coalesced into
// as few dimensions as possible, then walked in runs along the innermost dimension, split over
// the thread pool. A kernel sees (pointers, inner byte strides, run length) and takes its fast
// path when the inner strides are the element size (or 0 for a broadcast scalar).

#include <algorithm>
#include <array>
#include <cstdint>

#include "keras/backend/storage.h"
#include "thread_pool.h"

namespace keras::cpu {

inline constexpr int kMaxLoopDims = 16;

/// N operands over one iteration space, strides in bytes.
template <int N>
struct StridedLoop {
  int ndim = 0;
  std::array<int64_t, kMaxLoopDims> shape{};
  std::array<std::array<int64_t, kMaxLoopDims>, N> strides{};
  std::array<char*, N> base{};

  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[d];
    return n;
  }
};

/// Builds the loop for operands that all have `shape` (operand 0 is usually the output).
template <int N>
StridedLoop<N> make_loop(const Shape& shape, const std::array<const backend::Array*, N>& ops) {
  StridedLoop<N> loop;
  // Drop extent-1 axes, then merge neighbours that are contiguous with each other in every
  // operand, walking from the innermost axis outwards.
  int kept[kMaxLoopDims + 8];
  int count = 0;
  for (int d = 0; d < shape.rank(); ++d)
    if (shape[d] != 1) kept[count++] = d;
  for (int k = 0; k < N; ++k) loop.base[k] = static_cast<char*>(ops[k]->data());
  int nd = 0;
  for (int i = count - 1; i >= 0; --i) {
    int d = kept[i];
    bool merged = false;
    if (nd > 0) {
      int last = nd - 1;
      merged = true;
      for (int k = 0; k < N; ++k) {
        int64_t item = static_cast<int64_t>(itemsize(ops[k]->dtype));
        if (ops[k]->strides[d] * item != loop.strides[k][last] * loop.shape[last]) {
          merged = false;
          break;
        }
      }
      if (merged) loop.shape[last] *= shape[d];
    }
    if (!merged) {
      loop.shape[nd] = shape[d];
      for (int k = 0; k < N; ++k)
        loop.strides[k][nd] =
            ops[k]->strides[d] * static_cast<int64_t>(itemsize(ops[k]->dtype));
      ++nd;
    }
  }
  // Dimensions were collected innermost first; flip them to row-major order.
  std::reverse(loop.shape.begin(), loop.shape.begin() + nd);
  for (int k = 0; k < N; ++k) std::reverse(loop.strides[k].begin(), loop.strides[k].begin() + nd);
  if (nd == 0) {  // a scalar: one element
    nd = 1;
    loop.shape[0] = 1;
    for (int k = 0; k < N; ++k) loop.strides[k][0] = 0;
  }
  loop.ndim = nd;
  return loop;
}

/// Calls kernel(ptrs, inner_strides, n) for every run of the flat range [begin, end).
template <int N, typename Kernel>
void run_range(const StridedLoop<N>& loop, int64_t begin, int64_t end, Kernel& kernel) {
  const int nd = loop.ndim;
  const int64_t inner = loop.shape[nd - 1];
  std::array<int64_t, kMaxLoopDims> idx{};
  int64_t rest = begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rest % loop.shape[d];
    rest /= loop.shape[d];
  }
  std::array<char*, N> ptr;
  std::array<int64_t, N> inner_stride;
  for (int k = 0; k < N; ++k) {
    int64_t off = 0;
    for (int d = 0; d < nd; ++d) off += idx[d] * loop.strides[k][d];
    ptr[k] = loop.base[k] + off;
    inner_stride[k] = loop.strides[k][nd - 1];
  }
  int64_t pos = begin;
  while (pos < end) {
    int64_t n = std::min(inner - idx[nd - 1], end - pos);
    kernel(ptr.data(), inner_stride.data(), n);
    pos += n;
    if (pos >= end) break;
    // Advance to the start of the next run.
    idx[nd - 1] += n;
    for (int k = 0; k < N; ++k) ptr[k] += n * inner_stride[k];
    for (int d = nd - 1; d > 0 && idx[d] == loop.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
      for (int k = 0; k < N; ++k)
        ptr[k] += loop.strides[k][d - 1] - loop.shape[d] * loop.strides[k][d];
    }
  }
}

/// Runs the kernel over the whole loop, in parallel when it is large enough.
template <int N, typename Kernel>
void run_loop(const StridedLoop<N>& loop, Kernel kernel, int64_t grain = kElementwiseGrain) {
  int64_t total = loop.numel();
  if (total == 0) return;
  if (total <= grain) {
    run_range(loop, 0, total, kernel);
    return;
  }
  parallel_for(total, grain, [&](int64_t b, int64_t e) {
    Kernel local = kernel;
    run_range(loop, b, e, local);
  });
}

/// True when two positions of `a` that differ would share an address (a window view).
bool has_internal_overlap(const backend::Array& a);

}  // namespace keras::cpu

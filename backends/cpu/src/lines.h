#pragma once
// Iteration over the 1-d lines of a tensor along one axis, for ops that work line by line
// (scans, arg-reductions, sorting, gather and scatter).

#include <algorithm>
#include <cstdint>

#include "keras/backend/storage.h"
#include "loops.h"

namespace keras::cpu {

/// The axes other than `axis` of up to three same-shaped operands, as byte strides.
template <int N>
struct LineSet {
  int n = 0;
  int64_t size[kMaxLoopDims];
  int64_t stride[N][kMaxLoopDims];
  int64_t count = 1;

  void offsets(int64_t i, int64_t (&off)[N]) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int d = n - 1; d >= 0; --d) {
      int64_t idx = i % size[d];
      i /= size[d];
      for (int k = 0; k < N; ++k) off[k] += idx * stride[k][d];
    }
  }
};

/// Lines along `axis`, iterating over `shape` minus that axis.
template <int N>
LineSet<N> make_lines(const Shape& shape, int axis, const backend::Array* const (&ops)[N]) {
  LineSet<N> lines;
  for (int d = 0; d < shape.rank(); ++d) {
    if (d == axis || shape[d] == 1) continue;
    lines.size[lines.n] = shape[d];
    for (int k = 0; k < N; ++k)
      lines.stride[k][lines.n] = ops[k]->strides[d] * static_cast<int64_t>(itemsize(ops[k]->dtype));
    lines.count *= shape[d];
    ++lines.n;
  }
  if (shape.numel() == 0) lines.count = 0;
  return lines;
}

/// Runs fn(line_index, offsets) for every line, in parallel; `work_per_line` sizes the chunks.
template <int N, typename F>
void for_each_line(const LineSet<N>& lines, int64_t work_per_line, F fn) {
  int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(work_per_line, 1));
  parallel_for(lines.count, grain, [&](int64_t b, int64_t e) {
    int64_t off[N];
    for (int64_t i = b; i < e; ++i) {
      lines.offsets(i, off);
      fn(i, off);
    }
  });
}

}  // namespace keras::cpu

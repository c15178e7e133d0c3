#include "gemm_layout.h"

#include <climits>

namespace keras::cuda {

std::optional<GemmMatrix> gemm_matrix(const Shape& batch, int64_t rows, int64_t cols,
                                      const Strides& strides) {
  const int nb = batch.rank();
  if (strides.size() != static_cast<size_t>(nb + 2) || rows > INT_MAX || cols > INT_MAX)
    return std::nullopt;
  for (int64_t s : strides)
    if (s < 0) return std::nullopt;
  GemmMatrix m;
  // The batch axes of extent > 1 must step as one axis: each stride the next one's times its
  // extent (all zero when broadcast).
  bool first = true;
  int64_t step = 0, span = 0;
  for (int i = nb - 1; i >= 0; --i) {
    if (batch[i] == 1) continue;
    if (first) {
      step = strides[i];
      first = false;
    } else if (strides[i] != step * span) {
      return std::nullopt;
    }
    span = span ? span * batch[i] : batch[i];
  }
  m.batch_stride = step;
  const int64_t sr = strides[nb], sc = strides[nb + 1];
  if ((cols == 1 || sc == 1) && (rows == 1 || sr >= cols)) {  // row-major
    m.ld = rows == 1 ? (cols > 1 ? cols : 1) : sr;
  } else if ((rows == 1 || sr == 1) && (cols == 1 || sc >= rows)) {  // column-major
    m.transposed = true;
    m.ld = cols == 1 ? (rows > 1 ? rows : 1) : sc;
  } else {
    return std::nullopt;
  }
  if (m.ld > INT_MAX) return std::nullopt;
  return m;
}

GemmCall gemm_call(const GemmMatrix& a, const GemmMatrix& b, int64_t M, int64_t N, int64_t K) {
  GemmCall c;
  c.trans_first = b.transposed;
  c.trans_second = a.transposed;
  c.m = N;
  c.n = M;
  c.k = K;
  c.ld_first = b.ld;
  c.stride_first = b.batch_stride;
  c.ld_second = a.ld;
  c.stride_second = a.batch_stride;
  c.ldc = N;
  c.stride_c = M * N;
  return c;
}

}  // namespace keras::cuda

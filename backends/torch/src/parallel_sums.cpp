#include "parallel_sums.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <vector>

namespace keras::torch_backend {
namespace {

// The float64 column sums of an n x columns matrix whose row r `row(r, scratch)` produces (a
// pointer to its floats): blocks of about 16 384 floats (each thread's float64 row stays in
// its L1 cache) on ATen's threads, then the blocks' sums added in order.
template <typename Row>
at::Tensor column_sums(int64_t n, int64_t columns, const Row& row) {
  const int64_t block = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(1, columns));
  const int64_t blocks = (n + block - 1) / block;
  std::vector<double> partial(static_cast<size_t>(blocks * columns), 0.0);
  at::parallel_for(0, blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t b = first; b < last; ++b) {
      double* sum = partial.data() + b * columns;
      for (int64_t r = b * block; r < std::min(n, (b + 1) * block); ++r) {
        const float* values = row(r);
        for (int64_t c = 0; c < columns; ++c) sum[c] += values[c];
      }
    }
  });
  at::Tensor total = at::zeros({columns}, at::TensorOptions().dtype(at::kDouble));
  double* out = total.data_ptr<double>();
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t c = 0; c < columns; ++c) out[c] += partial[b * columns + c];
  return total;
}

// dz = g where y > 0, else 0, over elements [begin, end).
void relu_backward_range(float* dz, const float* y, const float* g, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) dz[i] = y[i] > 0 ? g[i] : 0.0f;
}

}  // namespace

at::Tensor sum_float_rows_in_float64(const at::Tensor& rows) {
  TORCH_CHECK(rows.dim() == 2 && rows.scalar_type() == at::kFloat && rows.is_contiguous(),
              "sum_float_rows_in_float64: a contiguous 2-D float32 tensor is required");
  const float* data = rows.data_ptr<float>();
  const int64_t columns = rows.size(1);
  return column_sums(rows.size(0), columns, [&](int64_t r) { return data + r * columns; });
}

at::Tensor relu_backward_and_sums(at::Tensor& dz, const at::Tensor& y, const at::Tensor& g,
                                  bool sums) {
  TORCH_CHECK(dz.scalar_type() == at::kFloat && y.scalar_type() == at::kFloat &&
                  g.scalar_type() == at::kFloat && dz.is_contiguous() && y.is_contiguous() &&
                  g.is_contiguous() && dz.sizes() == y.sizes() && dz.sizes() == g.sizes(),
              "relu_backward_and_sums: contiguous float32 tensors of one shape are required");
  float* out = dz.data_ptr<float>();
  const float* yv = y.data_ptr<float>();
  const float* gv = g.data_ptr<float>();
  const int64_t numel = dz.numel();
  if (!sums) {
    at::parallel_for(0, numel, 1 << 14, [&](int64_t begin, int64_t end) {
      relu_backward_range(out, yv, gv, begin, end);
    });
    return {};
  }
  // The gradient of each row is written, then summed while it is in cache.
  const int64_t columns = dz.dim() == 0 ? 1 : dz.size(-1);
  return column_sums(numel / std::max<int64_t>(1, columns), columns, [&](int64_t r) {
    relu_backward_range(out, yv, gv, r * columns, (r + 1) * columns);
    return out + r * columns;
  });
}

}  // namespace keras::torch_backend

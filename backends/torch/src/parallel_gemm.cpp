#include "parallel_gemm.h"

#include <ATen/Parallel.h>
#include <cblas.h>

#include <algorithm>
#include <vector>

namespace keras::torch_backend {
namespace {

// Below about 64^3 multiply-adds a product is done before the threads are woken.
constexpr int64_t kWorkPerPart = int64_t{1} << 18;

// Splits [0, n) into one range per thread (fewer for little work) and runs part(lo, hi) on
// ATen's pool.
template <typename F>
void split(int64_t n, int64_t work, F&& part) {
  const int64_t parts =
      std::min<int64_t>({n, at::get_num_threads(), std::max<int64_t>(1, work / kWorkPerPart)});
  if (parts <= 1 || at::in_parallel_region()) {
    part(0, n);
    return;
  }
  at::parallel_for(0, parts, 1, [&](int64_t first, int64_t last) {
    for (int64_t p = first; p < last; ++p) part(n * p / parts, n * (p + 1) / parts);
  });
}

// dst = bias + a @ b (no bias when undefined), split along dst's longer side. A bias is 1-D.
void mm_2d(const at::Tensor& dst, const at::Tensor& bias, const at::Tensor& a,
           const at::Tensor& b) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  const bool by_rows = m >= n;
  split(by_rows ? m : n, m * n * k, [&](int64_t lo, int64_t hi) {
    const int64_t len = hi - lo;
    at::Tensor out = dst.narrow(by_rows ? 0 : 1, lo, len);
    at::Tensor x = by_rows ? a.narrow(0, lo, len) : a;
    at::Tensor y = by_rows ? b : b.narrow(1, lo, len);
    if (!bias.defined())
      at::mm_out(out, x, y);
    else
      at::addmm_out(out, by_rows ? bias : bias.narrow(0, lo, len), x, y);
  });
}

std::vector<int64_t> batch_sizes(const at::Tensor& t) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end() - 2);
}

}  // namespace

void single_threaded_blas() {
  // A plain read of the count; the setter runs only when it is not 1 (the first product, or
  // after code outside keras-cpp changed it), as the cpu backend's gemm does.
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

void matmul_into(at::Tensor& dst, const at::Tensor& a, const at::Tensor& b) {
  if (!dst.is_cpu()) {  // a GPU's product is one kernel: nothing to split
    at::matmul_out(dst, a, b);
    return;
  }
  single_threaded_blas();
  if (a.dim() == 2 && b.dim() == 2) return mm_2d(dst, {}, a, b);
  // Vectors (ATen's gemv and dot) and outputs that cannot be seen as one stack of matrices.
  if (a.dim() < 2 || b.dim() < 2 || !dst.is_contiguous()) {
    at::matmul_out(dst, a, b);
    return;
  }
  const int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  if (b.dim() == 2) {  // (..., m, k) @ (k, n): one product of all the rows
    mm_2d(dst.view({-1, n}), {}, a.reshape({-1, k}), b);
    return;
  }
  // Both batched: broadcast the batch axes, then split the stack of products.
  std::vector<int64_t> batch = at::infer_size(batch_sizes(a), batch_sizes(b));
  std::vector<int64_t> a_sizes = batch, b_sizes = batch;
  a_sizes.insert(a_sizes.end(), {m, k});
  b_sizes.insert(b_sizes.end(), {k, n});
  at::Tensor a3 = a.expand(a_sizes).reshape({-1, m, k});
  at::Tensor b3 = b.expand(b_sizes).reshape({-1, k, n});
  at::Tensor d3 = dst.view({-1, m, n});
  const int64_t count = d3.size(0);
  if (count < at::get_num_threads()) {  // a few large products: each split on its own
    for (int64_t i = 0; i < count; ++i)
      mm_2d(d3.select(0, i), {}, a3.select(0, i), b3.select(0, i));
    return;
  }
  split(count, count * m * n * k, [&](int64_t lo, int64_t hi) {
    at::Tensor out = d3.narrow(0, lo, hi - lo);
    at::bmm_out(out, a3.narrow(0, lo, hi - lo), b3.narrow(0, lo, hi - lo));
  });
}

void addmm_into(at::Tensor& dst, const at::Tensor& bias, const at::Tensor& a, const at::Tensor& b) {
  single_threaded_blas();
  if (bias.dim() != 1 || !dst.is_cpu()) {
    at::addmm_out(dst, bias, a, b);
    return;
  }
  mm_2d(dst, bias, a, b);
}

}  // namespace keras::torch_backend

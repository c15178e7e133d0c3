// The backward pass of a bias-and-activation epilogue in one pass over the rows: dz = g times
// the activation's derivative (written with the output y), and the bias gradient db, the
// column sums of dz, accumulated in float64 as the cpu backend's sums are. The arithmetic is
// that of the ops it replaces (where(y > 0, g, 0); g * (y * (1 - y)); g * (1 - y * y)), so a
// fused layer trains as its unfused ops do.

#include <algorithm>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "spatial.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

using backend::Activation;

// Rows per partial sum of db: partial sums are added in slice order, so db depends neither on
// the number of threads nor on timing.
constexpr int64_t kBiasGradSliceRows = 256;

template <typename C, Activation ACT>
inline C grad_of(C y, C g) {
  if constexpr (ACT == Activation::Relu) return y > C(0) ? g : C(0);
  if constexpr (ACT == Activation::Sigmoid) return g * (y * (C(1) - y));
  if constexpr (ACT == Activation::Tanh) return g * (C(1) - y * y);
  return g;
}

template <typename T, Activation ACT>
void run(T* dz, T* db, const T* y, const T* g, int64_t rows, int64_t n) {
  using C = compute_t<T>;
  const int64_t slices = std::max<int64_t>(1, (rows + kBiasGradSliceRows - 1) / kBiasGradSliceRows);
  std::vector<double> partial(db ? static_cast<size_t>(slices * n) : 0, 0.0);
  const int64_t grain =
      std::max<int64_t>(1, kElementwiseGrain / (kBiasGradSliceRows * std::max<int64_t>(n, 1)));
  parallel_for(slices, grain, [&](int64_t b, int64_t e) {
    for (int64_t s = b; s < e; ++s) {
      double* sum = db ? partial.data() + s * n : nullptr;
      for (int64_t r = s * kBiasGradSliceRows; r < std::min(rows, (s + 1) * kBiasGradSliceRows);
           ++r) {
        const T* yr = y + r * n;
        const T* gr = g + r * n;
        T* out = dz + r * n;
        for (int64_t j = 0; j < n; ++j)
          out[j] = convert<T>(grad_of<C, ACT>(convert<C>(yr[j]), convert<C>(gr[j])));
        if (sum)
          for (int64_t j = 0; j < n; ++j) sum[j] += static_cast<double>(convert<C>(out[j]));
      }
    }
  });
  if (!db) return;
  for (int64_t j = 0; j < n; ++j) {
    double total = 0;
    for (int64_t s = 0; s < slices; ++s) total += partial[s * n + j];
    db[j] = convert<T>(static_cast<C>(total));
  }
}

// `a` itself when contiguous, else a contiguous copy from the backend's allocator.
Array contiguous(CpuBackend& be, const Array& a) {
  if (a.is_contiguous()) return a;
  Array c = scratch(be, a.dtype, a.shape);
  be.copy(c, a, backend::CopyMode::Assign);
  return c;
}

}  // namespace

void CpuBackend::bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                          const Array& g, Activation activation) {
  if (!is_floating(y.dtype)) unsupported("bias_activation_backward on integer tensors");
  if (activation == Activation::Gelu || activation == Activation::Silu ||
      activation == Activation::Relu6)
    unsupported("bias_activation_backward of gelu, silu or relu6 (inference-only activations)");
  const int64_t n = y.rank() == 0 ? 1 : y.shape[y.rank() - 1];
  const int64_t rows = n == 0 ? 0 : y.numel() / n;
  const Array yc = contiguous(*this, y), gc = contiguous(*this, g);
  const bool dz_direct = dz.is_contiguous(), db_direct = !db.storage || db.is_contiguous();
  const Array dzc = dz_direct ? dz : scratch(*this, dz.dtype, dz.shape);
  const Array dbc = db_direct ? db : scratch(*this, db.dtype, db.shape);
  visit_dtype(y.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<T>) {
      T* dbp = dbc.storage ? static_cast<T*>(dbc.data()) : nullptr;
      auto go = [&]<Activation ACT>() {
        run<T, ACT>(static_cast<T*>(dzc.data()), dbp, static_cast<const T*>(yc.data()),
                    static_cast<const T*>(gc.data()), rows, n);
      };
      switch (activation) {
        case Activation::Relu: go.template operator()<Activation::Relu>(); break;
        case Activation::Sigmoid: go.template operator()<Activation::Sigmoid>(); break;
        case Activation::Tanh: go.template operator()<Activation::Tanh>(); break;
        default: go.template operator()<Activation::None>(); break;
      }
    }
  });
  if (!dz_direct) copy(dz, dzc, backend::CopyMode::Assign);
  if (!db_direct) copy(db, dbc, backend::CopyMode::Assign);
}

}  // namespace keras::cpu

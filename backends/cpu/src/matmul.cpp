// Batched matrix multiplication: OpenBLAS (through gemm.h) for float32/float64 (float16 and
// bfloat16 go through float32), straightforward loops with NumPy's wrapping semantics for
// integers.

#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "gemm.h"
#include "lines.h"

namespace keras::cpu {
namespace {

// How a strided matrix maps onto BLAS's (transpose flag, leading dimension), if it does.
struct BlasMatrix {
  bool ok = false;
  bool trans = false;
  int64_t ld = 0;
};

BlasMatrix blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  BlasMatrix m;
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1))) {
    m.ok = true;
    m.ld = rows == 1 ? std::max<int64_t>(cols, 1) : rs;
  } else if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1))) {
    m.ok = true;
    m.trans = true;
    m.ld = cols == 1 ? std::max<int64_t>(rows, 1) : cs;
  }
  return m;
}

// Copies a strided (rows, cols) matrix into dense row-major storage of type D.
template <typename D, typename T>
void pack(D* dst, const char* src, int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      dst[i * cols + j] = convert<D>(*reinterpret_cast<const T*>(src + (i * rs + j * cs) * static_cast<int64_t>(sizeof(T))));
}

// One (M, K) @ (K, N) product in BLAS precision F, with T the storage type.
template <typename T, typename F>
void matmul_one_blas(char* o, const char* a, const char* b, int64_t M, int64_t N, int64_t K,
                     const int64_t (&as)[2], const int64_t (&bs)[2]) {
  F* c = reinterpret_cast<F*>(o);
  std::vector<F> c_tmp;
  if constexpr (!std::is_same_v<T, F>) {
    c_tmp.resize(static_cast<size_t>(M * N));
    c = c_tmp.data();
  }
  if (K == 0) {
    std::fill(c, c + M * N, F(0));
  } else {
    std::vector<F> a_tmp, b_tmp;
    BlasMatrix la = std::is_same_v<T, F> ? blas_layout(M, K, as[0], as[1]) : BlasMatrix{};
    BlasMatrix lb = std::is_same_v<T, F> ? blas_layout(K, N, bs[0], bs[1]) : BlasMatrix{};
    const F* pa = reinterpret_cast<const F*>(a);
    const F* pb = reinterpret_cast<const F*>(b);
    if (!la.ok) {
      a_tmp.resize(static_cast<size_t>(M * K));
      pack<F, T>(a_tmp.data(), a, M, K, as[0], as[1]);
      pa = a_tmp.data();
      la = BlasMatrix{true, false, K};
    }
    if (!lb.ok) {
      b_tmp.resize(static_cast<size_t>(K * N));
      pack<F, T>(b_tmp.data(), b, K, N, bs[0], bs[1]);
      pb = b_tmp.data();
      lb = BlasMatrix{true, false, N};
    }
    gemm(la.trans, lb.trans, M, N, K, pa, la.ld, pb, lb.ld, F(0), c, N);
  }
  if constexpr (!std::is_same_v<T, F>) {
    T* out = reinterpret_cast<T*>(o);
    for (int64_t i = 0; i < M * N; ++i) out[i] = convert<T>(c[i]);
  }
}

// Integer and bool products: i-k-j loops, wrapping like NumPy (bool: or of ands).
template <typename T>
void matmul_one_loops(char* o, const char* a, const char* b, int64_t M, int64_t N, int64_t K,
                      const int64_t (&as)[2], const int64_t (&bs)[2]) {
  T* out = reinterpret_cast<T*>(o);
  std::fill(out, out + M * N, T(0));
  auto at = [&](const char* base, int64_t i, int64_t j, const int64_t (&s)[2]) {
    return *reinterpret_cast<const T*>(base + (i * s[0] + j * s[1]) * static_cast<int64_t>(sizeof(T)));
  };
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k) {
      T av = at(a, i, k, as);
      for (int64_t j = 0; j < N; ++j) {
        if constexpr (std::is_same_v<T, bool>) {
          out[i * N + j] = out[i * N + j] || (av && at(b, k, j, bs));
        } else {
          using U = std::make_unsigned_t<T>;
          out[i * N + j] = static_cast<T>(static_cast<U>(out[i * N + j]) +
                                          static_cast<U>(av) * static_cast<U>(at(b, k, j, bs)));
        }
      }
    }
}

}  // namespace

void CpuBackend::matmul(const Array& out, const Array& a, const Array& b) {
  const int r = out.rank();
  const int64_t M = out.shape[r - 2], N = out.shape[r - 1], K = a.shape[r - 1];
  if (M == 0 || N == 0) return;
  const int64_t as[2] = {a.strides[r - 2], a.strides[r - 1]};
  const int64_t bs[2] = {b.strides[r - 2], b.strides[r - 1]};
  // Batch axes: every axis but the last two, walked like lines.
  Shape batch_shape(out.shape.begin(), out.shape.end() - 2);
  batch_shape.push_back(1);
  Array o2 = out, a2 = a, b2 = b;
  for (Array* x : {&o2, &a2, &b2}) {
    x->shape = batch_shape;
    x->strides.resize(r - 1);
  }
  const backend::Array* ops[3] = {&o2, &a2, &b2};
  auto lines = make_lines<3>(batch_shape, r - 2, ops);
  char* ob = static_cast<char*>(out.data());
  const char* ab = static_cast<const char*>(a.data());
  const char* bb = static_cast<const char*>(b.data());
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    auto one = [&](int64_t, const int64_t (&off)[3]) {
      char* o = ob + off[0];
      const char* pa = ab + off[1];
      const char* pb = bb + off[2];
      if constexpr (std::is_same_v<T, double>) {
        matmul_one_blas<T, double>(o, pa, pb, M, N, K, as, bs);
      } else if constexpr (is_float_v<T>) {
        matmul_one_blas<T, float>(o, pa, pb, M, N, K, as, bs);
      } else {
        matmul_one_loops<T>(o, pa, pb, M, N, K, as, bs);
      }
    };
    // Big products are split over the pool by gemm(); many small ones are spread over it here.
    const int64_t work = M * N * std::max<int64_t>(K, 1);
    if (lines.count > 1 && work < kSingleThreadGemm) {
      for_each_line(lines, work, one);
    } else {
      int64_t off[3];
      for (int64_t i = 0; i < lines.count; ++i) {
        lines.offsets(i, off);
        one(i, off);
      }
    }
  });
}

}  // namespace keras::cpu

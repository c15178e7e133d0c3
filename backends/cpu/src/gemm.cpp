#include "gemm.h"

#include <cblas.h>

#include <algorithm>

#include "thread_pool.h"

namespace keras::cpu {
namespace {

// Parts are multiples of this many rows/columns, so OpenBLAS's micro-kernels see full tiles.
constexpr int64_t kPartAlign = 16;
// Every part packs the whole of the other operand again, a cost that shrinks with the part's
// length: 8% of a 256-row part of a 1024^3 product on a Xeon, 4% at 512 rows. Row parts are cut
// shorter than this only to give each thread one. Column parts (a short, wide product: a few
// rows through a wide layer) keep two per thread: with fewer, wider ones a row's bits changed
// with the batch it was computed in (tests/serving/server_test.cpp compares them bit for bit,
// as keras-cpp serve's dynamic batching needs), which splitting rows never does.
constexpr int64_t kMinPartExtent = 512;

inline CBLAS_TRANSPOSE trans(bool t) { return t ? CblasTrans : CblasNoTrans; }

void call(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, trans(ta), trans(tb), static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), beta,
              c, static_cast<int>(ldc));
}

void call(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, trans(ta), trans(tb), static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0, a, static_cast<int>(lda), b, static_cast<int>(ldb), beta,
              c, static_cast<int>(ldc));
}

template <typename F>
void split_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const F* a, int64_t lda,
                const F* b, int64_t ldb, F beta, F* c, int64_t ldc) {
  single_threaded_blas();
  const int threads = num_threads();
  if (threads <= 1 || m * n * std::max<int64_t>(k, 1) <= kSingleThreadGemm ||
      in_parallel_region()) {
    call(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  // Split the longer side of c: each part then re-reads (packs) the shorter operand only.
  // Up to 2 parts per thread, handed out as threads free up, so that a thread the OS runs late
  // (on a busy machine) does not leave the others waiting (row parts: where they stay
  // kMinPartExtent long); parts stay above the single-call size and a multiple of kPartAlign.
  const bool by_rows = m >= n;
  const int64_t extent = by_rows ? m : n;
  const int64_t work = m * n * std::max<int64_t>(k, 1);
  const int64_t per_thread =
      by_rows ? std::max<int64_t>(threads, std::min<int64_t>(2 * threads, extent / kMinPartExtent))
              : 2 * threads;
  const int64_t wanted = std::min<int64_t>(per_thread, work / kSingleThreadGemm);
  int64_t part = (extent + wanted - 1) / wanted;
  part = (part + kPartAlign - 1) / kPartAlign * kPartAlign;
  const int64_t parts = (extent + part - 1) / part;
  parallel_tasks(parts, [&](int64_t p) {
    const int64_t lo = p * part, len = std::min(extent, lo + part) - lo;
    if (by_rows) {  // rows lo.. of op(a) and of c
      const F* ap = ta ? a + lo : a + lo * lda;
      call(ta, tb, len, n, k, ap, lda, b, ldb, beta, c + lo * ldc, ldc);
    } else {  // columns lo.. of op(b) and of c
      const F* bp = tb ? b + lo * ldb : b + lo;
      call(ta, tb, m, len, k, a, lda, bp, ldb, beta, c + lo, ldc);
    }
  });
}

}  // namespace

void single_threaded_blas() {
  // A plain read of OpenBLAS's thread count; the setter runs only when it is not 1 (first use,
  // or after code outside keras-cpp changed it).
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  split_gemm(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  split_gemm(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace keras::cpu

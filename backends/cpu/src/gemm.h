#pragma once
// Every GEMM of the cpu backend goes through here. OpenBLAS runs single-threaded and large
// products are split over our own thread pool instead: Debian's pthread OpenBLAS keeps a second
// pool of workers that spin (sched_yield) for a long while after each threaded call, so next to
// our pool they fight for the cores on a small machine: on 2 cores that cost an LSTM training
// step a third of its time (bench/README.md). One pool, whose workers sleep when idle, avoids it.

#include <cstdint>

namespace keras::cpu {

/// c (m, n) = op(a) @ op(b) + beta * c, row-major, op = transpose when ta/tb. Splits the rows
/// (or columns) of c over the pool when the product is large enough and this is not already
/// a pool task; each part is one single-threaded OpenBLAS call on the same K, so the result
/// does not depend on the number of threads.
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

/// Products of at most this many multiply-adds (m * n * k) run as one call: below it OpenBLAS
/// itself stays on the calling thread, and a split costs more than it saves.
inline constexpr int64_t kSingleThreadGemm = int64_t{64} * 64 * 64;

/// Makes OpenBLAS single-threaded (again, if someone changed it): called before every GEMM
/// and by the LAPACK wrappers.
void single_threaded_blas();

}  // namespace keras::cpu

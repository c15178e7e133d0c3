// Linear algebra over batches of matrices (the last two axes) through LAPACKE's column-major
// _work interface (no NaN scan of the inputs, workspaces queried once per chunk) and BLAS trsm.
// Each matrix is copied from its strided input into a column-major buffer of float or double
// (float16 and bfloat16 compute in float; complex64 and complex128 in LAPACK's c and z
// routines), factored, and written to the contiguous row-major output. Many small matrices are
// spread over the thread pool; large ones use OpenBLAS's own threads.
//
// Complex matrices reach only these primitives (every other kernel sees real views): their
// singular values and Hermitian eigenvalues are real arrays of the part dtype, and eig's values
// and vectors are (real, imaginary) pairs as for real input.

#include <complex>

// LAPACKE's complex arguments as std::complex, layout-compatible with keras-cpp's complex storage.
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu_backend.h"
#include "keras/core/errors.h"
#include "dtype_traits.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

// ---- batches and layouts ---------------------------------------------------------------------

// Offset in elements of matrix `i` of a batch laid out over the leading `batch_rank` axes.
int64_t batch_offset(const Array& a, int batch_rank, int64_t i) {
  int64_t off = a.offset;
  for (int d = batch_rank - 1; d >= 0; --d) {
    const int64_t n = a.shape[d];
    off += (i % n) * a.strides[d];
    i /= n;
  }
  return off;
}

int64_t batch_count(const Array& a) {
  int64_t n = 1;
  for (int d = 0; d < a.rank() - 2; ++d) n *= a.shape[d];
  return n;
}

// A pointer to matrix `i` of `a` as element type T.
template <typename T>
const T* matrix_at(const Array& a, int64_t i) {
  return static_cast<const T*>(a.storage->data()) + batch_offset(a, a.rank() - 2, i);
}
template <typename T>
T* out_matrix(const Array& a, int64_t i, int64_t size) {
  return static_cast<T*>(a.storage->data()) + a.offset + i * size;
}

// The strides of the last two axes of `a`.
struct MatrixStrides {
  int64_t rs, cs;
};
MatrixStrides matrix_strides(const Array& a) {
  return {a.strides[a.rank() - 2], a.strides[a.rank() - 1]};
}

// dst (column-major, leading dimension ld) = the strided (rows, cols) matrix at src.
template <typename F, typename T>
void pack_col_major(F* dst, int64_t ld, const T* src, int64_t rows, int64_t cols,
                    MatrixStrides s) {
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) dst[i + j * ld] = convert<F>(src[i * s.rs + j * s.cs]);
}

// dst (contiguous row-major, rows x cols) = src (column-major, leading dimension ld).
template <typename T, typename F>
void unpack_col_major(T* dst, const F* src, int64_t ld, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) dst[i * cols + j] = convert<T>(src[i + j * ld]);
}

// ---- real and complex element types ----------------------------------------------------------

using c64 = std::complex<float>;
using c128 = std::complex<double>;

template <typename T>
struct PartOf {
  using type = T;
};
template <typename R>
struct PartOf<std::complex<R>> {
  using type = R;
};
/// The real type of T's parts: T itself for real types.
template <typename T>
using part_t = typename PartOf<T>::type;

template <typename T>
inline constexpr bool is_complex_v = !std::is_same_v<part_t<T>, T>;

template <typename F>
bool is_nan(F v) {
  if constexpr (is_complex_v<F>)
    return std::isnan(v.real()) || std::isnan(v.imag());
  else
    return std::isnan(v);
}

template <typename T>
void fill_nan(T* dst, int64_t n) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  if constexpr (is_complex_v<T>)
    std::fill(dst, dst + n, T(nan, nan));
  else
    std::fill(dst, dst + n, convert<T>(nan));
}

template <typename T>
void fill_identity(T* dst, int64_t n) {
  std::fill(dst, dst + n * n, convert<T>(0.0f));
  for (int64_t i = 0; i < n; ++i) dst[i * n + i] = convert<T>(1.0f);
}

lapack_int lapack_dim(int64_t n, std::string_view what) {
  check<RuntimeError>(n <= INT_MAX, "cpu linalg ", what, ": dimension ", n,
                      " exceeds LAPACK's 32-bit index range.");
  return static_cast<lapack_int>(n);
}

lapack_int ld_of(int64_t n) { return static_cast<lapack_int>(std::max<int64_t>(n, 1)); }

// Runs fn(begin, end) over the batch: in parallel when the matrices are small (each costs about
// `flops`), else on this thread so that OpenBLAS threads each factorization itself.
template <typename Fn>
void for_each_matrix(int64_t count, double flops, const Fn& fn) {
  if (count <= 0) return;
  if (count == 1 || flops > 64.0 * 64.0 * 64.0) {
    fn(int64_t{0}, count);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, static_cast<int64_t>(65536.0 / std::max(flops, 1.0)));
  parallel_for(count, grain, fn);
}

// Calls fn(T{}, F{}) with T the storage type of a float or complex dtype and F its LAPACK type.
template <typename Fn>
void visit_float(DType dtype, std::string_view what, const Fn& fn) {
  switch (dtype) {
    case DType::Float32: return fn(float{}, float{});
    case DType::Float64: return fn(double{}, double{});
    case DType::Float16: return fn(float16_t{}, float{});
    case DType::BFloat16: return fn(bfloat16_t{}, float{});
    case DType::Complex64:
      return fn(c64{}, c64{});
    case DType::Complex128:
      return fn(c128{}, c128{});
    default:
      throw TypeError(keras::detail::cat(
          "cpu linalg ", what, ": expected a floating or complex dtype, got ", dtype, "."));
  }
}

// The storage type of the real results (singular values, Hermitian eigenvalues) of T matrices.
template <typename T>
using real_storage_t = std::conditional_t<is_complex_v<T>, part_t<T>, T>;

// A buffer for a matrix LAPACK works on, with slack behind it. OpenBLAS 0.3.21's gemv kernels
// (zgemv_n, in the Householder updates of zlarf) read one element past the last column they are
// given: AddressSanitizer found it as a SEGV on the page after a 4x3 complex matrix in zgesdd
// (also with OPENBLAS_CORETYPE=Haswell). The slack is never read into a result.
constexpr int64_t kLapackSlack = 8;
template <typename F>
std::vector<F> lapack_matrix(int64_t elements) {
  return std::vector<F>(static_cast<size_t>(std::max<int64_t>(elements, 1) + kLapackSlack));
}

// ---- LAPACK by precision -------------------------------------------------------------------
// s, d, c and z routines behind one name each; the complex ones are the Hermitian counterparts
// (unitary Q from ungqr, Hermitian eigenproblems from heevd) and take real workspaces besides.

template <typename F>
lapack_int potrf(char uplo, lapack_int n, F* a, lapack_int lda) {
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, uplo, n, a, lda);
  else if constexpr (std::is_same_v<F, double>)
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, uplo, n, a, lda);
  else if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, uplo, n, a, lda);
  else
    return LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, uplo, n, a, lda);
}

template <typename F>
lapack_int getrf(lapack_int m, lapack_int n, F* a, lapack_int lda, lapack_int* ipiv) {
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
  else if constexpr (std::is_same_v<F, double>)
    return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
  else if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cgetrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
  else
    return LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
}

template <typename F>
lapack_int geqrf(lapack_int m, lapack_int n, F* a, lapack_int lda, F* tau, F* work,
                 lapack_int lwork) {
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);
  else if constexpr (std::is_same_v<F, double>)
    return LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);
  else if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cgeqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);
  else
    return LAPACKE_zgeqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);
}

// Q from geqrf's reflectors: orgqr for real matrices, ungqr (unitary) for complex ones.
template <typename F>
lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, F* a, lapack_int lda, const F* tau,
                 F* work, lapack_int lwork) {
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);
  else if constexpr (std::is_same_v<F, double>)
    return LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);
  else if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cungqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);
  else
    return LAPACKE_zungqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);
}

// rwork is used by the complex routines only (LAPACK's sizes: see svd below).
template <typename F>
lapack_int gesdd(char jobz, lapack_int m, lapack_int n, F* a, lapack_int lda, part_t<F>* s, F* u,
                 lapack_int ldu, F* vt, lapack_int ldvt, F* work, lapack_int lwork,
                 part_t<F>* rwork, lapack_int* iwork) {
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work,
                               lwork, iwork);
  else if constexpr (std::is_same_v<F, double>)
    return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work,
                               lwork, iwork);
  else if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work,
                               lwork, rwork, iwork);
  else
    return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work,
                               lwork, rwork, iwork);
}

// syevd for real matrices, heevd for complex (Hermitian) ones; a query (lwork = -1) writes the
// sizes of work, rwork and iwork.
template <typename F>
lapack_int syevd(char jobz, char uplo, lapack_int n, F* a, lapack_int lda, part_t<F>* w, F* work,
                 lapack_int lwork, part_t<F>* rwork, lapack_int lrwork, lapack_int* iwork,
                 lapack_int liwork) {
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork,
                               liwork);
  else if constexpr (std::is_same_v<F, double>)
    return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork,
                               liwork);
  else if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, rwork,
                               lrwork, iwork, liwork);
  else
    return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, rwork,
                               lrwork, iwork, liwork);
}

template <typename F>
lapack_int geev(char jobvr, lapack_int n, F* a, lapack_int lda, F* wr, F* wi, F* vr,
                lapack_int ldvr, F* work, lapack_int lwork) {
  F* no_vl = nullptr;  // left eigenvectors are never wanted
  if constexpr (std::is_same_v<F, float>)
    return LAPACKE_sgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, wr, wi, no_vl, 1, vr,
                              ldvr, work, lwork);
  else
    return LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, wr, wi, no_vl, 1, vr,
                              ldvr, work, lwork);
}

// The complex geev: eigenvalues w as complex numbers, rwork of 2n reals.
template <typename F>
lapack_int geev_complex(char jobvr, lapack_int n, F* a, lapack_int lda, F* w, F* vr,
                        lapack_int ldvr, F* work, lapack_int lwork, part_t<F>* rwork) {
  F* no_vl = nullptr;
  if constexpr (std::is_same_v<F, c64>)
    return LAPACKE_cgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, w, no_vl, 1, vr, ldvr, work,
                              lwork, rwork);
  else
    return LAPACKE_zgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, w, no_vl, 1, vr, ldvr, work,
                              lwork, rwork);
}

template <typename F>
void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, lapack_int m,
          lapack_int n, const F* a, lapack_int lda, F* b, lapack_int ldb) {
  if constexpr (std::is_same_v<F, float>) {
    cblas_strsm(CblasRowMajor, side, uplo, trans, diag, m, n, 1.0f, a, lda, b, ldb);
  } else if constexpr (std::is_same_v<F, double>) {
    cblas_dtrsm(CblasRowMajor, side, uplo, trans, diag, m, n, 1.0, a, lda, b, ldb);
  } else {
    const F one(1);
    if constexpr (std::is_same_v<F, c64>)
      cblas_ctrsm(CblasRowMajor, side, uplo, trans, diag, m, n, &one, a, lda, b, ldb);
    else
      cblas_ztrsm(CblasRowMajor, side, uplo, trans, diag, m, n, &one, a, lda, b, ldb);
  }
}

// The optimal workspace size a query (lwork = -1) wrote into `w`.
template <typename F>
lapack_int work_size(F w) {
  return std::max<lapack_int>(1, static_cast<lapack_int>(std::real(w)));
}

// eig of complex matrices begin..end: values (..., N, 2) and vectors (..., N, N, 2) of the part
// dtype, as (real, imaginary) pairs; false when some matrix did not converge (NaN results).
template <typename F>
bool eig_complex(const Array& values, const Array& vectors, const Array& x, int64_t begin,
                 int64_t end) {
  using R = part_t<F>;
  const int64_t n64 = x.shape[x.rank() - 1];
  const lapack_int n = static_cast<lapack_int>(n64);
  const bool want_vectors = static_cast<bool>(vectors.storage);
  const char jobvr = want_vectors ? 'V' : 'N';
  const MatrixStrides xs = matrix_strides(x);
  std::vector<F> a = lapack_matrix<F>(n64 * n64), vr = lapack_matrix<F>(want_vectors ? n64 * n64 : 1);
  std::vector<F> w(static_cast<size_t>(n64));
  std::vector<R> rwork(static_cast<size_t>(2 * n64));
  F query = 0;
  geev_complex<F>(jobvr, n, a.data(), n, w.data(), vr.data(), want_vectors ? n : 1, &query, -1,
                  rwork.data());
  std::vector<F> work(static_cast<size_t>(work_size(query)));
  bool ok = true;
  for (int64_t i = begin; i < end; ++i) {
    pack_col_major(a.data(), n64, matrix_at<F>(x, i), n64, n64, xs);
    // The outputs hold pairs of R, laid out as std::complex<R> is.
    F* vo = reinterpret_cast<F*>(out_matrix<R>(values, i, 2 * n64));
    F* eo = want_vectors ? reinterpret_cast<F*>(out_matrix<R>(vectors, i, 2 * n64 * n64)) : nullptr;
    const lapack_int info =
        geev_complex<F>(jobvr, n, a.data(), n, w.data(), vr.data(), want_vectors ? n : 1,
                        work.data(), static_cast<lapack_int>(work.size()), rwork.data());
    if (info != 0) {
      ok = false;
      fill_nan(vo, n64);
      if (eo) fill_nan(eo, n64 * n64);
      continue;
    }
    std::copy(w.begin(), w.end(), vo);
    if (eo) unpack_col_major(eo, vr.data(), n64, n64, n64);
  }
  return ok;
}

}  // namespace

bool CpuBackend::cholesky(const Array& out, const Array& x, bool upper) {
  const int r = x.rank();
  const int64_t n64 = x.shape[r - 1];
  const lapack_int n = lapack_dim(n64, "cholesky");
  const int64_t count = batch_count(x);
  const MatrixStrides xs = matrix_strides(x);
  std::atomic<bool> ok{true};
  if (n64 == 0) return true;
  visit_float(x.dtype, "cholesky", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = static_cast<double>(n64) * n64 * n64 / 3;
    for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
      std::vector<F> a = lapack_matrix<F>(n64 * n64);
      for (int64_t i = begin; i < end; ++i) {
        pack_col_major(a.data(), n64, matrix_at<T>(x, i), n64, n64, xs);
        T* o = out_matrix<T>(out, i, n64 * n64);
        // OpenBLAS's potrf lets NaNs through without an error; any NaN in the read triangle
        // reaches the factor's diagonal.
        bool failed = potrf<F>(upper ? 'U' : 'L', n, a.data(), n) != 0;
        for (int64_t j = 0; j < n64 && !failed; ++j) failed = is_nan(a[j + j * n64]);
        if (failed) {
          // Not positive definite: NaNs, as JAX writes; the caller reports it.
          fill_nan(o, n64 * n64);
          ok = false;
          continue;
        }
        for (int64_t row = 0; row < n64; ++row)
          for (int64_t col = 0; col < n64; ++col) {
            const bool kept = upper ? col >= row : col <= row;
            o[row * n64 + col] = convert<T>(kept ? a[row + col * n64] : F(0));
          }
      }
    });
  });
  return ok;
}

void CpuBackend::lu_factor(const Array& lu, const Array& pivots, const Array& x) {
  const int r = x.rank();
  const int64_t m64 = x.shape[r - 2], n64 = x.shape[r - 1], k64 = std::min(m64, n64);
  const lapack_int m = lapack_dim(m64, "lu_factor"), n = lapack_dim(n64, "lu_factor");
  const int64_t count = batch_count(x);
  const MatrixStrides xs = matrix_strides(x);
  if (m64 == 0 || n64 == 0) return;
  visit_float(x.dtype, "lu_factor", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = static_cast<double>(m64) * n64 * k64;
    for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
      std::vector<F> a = lapack_matrix<F>(m64 * n64);
      std::vector<lapack_int> ipiv(static_cast<size_t>(k64));
      for (int64_t i = begin; i < end; ++i) {
        pack_col_major(a.data(), m64, matrix_at<T>(x, i), m64, n64, xs);
        // info > 0 flags an exactly singular U, which is still a valid factorization.
        getrf<F>(m, n, a.data(), m, ipiv.data());
        unpack_col_major(out_matrix<T>(lu, i, m64 * n64), a.data(), m64, m64, n64);
        int32_t* p = out_matrix<int32_t>(pivots, i, k64);
        for (int64_t j = 0; j < k64; ++j) p[j] = static_cast<int32_t>(ipiv[j]);
      }
    });
  });
}

void CpuBackend::triangular_solve(const Array& out, const Array& a, const Array& b, bool lower,
                                  bool left, bool transpose_a, bool unit_diagonal) {
  const int r = out.rank();
  const int64_t m64 = out.shape[r - 2], n64 = out.shape[r - 1];
  const int64_t k64 = left ? m64 : n64;
  const lapack_int m = lapack_dim(m64, "triangular_solve"), n = lapack_dim(n64, "triangular_solve");
  const lapack_int k = static_cast<lapack_int>(k64);
  const int64_t count = batch_count(out);
  if (m64 == 0 || n64 == 0) return;
  const MatrixStrides as = matrix_strides(a), bs = matrix_strides(b);
  visit_float(out.dtype, "triangular_solve", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = static_cast<double>(k64) * k64 * (left ? n64 : m64);
    for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
      std::vector<F> abuf = lapack_matrix<F>(k64 * k64);
      std::vector<F> bbuf(std::is_same_v<T, F> ? 0 : static_cast<size_t>(m64 * n64));
      for (int64_t i = begin; i < end; ++i) {
        // Row-major packing: the column-major packer with rows and columns exchanged.
        pack_col_major(abuf.data(), k64, matrix_at<T>(a, i), k64, k64, {as.cs, as.rs});
        T* o = out_matrix<T>(out, i, m64 * n64);
        F* rhs = nullptr;
        if constexpr (std::is_same_v<T, F>) rhs = o;
        else rhs = bbuf.data();
        pack_col_major(rhs, n64, matrix_at<T>(b, i), n64, m64, {bs.cs, bs.rs});
        trsm<F>(left ? CblasLeft : CblasRight, lower ? CblasLower : CblasUpper,
                transpose_a ? CblasTrans : CblasNoTrans, unit_diagonal ? CblasUnit : CblasNonUnit,
                m, n, abuf.data(), k, rhs, n);
        if constexpr (!std::is_same_v<T, F>)
          for (int64_t j = 0; j < m64 * n64; ++j) o[j] = convert<T>(rhs[j]);
      }
    });
  });
}

void CpuBackend::qr(const Array& q, const Array& r_out, const Array& x, bool complete) {
  const int r = x.rank();
  const int64_t m64 = x.shape[r - 2], n64 = x.shape[r - 1], k64 = std::min(m64, n64);
  const int64_t kq = complete ? m64 : k64;  // columns of q, rows of r
  const lapack_int m = lapack_dim(m64, "qr"), n = lapack_dim(n64, "qr");
  const lapack_int k = static_cast<lapack_int>(k64);
  const int64_t count = batch_count(x);
  const MatrixStrides xs = matrix_strides(x);
  visit_float(x.dtype, "qr", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = 2.0 * static_cast<double>(m64) * n64 * k64;
    for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
      std::vector<F> a = lapack_matrix<F>(m64 * n64);
      std::vector<F> tau(static_cast<size_t>(std::max<int64_t>(k64, 1)));
      // Complete Q of a tall matrix needs more columns than the input has.
      const bool separate_q = kq > n64;
      std::vector<F> qbuf = lapack_matrix<F>(separate_q ? m64 * m64 : 0);
      std::vector<F> work;
      if (k64 > 0) {
        F query1 = 0, query2 = 0;
        geqrf<F>(m, n, a.data(), ld_of(m64), tau.data(), &query1, -1);
        orgqr<F>(m, static_cast<lapack_int>(kq), k, separate_q ? qbuf.data() : a.data(),
                 ld_of(m64), tau.data(), &query2, -1);
        work.resize(static_cast<size_t>(std::max(work_size(query1), work_size(query2))));
      }
      const lapack_int lwork = static_cast<lapack_int>(work.size());
      for (int64_t i = begin; i < end; ++i) {
        T* qo = out_matrix<T>(q, i, m64 * kq);
        T* ro = out_matrix<T>(r_out, i, kq * n64);
        if (k64 == 0) {
          // Nothing to factor: r is empty or zero and q is the identity (or empty).
          std::fill(ro, ro + kq * n64, convert<T>(0.0f));
          if (kq > 0) fill_identity(qo, m64);
          continue;
        }
        pack_col_major(a.data(), m64, matrix_at<T>(x, i), m64, n64, xs);
        geqrf<F>(m, n, a.data(), m, tau.data(), work.data(), lwork);
        for (int64_t row = 0; row < kq; ++row)
          for (int64_t col = 0; col < n64; ++col)
            ro[row * n64 + col] = convert<T>(row <= col ? a[row + col * m64] : F(0));
        F* qa = a.data();
        if (separate_q) {
          std::copy(a.begin(), a.begin() + m64 * n64, qbuf.begin());
          qa = qbuf.data();
        }
        orgqr<F>(m, static_cast<lapack_int>(kq), k, qa, m, tau.data(), work.data(), lwork);
        unpack_col_major(qo, qa, m64, m64, kq);
      }
    });
  });
}

void CpuBackend::svd(const Array& u, const Array& s, const Array& vt, const Array& x,
                     bool full_matrices) {
  const int r = x.rank();
  const int64_t m64 = x.shape[r - 2], n64 = x.shape[r - 1], k64 = std::min(m64, n64);
  const bool want_uv = static_cast<bool>(u.storage);
  const int64_t ucols = full_matrices ? m64 : k64, vrows = full_matrices ? n64 : k64;
  const char jobz = !want_uv ? 'N' : (full_matrices ? 'A' : 'S');
  const lapack_int m = lapack_dim(m64, "svd"), n = lapack_dim(n64, "svd");
  const int64_t count = batch_count(x);
  const MatrixStrides xs = matrix_strides(x);
  visit_float(x.dtype, "svd", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = 4.0 * static_cast<double>(m64) * n64 * k64;
    for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
      std::vector<F> a = lapack_matrix<F>(m64 * n64);
      using R = part_t<F>;
      using TS = real_storage_t<T>;
      std::vector<R> sv(static_cast<size_t>(std::max<int64_t>(k64, 1)));
      std::vector<F> ub = lapack_matrix<F>(want_uv ? m64 * ucols : 1);
      std::vector<F> vb = lapack_matrix<F>(want_uv ? vrows * n64 : 1);
      std::vector<lapack_int> iwork(static_cast<size_t>(std::max<int64_t>(8 * k64, 1)));
      // The complex routine's real workspace (LAPACK 3.7's sizes); unused for real matrices.
      const int64_t mx = std::max(m64, n64);
      const int64_t lrwork =
          !is_complex_v<F> ? 1
          : jobz == 'N'    ? 7 * k64
                           : std::max(5 * k64 * k64 + 5 * k64, 2 * mx * k64 + 2 * k64 * k64 + k64);
      std::vector<R> rwork(static_cast<size_t>(std::max<int64_t>(lrwork, 1)));
      std::vector<F> work;
      const lapack_int ldu = ld_of(m64), ldvt = want_uv ? ld_of(vrows) : 1;
      if (k64 > 0) {
        F query = 0;
        gesdd<F>(jobz, m, n, a.data(), ld_of(m64), sv.data(), ub.data(), ldu, vb.data(), ldvt,
                 &query, -1, rwork.data(), iwork.data());
        work.resize(static_cast<size_t>(work_size(query)));
      }
      for (int64_t i = begin; i < end; ++i) {
        TS* so = out_matrix<TS>(s, i, k64);
        T* uo = want_uv ? out_matrix<T>(u, i, m64 * ucols) : nullptr;
        T* vo = want_uv ? out_matrix<T>(vt, i, vrows * n64) : nullptr;
        if (k64 == 0) {
          // An empty matrix: no singular values; full bases are identities.
          if (want_uv && full_matrices) {
            fill_identity(uo, m64);
            fill_identity(vo, n64);
          }
          continue;
        }
        pack_col_major(a.data(), m64, matrix_at<T>(x, i), m64, n64, xs);
        const lapack_int info =
            gesdd<F>(jobz, m, n, a.data(), m, sv.data(), ub.data(), ldu, vb.data(), ldvt,
                     work.data(), static_cast<lapack_int>(work.size()), rwork.data(), iwork.data());
        if (info != 0) {
          // No convergence (NaN or inf input): NaNs, as NumPy's and JAX's results would hold.
          fill_nan(so, k64);
          if (want_uv) {
            fill_nan(uo, m64 * ucols);
            fill_nan(vo, vrows * n64);
          }
          continue;
        }
        for (int64_t j = 0; j < k64; ++j) so[j] = convert<TS>(sv[j]);
        if (want_uv) {
          unpack_col_major(uo, ub.data(), m64, m64, ucols);
          unpack_col_major(vo, vb.data(), vrows, vrows, n64);
        }
      }
    });
  });
}

void CpuBackend::eigh(const Array& values, const Array& vectors, const Array& x, bool lower) {
  const int r = x.rank();
  const int64_t n64 = x.shape[r - 1];
  const lapack_int n = lapack_dim(n64, "eigh");
  const bool want_vectors = static_cast<bool>(vectors.storage);
  const char jobz = want_vectors ? 'V' : 'N';
  const int64_t count = batch_count(x);
  const MatrixStrides xs = matrix_strides(x);
  if (n64 == 0) return;
  visit_float(x.dtype, "eigh", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = 4.0 * static_cast<double>(n64) * n64 * n64;
    for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
      using R = part_t<F>;
      using TS = real_storage_t<T>;
      std::vector<F> a = lapack_matrix<F>(n64 * n64);
      std::vector<R> w(static_cast<size_t>(n64));
      F query = 0;
      R rquery = 0;
      lapack_int iquery = 0;
      syevd<F>(jobz, lower ? 'L' : 'U', n, a.data(), n, w.data(), &query, -1, &rquery, -1, &iquery,
               -1);
      std::vector<F> work(static_cast<size_t>(work_size(query)));
      std::vector<R> rwork(static_cast<size_t>(work_size(rquery)));
      std::vector<lapack_int> iwork(static_cast<size_t>(std::max<lapack_int>(iquery, 1)));
      for (int64_t i = begin; i < end; ++i) {
        pack_col_major(a.data(), n64, matrix_at<T>(x, i), n64, n64, xs);
        TS* vo = out_matrix<TS>(values, i, n64);
        T* eo = want_vectors ? out_matrix<T>(vectors, i, n64 * n64) : nullptr;
        const lapack_int info = syevd<F>(jobz, lower ? 'L' : 'U', n, a.data(), n, w.data(),
                                         work.data(), static_cast<lapack_int>(work.size()),
                                         rwork.data(), static_cast<lapack_int>(rwork.size()),
                                         iwork.data(), static_cast<lapack_int>(iwork.size()));
        if (info != 0) {
          fill_nan(vo, n64);
          if (eo) fill_nan(eo, n64 * n64);
          continue;
        }
        for (int64_t j = 0; j < n64; ++j) vo[j] = convert<TS>(w[j]);
        if (eo) unpack_col_major(eo, a.data(), n64, n64, n64);
      }
    });
  });
}

bool CpuBackend::eig(const Array& values, const Array& vectors, const Array& x) {
  const int r = x.rank();
  const int64_t n64 = x.shape[r - 1];
  const lapack_int n = lapack_dim(n64, "eig");
  const bool want_vectors = static_cast<bool>(vectors.storage);
  const char jobvr = want_vectors ? 'V' : 'N';
  const int64_t count = batch_count(x);
  const MatrixStrides xs = matrix_strides(x);
  if (n64 == 0) return true;
  std::atomic<bool> all_ok{true};
  visit_float(x.dtype, "eig", [&](auto t_tag, auto f_tag) {
    using T = decltype(t_tag);
    using F = decltype(f_tag);
    const double flops = 10.0 * static_cast<double>(n64) * n64 * n64;
    if constexpr (is_complex_v<F>) {
      for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
        if (!eig_complex<F>(values, vectors, x, begin, end)) all_ok = false;
      });
      return;
    } else {
      for_each_matrix(count, flops, [&](int64_t begin, int64_t end) {
        std::vector<F> a = lapack_matrix<F>(n64 * n64), vr = lapack_matrix<F>(want_vectors ? n64 * n64 : 1);
        std::vector<F> wr(static_cast<size_t>(n64)), wi(static_cast<size_t>(n64));
        F query = 0;
        geev<F>(jobvr, n, a.data(), n, wr.data(), wi.data(), vr.data(), want_vectors ? n : 1,
                &query, -1);
        std::vector<F> work(static_cast<size_t>(work_size(query)));
        for (int64_t i = begin; i < end; ++i) {
          pack_col_major(a.data(), n64, matrix_at<T>(x, i), n64, n64, xs);
          T* vo = out_matrix<T>(values, i, 2 * n64);
          T* eo = want_vectors ? out_matrix<T>(vectors, i, 2 * n64 * n64) : nullptr;
          const lapack_int info =
              geev<F>(jobvr, n, a.data(), n, wr.data(), wi.data(), vr.data(), want_vectors ? n : 1,
                      work.data(), static_cast<lapack_int>(work.size()));
          if (info != 0) {
            all_ok = false;
            fill_nan(vo, 2 * n64);
            if (eo) fill_nan(eo, 2 * n64 * n64);
            continue;
          }
          for (int64_t j = 0; j < n64; ++j) {
            vo[2 * j] = convert<T>(wr[j]);
            vo[2 * j + 1] = convert<T>(wi[j]);
          }
          if (!eo) continue;
          // geev packs a conjugate pair (wi[j] > 0) as columns j (real part) and j + 1
          // (imaginary part); the vector of j + 1 is the conjugate of j's.
          for (int64_t j = 0; j < n64; ++j) {
            const bool pair_first = wi[j] > 0 && j + 1 < n64;
            for (int64_t k = 0; k < n64; ++k) {
              F re = vr[k + j * n64], im = 0;
              if (pair_first) {
                im = vr[k + (j + 1) * n64];
              } else if (j > 0 && wi[j] < 0) {
                re = vr[k + (j - 1) * n64];
                im = -vr[k + j * n64];
              }
              eo[2 * (k * n64 + j)] = convert<T>(re);
              eo[2 * (k * n64 + j) + 1] = convert<T>(im);
            }
          }
        }
      });
    }
  });
  return all_ok;
}

}  // namespace keras::cpu

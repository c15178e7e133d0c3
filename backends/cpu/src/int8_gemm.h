#pragma once
// The int8 GEMM of quantized layers: c (m, n) int32 = a (m, k) int8 @ b (k, n) int8, exactly.
// Versions by instruction set (isa.h), chosen at run time:
//   avx512 with AVX512-VNNI: vpdpbusd (u8 x s8, four products per int32 lane, no saturation);
//     a is shifted to unsigned (a + 128) and 128 * (column sums of b) is subtracted after.
//   avx2 (and avx512 without VNNI): b and a sign-extended to int16, vpmaddwd (two products per
//     int32 lane, exact for every int8 pair). Not vpmaddubsw: its int16 pair sums saturate
//     (255 * 127 * 2 > 32767), so its results are not exact.
//   baseline: plain int32 loops.
// b is packed into column panels first: by int8_gemm on every call, or once by the caller
// (pack_int8_matrix, then int8_gemm_packed: the cpu backend keeps the packed kernels of
// quantized layers, packed_weights.h).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keras::cpu {

enum class Int8Kernel : uint8_t { Vnni, Madd, Baseline };

/// The version for the current isa() on this machine.
Int8Kernel int8_kernel_for_isa();

/// b (k, n) in the layout one kernel reads: Vnni: panels of 32 columns, four rows interleaved
/// per column, and each panel's column sums; Madd: panels of 16 columns of int16 row pairs;
/// Baseline: b itself (by pointer: b must outlive the packing).
struct PackedInt8Matrix {
  int64_t k = 0, n = 0;
  Int8Kernel kernel = Int8Kernel::Baseline;
  std::vector<int8_t> panels;
  std::vector<int32_t> column_sums;
  std::vector<int16_t> panels16;
  const int8_t* plain = nullptr;

  /// The memory the packing holds (0 for Baseline).
  size_t bytes() const;
};

/// b (k, n), row-major and contiguous, packed for int8_kernel_for_isa().
PackedInt8Matrix pack_int8_matrix(const int8_t* b, int64_t k, int64_t n);

/// c (m, n) = a (m, k) @ b, with b packed by pack_int8_matrix (for any isa level: the packing
/// names its kernel).
void int8_gemm_packed(int64_t m, const int8_t* a, const PackedInt8Matrix& b, int32_t* c);

/// c = a @ b, all row-major and contiguous (lda = k, ldb = ldc = n). Rows of panels are spread
/// over the thread pool when the product is large; results do not depend on the thread count.
void int8_gemm(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c);

/// Which version int8_gemm runs on this machine at the current isa(): "avx512_vnni", "avx2" or
/// "baseline" (for tests and benchmarks).
const char* int8_gemm_kernel();

}  // namespace keras::cpu

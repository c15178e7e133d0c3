#pragma once
// The int8 GEMM of quantized layers: c (m, n) int32 = a (m, k) int8 @ b (k, n) int8, exactly.
// Versions by instruction set (isa.h), chosen at run time:
//   avx512 with AVX512-VNNI: vpdpbusd (u8 x s8, four products per int32 lane, no saturation);
//     a is shifted to unsigned (a + 128) and 128 * (column sums of b) is subtracted after.
//   avx2 (and avx512 without VNNI): b and a sign-extended to int16, vpmaddwd (two products per
//     int32 lane, exact for every int8 pair). Not vpmaddubsw: its int16 pair sums saturate
//     (255 * 127 * 2 > 32767), so its results are not exact.
//   baseline: plain int32 loops.
// b is packed one column panel at a time into a per-thread scratch buffer that every row block
// of a then reads from cache. Nothing packed outlives the call: a quantized layer's kernel is
// held once, as int8 (4x smaller than float32), not beside a packed copy.

#include <cstddef>
#include <cstdint>

namespace keras::cpu {

/// c = a @ b, all row-major and contiguous (lda = k, ldb = ldc = n). Rows of panels are spread
/// over the thread pool when the product is large; results do not depend on the thread count.
void int8_gemm(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c);

/// Which version int8_gemm runs on this machine at the current isa(): "avx512_vnni", "avx2" or
/// "baseline" (for tests and benchmarks).
const char* int8_gemm_kernel();

}  // namespace keras::cpu

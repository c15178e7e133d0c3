#pragma once
// The instruction set of the cpu backend's hand-vectorized kernels (pooling, the short-patch and
// sparse convolutions, the ReLU epilogue), chosen once for the whole backend. Each such kernel
// is compiled three times (KERAS_TARGET_AVX512, KERAS_TARGET_AVX2, no attribute) from one
// always-inlined body and calls the version for isa(). Explicit versions rather than GCC's
// target_clones, whose resolver picks the best level the CPU has and cannot be told otherwise:
// with KERAS_CPU_ISA=avx2, an AVX-512 machine runs and measures the AVX2 paths.
//
// OpenBLAS (the GEMMs) chooses its kernels itself when it is loaded, before any of this runs:
// OPENBLAS_CORETYPE=Haswell in the environment of the process caps it at AVX2 (Debian's build is
// DYNAMIC_ARCH; scripts/bench.sh --isa avx2 sets both variables).

#include <cstdint>

namespace keras::cpu {

/// The levels, each including the ones below it.
enum class Isa : uint8_t {
  Baseline,  ///< x86-64 as compiled (SSE2)
  Avx2,      ///< x86-64-v3: AVX2, FMA, BMI1/2, F16C, MOVBE
  Avx512,    ///< x86-64-v4: v3 + AVX-512 F, BW, CD, DQ, VL
};

/// The best level this CPU and operating system run.
Isa supported_isa();

/// The level the kernels use: supported_isa(), or the lower one the environment variable
/// KERAS_CPU_ISA asks for (`avx512`, `avx2` or `baseline`, any case; unset or empty: the best).
/// Read once. Throws ValueError (naming the value, this CPU's level and the accepted values) for
/// an unknown value or one above what the CPU runs, on every call.
Isa isa();

/// "avx512", "avx2" or "baseline": the spelling KERAS_CPU_ISA takes.
const char* name_of(Isa level);

namespace detail {

/// The level KERAS_CPU_ISA=`value` (null: unset) selects on a CPU whose best is `best`; throws
/// ValueError as isa() does. (isa() reads the environment once; this is its parser.)
Isa isa_from(const char* value, Isa best);

/// Test hook: while alive, isa() returns `level` instead (on every thread, so the thread pool's
/// tasks see it too). Throws ValueError when the CPU cannot run `level`. Not for concurrent use
/// with other overrides or with kernels that must keep one level; scopes nest.
class IsaOverride {
 public:
  explicit IsaOverride(Isa level);
  ~IsaOverride();
  IsaOverride(const IsaOverride&) = delete;
  IsaOverride& operator=(const IsaOverride&) = delete;

 private:
  int previous_;
};

}  // namespace detail

// The target attributes of the versions: the same flags as target_clones("arch=x86-64-v4",
// "arch=x86-64-v3", "default") gives its clones.
#if defined(__x86_64__)
#define KERAS_TARGET_AVX512 __attribute__((target("arch=x86-64-v4")))
#define KERAS_TARGET_AVX2 __attribute__((target("arch=x86-64-v3")))
#else
#define KERAS_TARGET_AVX512
#define KERAS_TARGET_AVX2
#endif

/// W floats as one value, for kernels written on GCC's vector extension: each version uses its
/// register's width (kLanesAvx512, kLanesAvx2, kLanesBaseline). A vector wider than the target's
/// registers is split by GCC through the stack (a 16-float kernel compiled for AVX2 ran 3.5 times
/// slower than with 8). aligned(4): loads and stores are unaligned ones.
template <int W>
struct FloatLanesOf {
  typedef float type __attribute__((vector_size(W * sizeof(float)), aligned(4)));
};
template <int W>
using FloatLanes = typename FloatLanesOf<W>::type;
inline constexpr int kLanesAvx512 = 16, kLanesAvx2 = 8, kLanesBaseline = 4;

/// Calls the version of a kernel for isa() with `args`.
template <typename F, typename... Args>
inline auto by_isa(F* avx512, F* avx2, F* baseline, Args&&... args) {
  switch (isa()) {
    case Isa::Avx512:
      return avx512(static_cast<Args&&>(args)...);
    case Isa::Avx2:
      return avx2(static_cast<Args&&>(args)...);
    case Isa::Baseline:
      break;
  }
  return baseline(static_cast<Args&&>(args)...);
}

}  // namespace keras::cpu

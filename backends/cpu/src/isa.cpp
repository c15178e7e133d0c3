#include "isa.h"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <string>

#include "keras/core/errors.h"

namespace keras::cpu {
namespace {

// IsaOverride's level, or -1. Atomic because the pool's threads read it; relaxed because an
// override is set before the work that must see it is handed to them (the pool's queue orders).
std::atomic<int> override_level{-1};

Isa detect() {
#if defined(__x86_64__)
  __builtin_cpu_init();  // (idempotent; needed when called before libgcc's constructor ran)
#if defined(__clang__)
  // Clang's builtin knows no level names: the features of each level (as GCC checks them).
  const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl");
#else
  // The checks target_clones's resolver made for "arch=x86-64-v4" and "arch=x86-64-v3"
  // (libgcc also checks that the OS saves the YMM/ZMM registers).
  const bool v4 = __builtin_cpu_supports("x86-64-v4");
  const bool v3 = __builtin_cpu_supports("x86-64-v3");
#endif
  if (v4) return Isa::Avx512;
  if (v3) return Isa::Avx2;
#endif
  return Isa::Baseline;
}

const char* accepted(Isa best) {
  switch (best) {
    case Isa::Avx512:
      return "avx512, avx2 or baseline";
    case Isa::Avx2:
      return "avx2 or baseline";
    case Isa::Baseline:
      break;
  }
  return "baseline";
}

}  // namespace

Isa supported_isa() {
  static const Isa best = detect();
  return best;
}

Isa isa() {
  if (const int o = override_level.load(std::memory_order_relaxed); o >= 0)
    return static_cast<Isa>(o);
  // A throwing initializer leaves the static uninitialized: a bad value throws on every call.
  static const Isa chosen = detail::isa_from(std::getenv("KERAS_CPU_ISA"), supported_isa());
  return chosen;
}

const char* name_of(Isa level) {
  switch (level) {
    case Isa::Avx512:
      return "avx512";
    case Isa::Avx2:
      return "avx2";
    case Isa::Baseline:
      break;
  }
  return "baseline";
}

namespace detail {

Isa isa_from(const char* raw, Isa best) {
  if (!raw || !*raw) return best;
  std::string value(raw);
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (Isa level : {Isa::Avx512, Isa::Avx2, Isa::Baseline}) {
    if (value != name_of(level)) continue;
    check(level <= best, "KERAS_CPU_ISA=\"", raw, "\": this CPU runs up to ", name_of(best),
          "; use ", accepted(best), ", or unset it for ", name_of(best));
    return level;
  }
  throw ValueError(keras::detail::cat(
      "KERAS_CPU_ISA=\"", raw, "\" is not an instruction set level: the accepted values are ",
      "avx512, avx2 and baseline (any case); this CPU runs up to ", name_of(best)));
}

IsaOverride::IsaOverride(Isa level) : previous_(override_level.load()) {
  check(level <= supported_isa(), "IsaOverride(", name_of(level), "): this CPU runs ",
        name_of(supported_isa()), " at most");
  override_level.store(static_cast<int>(level));
}

IsaOverride::~IsaOverride() {
  override_level.store(previous_);
}

}  // namespace detail

}  // namespace keras::cpu

// The cpu backend's instruction set choice (backends/cpu/src/isa.h): KERAS_CPU_ISA's parsing and
// errors, and the test hook that the kernel tests (isa_kernels_test.cpp) run each level with.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../../backends/cpu/src/isa.h"
#include "keras/keras.h"

// OpenBLAS's name for the kernels it loaded (it links with keras; its cblas.h is not on the tests'
// include path).
extern "C" char* openblas_get_corename();

namespace keras {
namespace {

using cpu::Isa;

std::string error_of(const char* value, Isa best) {
  try {
    cpu::detail::isa_from(value, best);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CpuIsa, ReportsThisCpu) {
  std::printf("cpu backend: this CPU runs up to %s\n", cpu::name_of(cpu::supported_isa()));
}

// OPENBLAS_CORETYPE=Haswell (what scripts/bench.sh --isa avx2 sets beside KERAS_CPU_ISA) takes
// effect only with a DYNAMIC_ARCH OpenBLAS, as Debian's is.
TEST(CpuIsa, OpenBlasFollowsItsCoreType) {
  std::printf("OpenBLAS kernels: %s\n", openblas_get_corename());
  const char* core = std::getenv("OPENBLAS_CORETYPE");
  if (core && std::string(core) == "Haswell") {
    EXPECT_EQ(std::string(openblas_get_corename()), "Haswell");
  }
}

TEST(CpuIsa, ParsesLevelsInAnyCase) {
  EXPECT_EQ(cpu::detail::isa_from(nullptr, Isa::Avx512), Isa::Avx512);
  EXPECT_EQ(cpu::detail::isa_from("", Isa::Avx2), Isa::Avx2);
  EXPECT_EQ(cpu::detail::isa_from("avx512", Isa::Avx512), Isa::Avx512);
  EXPECT_EQ(cpu::detail::isa_from("AVX2", Isa::Avx512), Isa::Avx2);
  EXPECT_EQ(cpu::detail::isa_from("Baseline", Isa::Avx2), Isa::Baseline);
  EXPECT_EQ(cpu::detail::isa_from("baseline", Isa::Baseline), Isa::Baseline);
}

TEST(CpuIsa, LevelAboveTheCpuNamesWhatItRuns) {
  const std::string m = error_of("AVX512", Isa::Avx2);
  EXPECT_TRUE(contains(m, "KERAS_CPU_ISA=\"AVX512\"")) << m;
  EXPECT_TRUE(contains(m, "runs up to avx2")) << m;
  EXPECT_TRUE(contains(m, "avx2 or baseline")) << m;
  EXPECT_TRUE(contains(error_of("avx2", Isa::Baseline), "runs up to baseline"));
}

TEST(CpuIsa, UnknownLevelListsTheAcceptedOnes) {
  const std::string m = error_of("sse4", Isa::Avx512);
  EXPECT_TRUE(contains(m, "KERAS_CPU_ISA=\"sse4\"")) << m;
  EXPECT_TRUE(contains(m, "avx512, avx2 and baseline")) << m;
  EXPECT_TRUE(contains(m, "runs up to avx512")) << m;
  EXPECT_FALSE(error_of("avx-512", Isa::Avx512).empty());
  EXPECT_FALSE(error_of("avx2 ", Isa::Avx512).empty());
}

// Run with KERAS_CPU_ISA set, this checks that the backend took it (or throws as the parser
// does: on every use, not only the first).
TEST(CpuIsa, FollowsTheEnvironment) {
  const char* env = std::getenv("KERAS_CPU_ISA");
  const std::string expected_error = error_of(env, cpu::supported_isa());
  if (!expected_error.empty()) {
    for (int i = 0; i < 2; ++i) EXPECT_THROW(cpu::isa(), ValueError);
    return;
  }
  EXPECT_EQ(cpu::isa(), cpu::detail::isa_from(env, cpu::supported_isa()));
  EXPECT_LE(cpu::isa(), cpu::supported_isa());
}

TEST(CpuIsa, OverrideScopesNestAndRestore) {
  const Isa before = cpu::supported_isa();
  {
    cpu::detail::IsaOverride outer(Isa::Baseline);
    EXPECT_EQ(cpu::isa(), Isa::Baseline);
    {
      cpu::detail::IsaOverride inner(cpu::supported_isa());
      EXPECT_EQ(cpu::isa(), cpu::supported_isa());
    }
    EXPECT_EQ(cpu::isa(), Isa::Baseline);
  }
  if (!std::getenv("KERAS_CPU_ISA")) {
    EXPECT_EQ(cpu::isa(), before);
  }
  if (cpu::supported_isa() < Isa::Avx512) {
    EXPECT_THROW(cpu::detail::IsaOverride(Isa::Avx512), ValueError);
  }
}

}  // namespace
}  // namespace keras

// Out of memory: a model too large for the process's memory limit fails at the allocation with
// a ResourceExhaustedError naming the dtype, the shape and the bytes, and the process goes on
// (trains and predicts with a small model, exits 0). The limit (RLIMIT_AS) is set in a child:
// this test binary started again with a filter, so the test process itself keeps its memory.

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "keras/core/runtime_errors.h"
#include "keras/keras.h"

extern char** environ;

namespace keras {
namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // its shadow memory needs terabytes of address space
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// The process's address space now (VmSize), in bytes.
uint64_t address_space_in_use() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
  return 0;
}

// The child: warms up (thread pool, allocator), limits its address space to what it uses plus
// 1 GiB, asks for a 6.4 GB kernel, then carries on with a small model. It writes what it saw
// to $KERAS_OOM_CHILD_OUT.
TEST(OutOfMemoryChild, LargeModelThenSmall) {
  const char* out_path = std::getenv("KERAS_OOM_CHILD_OUT");
  if (out_path == nullptr) GTEST_SKIP() << "the out-of-memory test's child process";
  std::ofstream out(out_path);
  auto small = [] {
    backend::clear_session();
    auto m = Sequential({Input({4}), layers::Dense(2)});
    m->compile({.optimizer = "sgd", .loss = "mse"});
    m->fit(ops::ones({64, 4}), ops::zeros({64, 2}), {.batch_size = 8, .epochs = 1, .verbose = 0});
    return m->predict(ops::ones({3, 4}), {.verbose = 0}).single();
  };
  small();
  rlimit limit{};
  ::getrlimit(RLIMIT_AS, &limit);
  limit.rlim_cur = address_space_in_use() + (uint64_t{1} << 30);
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &limit), 0);
  try {
    backend::clear_session();
    auto big = Sequential({Input({40000}), layers::Dense(40000)});
    out << "no error\n";
  } catch (const ResourceExhaustedError& e) {
    out << "ResourceExhaustedError: " << e.what() << "\n";
  } catch (const Error& e) {
    out << "another keras::Error: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    out << "std::bad_alloc\n";
  }
  Tensor p = small();
  out << "after: " << p.shape() << " " << p.to_vector<float>().size() << "\n";
}

TEST(OutOfMemory, ALargeModelIsAClearErrorAndTheProcessGoesOn) {
  if (kAddressSanitizer) GTEST_SKIP() << "RLIMIT_AS cannot be used under AddressSanitizer";
  const std::string out_path =
      (fs::temp_directory_path() / ("keras_oom_" + std::to_string(::getpid()) + ".txt")).string();
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  env_strings.push_back("KERAS_OOM_CHILD_OUT=" + out_path);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = fs::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=OutOfMemoryChild.*";
  std::string brief = "--gtest_brief=1";
  std::vector<char*> argv{exe.data(), filter.data(), brief.data(), nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  std::ifstream in(out_path);
  std::string report(std::istreambuf_iterator<char>(in), {});
  fs::remove(out_path);
  ASSERT_TRUE(WIFEXITED(status)) << "the child crashed (status " << status << "): " << report;
  EXPECT_EQ(WEXITSTATUS(status), 0) << report;
  EXPECT_EQ(report.rfind("ResourceExhaustedError: ", 0), 0u) << report;
  EXPECT_NE(report.find("(40000, 40000)"), std::string::npos) << report;
  EXPECT_NE(report.find("6400000000 bytes"), std::string::npos) << report;
  EXPECT_NE(report.find("after: (3, 2) 6"), std::string::npos) << report;
}

}  // namespace
}  // namespace keras

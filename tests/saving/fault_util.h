#pragma once
// Helpers of the fault tests (faults_test.cpp): a lowered file-size limit, a thread without
// root's permission override, and views of a folder and of the process's open files.

#include <linux/capability.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <thread>

namespace keras::test {

/// While alive, writes past `bytes` in any file fail with EFBIG ("File too large") instead of
/// killing the process with SIGXFSZ: the disk-full case without a small filesystem or root.
/// Only the soft limit is lowered, so the destructor can raise it back.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit lowered = old_;
    lowered.rlim_cur = bytes;
    ok_ = ::setrlimit(RLIMIT_FSIZE, &lowered) == 0;
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    ::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool ok() const { return ok_; }

 private:
  rlimit old_{};
  sighandler_t old_handler_ = SIG_DFL;
  bool ok_ = false;
};

/// The names in `dir` (hidden ones too): a failed save must leave no temporary behind.
inline std::set<std::string> names_in(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out.insert(e.path().filename().string());
  return out;
}

/// How many of this process's open file descriptors point into `dir` (deleted files too): a
/// failed save must not keep its removed temporary open (its space would stay used).
inline int open_files_under(const std::filesystem::path& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    std::string target = std::filesystem::read_symlink(e.path(), ec).string();
    if (!ec && target.rfind(dir.string() + "/", 0) == 0) ++n;
  }
  return n;
}

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Runs `body` where file permissions apply: directly for a normal user; as root (whose
/// CAP_DAC_OVERRIDE ignores a folder's mode) on a thread of its own that dropped that
/// capability (capabilities are per thread in Linux, so the rest of the process keeps them).
/// Returns false when root cannot drop it (the caller skips); rethrows what `body` throws.
inline bool run_with_permissions_enforced(const std::function<void()>& body) {
  if (::geteuid() != 0) {
    body();
    return true;
  }
  bool dropped = false;
  std::exception_ptr error;
  std::thread worker([&] {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0) return;
    for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER})
      data[cap / 32].effective &= ~(1u << (cap % 32));
    if (::syscall(SYS_capset, &header, data) != 0) return;
    dropped = true;
    try {
      body();
    } catch (...) {
      error = std::current_exception();
    }
  });
  worker.join();
  if (error) std::rethrow_exception(error);
  return dropped;
}

}  // namespace keras::test

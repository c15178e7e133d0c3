#include "fuzz_input_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>

#include "keras/core/errors.h"

namespace keras::fuzz {
namespace {

// The scratch files this process wrote, removed when it exits normally (libFuzzer's fork mode
// starts a process per job: without this, /tmp would keep one file per job and kind).
struct ScratchFiles {
  std::mutex mutex;
  std::set<std::string> paths;
  ~ScratchFiles() {
    std::error_code ignored;
    for (const std::string& p : paths) std::filesystem::remove(p, ignored);
  }
};

ScratchFiles& scratch_files() {
  static ScratchFiles files;
  return files;
}

}  // namespace

std::string write_input_file(const char* kind, const uint8_t* data, size_t size) {
  // One file per process and kind: libFuzzer's fork mode runs several processes at once.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("keras-fuzz-" + std::to_string(getpid()) + "." + kind))
                               .string();
  {
    ScratchFiles& files = scratch_files();
    std::lock_guard<std::mutex> lock(files.mutex);
    files.paths.insert(path);
  }
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  check<IOError>(f != nullptr, "fuzz: cannot write the scratch file '", path, "'.");
  check<IOError>(size == 0 || std::fwrite(data, 1, size, f.get()) == size, "fuzz: cannot write ",
                 size, " bytes to '", path, "'.");
  return path;
}

}  // namespace keras::fuzz

#include "fuzz_input_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "keras/core/errors.h"

namespace keras::fuzz {

std::string write_input_file(const char* kind, const uint8_t* data, size_t size) {
  // One file per process and kind: libFuzzer's fork mode runs several processes at once.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("keras-fuzz-" + std::to_string(getpid()) + "." + kind))
                               .string();
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  check<IOError>(f != nullptr, "fuzz: cannot write the scratch file '", path, "'.");
  check<IOError>(size == 0 || std::fwrite(data, 1, size, f.get()) == size, "fuzz: cannot write ",
                 size, " bytes to '", path, "'.");
  return path;
}

}  // namespace keras::fuzz

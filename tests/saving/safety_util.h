#pragma once
// Helpers of the loader-safety tests: a temporary folder.

#include <unistd.h>

#include <filesystem>
#include <string>

namespace keras::test {

/// A fresh empty folder under the system temp folder, removed by the destructor.
class SafetyTempDir {
 public:
  explicit SafetyTempDir(const std::string& tag) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("keras_safety_" + tag + "_" + std::to_string(::getpid()) + "_" +
             std::to_string(++counter));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~SafetyTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace keras::test

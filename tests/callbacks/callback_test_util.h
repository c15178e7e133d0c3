#pragma once
// Helpers shared by the callback and save_weights tests.

#include <filesystem>
#include <string>

#include <unistd.h>

#include "keras/keras.h"

namespace keras::test {

/// A fresh empty directory under the system temp folder, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("keras_cb_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// x (n, 3) and y = x . (1, -2, 0.5) + 0.3 (n, 1), deterministic.
inline Tensor linear_data(int64_t n, Tensor* y_out) {
  Tensor x = random::normal({n, 3}, 0, 1, std::nullopt, 11);
  Tensor w = Tensor::from_vector<float>({1.0f, -2.0f, 0.5f}, {3, 1});
  *y_out = ops::add(ops::matmul(x, w), Tensor::from_vector<float>({0.3f}, {}));
  return x;
}

}  // namespace keras::test

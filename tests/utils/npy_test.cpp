// .npy/.npz against files NumPy wrote (tools/golden/npy_files.py).

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

std::string npy_dir() { return std::string(KERAS_GOLDEN_DIR) + "/npy/"; }

TEST(Npy, LoadsEveryLayoutNumpyWrites) {
  auto reference = utils::load_npz(npy_dir() + "reference.npz");
  ASSERT_EQ(reference.size(), 12u);
  for (auto& [name, expected] : reference) {
    Tensor loaded = utils::load_npy(npy_dir() + name + ".npy");
    EXPECT_TENSOR_EQ(loaded, expected) << name;
  }
}

TEST(Npy, RoundTripsThroughFiles) {
  auto dir = std::filesystem::temp_directory_path();
  Tensor x = ops::reshape(ops::cast(ops::arange(12), DType::BFloat16), {3, 4}).transpose();
  utils::save_npy((dir / "kc_bf16.npy").string(), x);
  EXPECT_TENSOR_EQ(utils::load_npy((dir / "kc_bf16.npy").string()), x.contiguous());
  std::map<std::string, Tensor> arrays = {{"a", ops::arange(5)},
                                          {"b", ops::ones({2, 2}, DType::Float64)}};
  for (bool compressed : {false, true}) {
    utils::save_npz((dir / "kc_arrays.npz").string(), arrays, compressed);
    auto back = utils::load_npz((dir / "kc_arrays.npz").string());
    ASSERT_EQ(back.size(), 2u);
    EXPECT_TENSOR_EQ(back["a"], arrays["a"]);
    EXPECT_TENSOR_EQ(back["b"], arrays["b"]);
  }
}

TEST(Npy, BadFilesGiveIOErrorsNamingTheFile) {
  auto path = (std::filesystem::temp_directory_path() / "kc_bad.npy").string();
  std::ofstream(path) << "not an array";
  try {
    utils::load_npy(path);
    FAIL();
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
  // A truncated payload is caught, not read past.
  auto good = utils::serialize_npy(ops::ones({100}));
  good.resize(good.size() - 10);
  EXPECT_THROW(utils::parse_npy(good), IOError);
  EXPECT_THROW(utils::load_npy("/nonexistent/x.npy"), IOError);
  EXPECT_THROW(utils::load_npz(path), IOError);
}

}  // namespace
}  // namespace keras

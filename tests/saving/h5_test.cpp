// The HDF5 reader against files h5py wrote (tools/golden/h5_files.py) and against the real
// Keras 3.10 file in ../shared/models.

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

std::string h5_dir() { return std::string(KERAS_GOLDEN_DIR) + "/h5/"; }

TEST(H5File, ReadsWhatH5pyWrites) {
  auto ref = utils::load_npz(h5_dir() + "h5_reference.npz");
  auto f = saving::H5File::open(h5_dir() + "weights.h5");
  EXPECT_TENSOR_EQ(f.read("layers/dense/vars/0"), ref["f32"]);
  EXPECT_TENSOR_EQ(f.read("layers/dense/vars/1"), ref["f16"]);
  Tensor bf = f.read("layers/dense/bf16");
  EXPECT_EQ(bf.dtype(), DType::BFloat16);
  EXPECT_TENSOR_EQ(ops::cast(bf, DType::Float32), ref["bf16_as_f32"]);
  EXPECT_TENSOR_EQ(f.read("flags"), ref["bool"]);
  EXPECT_TENSOR_EQ(f.read("optimizer/vars/0"), ref["scalar"]);
  EXPECT_EQ(f.string_attribute("layers/dense/vars", "name"), "dense");
  EXPECT_FALSE(f.string_attribute("layers/dense/vars", "missing").has_value());
  EXPECT_EQ(f.string_list_attribute("", "layer_names"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(f.children("layers/dense/vars"), (std::vector<std::string>{"0", "1"}));
  EXPECT_TRUE(f.is_group("layers/dense"));
  EXPECT_FALSE(f.exists("layers/conv"));
}

TEST(H5File, RefusesLinksAndNamesTheProblem) {
  auto f = saving::H5File::open(h5_dir() + "weights.h5");
  EXPECT_THROW(f.read("soft"), IOError);
  EXPECT_THROW(f.read("external"), IOError);
  EXPECT_THROW(f.read("nope"), IOError);
  EXPECT_THROW(saving::H5File::open(h5_dir() + "h5_reference.npz"), IOError);
  EXPECT_THROW(saving::H5File::open("/nonexistent.h5"), IOError);
  std::vector<uint8_t> junk(64, 7);
  EXPECT_THROW(saving::H5File::open_image(junk, "junk"), IOError);
}

TEST(H5File, ReadsTheRealKerasFile) {
  std::string path = std::string(KERAS_SHARED_DIR) + "/models/fashion_mnist_cnn.keras";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto members = saving::read_zip_members(saving::read_file_bytes(path), path);
  ASSERT_EQ(members.count("model.weights.h5"), 1u);
  auto f = saving::H5File::open_image(members["model.weights.h5"], path);
  auto expected = utils::load_npz(test::golden_path("fashion_mnist_cnn"));
  EXPECT_TENSOR_EQ(f.read("layers/conv2d/vars/0"), expected["conv2d_kernel.out0"]);
  EXPECT_EQ(f.string_attribute("layers/conv2d/vars", "name"), "conv2d");
  EXPECT_EQ(f.string_attribute("optimizer/vars", "name"), "adam");
  EXPECT_EQ(f.read("optimizer/vars/0").dtype(), DType::Int64);
}

}  // namespace
}  // namespace keras

// keras::datasets: IDX parsing, and Fashion-MNIST from Debian's package against its published
// facts (60000/10000 images of 28x28, 6000 training images per class, first label 9).

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "keras/datasets/datasets.h"
#include "keras/keras.h"

namespace keras {
namespace {

std::string temp_dir(const char* name) {
  auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(Idx, ParsesRawAndGzippedFiles) {
  std::string dir = temp_dir("keras_idx_test");
  // magic 0x00000803 (ubyte, rank 3), dims 2x2x3, then 12 bytes.
  std::vector<unsigned char> bytes = {0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3};
  for (int i = 0; i < 12; ++i) bytes.push_back(static_cast<unsigned char>(i * 20));
  {
    std::ofstream f(dir + "/raw.idx", std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  gzFile g = gzopen((dir + "/packed.idx.gz").c_str(), "wb");
  gzwrite(g, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(g);
  for (const char* file : {"/raw.idx", "/packed.idx.gz"}) {
    Tensor t = datasets::load_idx(dir + file);
    EXPECT_EQ(t.dtype(), DType::UInt8);
    EXPECT_EQ(t.shape(), Shape({2, 2, 3}));
    EXPECT_EQ(t.to_vector<int>()[11], 220);
  }
  bytes.resize(20);  // truncated data
  {
    std::ofstream f(dir + "/short.idx", std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  EXPECT_THROW(datasets::load_idx(dir + "/short.idx"), ValueError);
  EXPECT_THROW(datasets::load_idx(dir + "/missing.idx"), ValueError);
}

TEST(FashionMnist, LoadsDebianPackageInKerasShapes) {
  auto [train, test] = datasets::fashion_mnist::load_data();
  auto [x_train, y_train] = train;
  auto [x_test, y_test] = test;
  EXPECT_EQ(x_train.shape(), Shape({60000, 28, 28}));
  EXPECT_EQ(y_train.shape(), Shape({60000}));
  EXPECT_EQ(x_test.shape(), Shape({10000, 28, 28}));
  EXPECT_EQ(y_test.shape(), Shape({10000}));
  EXPECT_EQ(x_train.dtype(), DType::UInt8);
  EXPECT_EQ(y_train.dtype(), DType::UInt8);
  std::vector<int> labels = y_train.to_vector<int>();
  EXPECT_EQ(labels[0], 9);  // the first training image is an ankle boot
  std::vector<int> counts(10, 0);
  for (int l : labels) ++counts.at(static_cast<size_t>(l));
  for (int c : counts) EXPECT_EQ(c, 6000);
}

TEST(FashionMnist, MissingFolderSaysWhatToInstall) {
  try {
    datasets::fashion_mnist::load_data("/nonexistent/fashion");
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("dataset-fashion-mnist"), std::string::npos);
  }
  EXPECT_THROW(datasets::mnist::load_data(), ValueError);
}

}  // namespace
}  // namespace keras

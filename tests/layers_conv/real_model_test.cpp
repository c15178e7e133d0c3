// The convolutional part of ../shared/models/fashion_mnist_cnn.keras (a Keras 3.10 Sequential
// CNN: Conv2D, MaxPooling2D, Conv2D, MaxPooling2D, Flatten, Dropout, Dense, Dense) run with this
// family's Conv2D and MaxPooling2D on the file's own weights; Flatten (inference Dropout is the
// identity) and the Dense head are done with ops here so that the test depends only on this
// family. The expected predictions come from tools/golden/fashion_mnist_cnn.py (PyTorch).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

TEST(ConvRealModel, FashionMnistCnnConvStackMatchesTorch) {
  // ../shared next to the source tree, or $KERAS_SHARED_DIR (e.g. from a git worktree).
  const char* env = std::getenv("KERAS_SHARED_DIR");
  const std::string path =
      std::string(env ? env : KERAS_SHARED_DIR) + "/models/fashion_mnist_cnn.keras";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto members = saving::read_zip_members(saving::read_file_bytes(path), path);
  ASSERT_EQ(members.count("model.weights.h5"), 1u);
  auto h5 = saving::H5File::open_image(members["model.weights.h5"], path);
  auto var = [&](const std::string& layer, int i) {
    return h5.read("layers/" + layer + "/vars/" + std::to_string(i));
  };

  backend::clear_session();
  auto conv1 = layers::Conv2D(32, 3, {.activation = "relu"});
  auto pool1 = layers::MaxPooling2D(2);
  auto conv2 = layers::Conv2D(64, 3, {.activation = "relu"});
  auto pool2 = layers::MaxPooling2D(2);
  auto model = Sequential({Input({28, 28, 1}), conv1, pool1, conv2, pool2});
  // The names Keras gave these layers, under which the file stores their weights.
  EXPECT_EQ(conv1->name(), "conv2d");
  EXPECT_EQ(conv2->name(), "conv2d_1");
  EXPECT_EQ(pool1->name(), "max_pooling2d");
  conv1->set_weights({var("conv2d", 0), var("conv2d", 1)});
  conv2->set_weights({var("conv2d_1", 0), var("conv2d_1", 1)});

  auto golden = utils::load_npz(test::golden_path("fashion_mnist_cnn"));
  Tensor images = golden.at("predictions.in0");
  Tensor features = model(images);
  ASSERT_EQ(features.shape(), Shape({6, 5, 5, 64}));
  Tensor x = ops::reshape(features, {6, -1});  // Flatten: row-major over (h, w, c)
  x = ops::relu(ops::add(ops::matmul(x, var("dense", 0)), var("dense", 1)));
  x = ops::softmax(ops::add(ops::matmul(x, var("dense_1", 0)), var("dense_1", 1)));
  EXPECT_TENSOR_NEAR(x, golden.at("predictions.out0"), 1e-5, 1e-6);
}

}  // namespace
}  // namespace keras

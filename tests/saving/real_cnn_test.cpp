// A real Keras 3.10 file: the Fashion-MNIST CNN of ../shared/models, rebuilt in C++ from the
// same layers (Keras names, defaults, auto-generated names), its weights loaded from the
// .keras archive, must predict what a PyTorch re-implementation of the file predicts
// (tools/golden/fashion_mnist_cnn.py).

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/weights.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

ModelPtr<SequentialModel> fashion_mnist_cnn() {
  backend::clear_session();
  return Sequential({
      Input({28, 28, 1}),
      layers::Conv2D(32, 3, {.activation = "relu"}),
      layers::MaxPooling2D(2),
      layers::Conv2D(64, 3, {.activation = "relu"}),
      layers::MaxPooling2D(2),
      layers::Flatten(),
      layers::Dropout(0.5),
      layers::Dense(64, {.activation = "relu"}),
      layers::Dense(10, {.activation = "softmax"}),
  });
}

TEST(RealKerasFile, FashionMnistCnnPredictsAsTheFileDoes) {
  std::string path = std::string(KERAS_SHARED_DIR) + "/models/fashion_mnist_cnn.keras";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = fashion_mnist_cnn();
  std::vector<std::string> names;
  for (const auto& layer : model->layers()) names.push_back(layer->name());
  EXPECT_EQ(names, (std::vector<std::string>{"conv2d", "max_pooling2d", "conv2d_1",
                                              "max_pooling2d_1", "flatten", "dropout", "dense",
                                              "dense_1"}));
  saving::load_weights(*model, path);
  GoldenOps ops;
  ops["predict"] = [&](const TensorList& in, const json&) {
    return TensorList{model->predict(in[0], {.verbose = 0}).single()};
  };
  ops["read_dataset"] = [&](const TensorList&, const json&) {
    return TensorList{model->get_layer("conv2d")->weights()[0].value()};
  };
  run_golden("fashion_mnist_cnn", ops);
  // (9*1*32 + 32) + (9*32*64 + 64) + (1600*64 + 64) + (64*10 + 10), as Keras counts them.
  EXPECT_EQ(model->count_params(), 121930);
}

}  // namespace
}  // namespace keras

// Trains a classifier on Fashion-MNIST (Debian's dataset-fashion-mnist) with compile/fit, then
// evaluates it on the test images: the Keras "hello world", in C++.
//
//   ./fashion_mnist_mlp                    # all 60000 training images, 5 epochs
//   ./fashion_mnist_mlp --samples 2000 --epochs 1

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;

int main(int argc, char** argv) {
  int64_t samples = 60000;
  int epochs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
  }
  try {
    keras::utils::set_random_seed(1337);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    auto prepare = [](const keras::Tensor& images, int64_t n) {
      keras::Tensor x = ops::cast(images.slice({{0, n}}), keras::DType::Float32) / 255.0;
      return ops::reshape(x, {n, 28 * 28});
    };
    samples = std::min<int64_t>(samples, 60000);
    keras::Tensor x_train = prepare(train.first, samples);
    keras::Tensor y_train = train.second.slice({{0, samples}});
    keras::Tensor x_test = prepare(test.first, 10000);
    keras::Tensor y_test = test.second;

    auto model = keras::Sequential({
        keras::Input({784}),
        layers::Dense(256, {.activation = "relu"}),
        layers::Dense(128, {.activation = "relu"}),
        layers::Dense(10, {.activation = "softmax"}),
    });
    model->summary();
    model->compile({.optimizer = "adam",
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    model->fit(x_train, y_train, {.batch_size = 128, .epochs = epochs, .validation_split = 0.1});
    keras::Logs scores = model->evaluate(x_test, y_test, {.verbose = 0});
    std::cout << "test accuracy: " << scores.at("accuracy") << ", test loss: " << scores.at("loss")
              << "\n";
    return scores.at("accuracy") > 0.5 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

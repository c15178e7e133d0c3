// The main job: a small CNN learns Fashion-MNIST (Debian's dataset-fashion-mnist). It prints
// the model summary, trains with Keras's progress bar, evaluates on the 10000 test images,
// saves the model as fashion_mnist.keras (a file Python Keras 3 opens) and the per-epoch
// history as history.csv, and prints the test accuracy.
//
//   ./fashion_mnist_cnn                          # 60000 training images, 8 epochs
//   ./fashion_mnist_cnn --samples 3000 --epochs 1 --backend cpu --out /tmp/run

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;

int main(int argc, char** argv) {
  int64_t samples = 60000;
  int epochs = 8;
  std::string backend, out = ".";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--backend")) backend = argv[i + 1];
    if (!std::strcmp(argv[i], "--out")) out = argv[i + 1];
  }
  try {
    if (!backend.empty()) keras::backend::set_default(backend);
    auto start = std::chrono::steady_clock::now();
    keras::utils::set_random_seed(1337);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    auto prepare = [](const keras::Tensor& images, int64_t n) {
      keras::Tensor x = ops::cast(images.slice({{0, n}}), keras::DType::Float32) / 255.0;
      return ops::reshape(x, {n, 28, 28, 1});
    };
    samples = std::min<int64_t>(samples, 60000);
    keras::Tensor x_train = prepare(train.first, samples);
    keras::Tensor y_train = train.second.slice({{0, samples}});
    keras::Tensor x_test = prepare(test.first, 10000);
    keras::Tensor y_test = test.second;

    auto model = keras::Sequential({
        keras::Input({28, 28, 1}),
        layers::Conv2D(32, 3, {.activation = "relu"}),
        layers::MaxPooling2D(2),
        layers::Conv2D(64, 3, {.activation = "relu"}),
        layers::MaxPooling2D(2),
        layers::Flatten(),
        layers::Dropout(0.3),
        layers::Dense(128, {.activation = "relu"}),
        layers::Dense(10, {.activation = "softmax"}),
    });
    model->summary();
    model->compile({.optimizer = "adam",
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    std::filesystem::create_directories(out);
    std::string history_csv = out + "/history.csv", model_file = out + "/fashion_mnist.keras";
    model->fit(x_train, y_train,
               {.batch_size = 128,
                .epochs = epochs,
                .callbacks = {std::make_shared<keras::callbacks::CSVLogger>(history_csv)},
                .validation_split = 0.1});
    keras::Logs scores = model->evaluate(x_test, y_test, {.verbose = 0});
    model->save(model_file);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "saved " << model_file << " and " << history_csv << "\n"
              << "test accuracy: " << scores.at("accuracy") << ", test loss: " << scores.at("loss")
              << " (" << seconds << " s)\n";
    return scores.at("accuracy") > 0.5 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

// Data-parallel training on several processes: the Fashion-MNIST classifier of
// fashion_mnist_mlp.cpp, unchanged, under keras::distribution::DataParallel. Every process reads
// the same global batches of 128 images and trains on its share; the gradients are summed over
// the processes (Gloo) before the same update everywhere, so every process holds the same model,
// the one a single process would train on batches of 128.
//
//   keras-cpp launch -n 2 ./distributed_data_parallel --samples 6000 --epochs 2
//   ./distributed_data_parallel                 # without the launcher: a job of one process

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <keras/distribution/distribution.h>
#include <keras/keras.h>

namespace dist = keras::distribution;
namespace layers = keras::layers;
namespace ops = keras::ops;

int main(int argc, char** argv) {
  int64_t samples = 60000;
  int epochs = 3;
  std::string save_to;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--save")) save_to = argv[i + 1];
  }
  try {
    // Joins the job keras-cpp launch started (KERAS_DISTRIBUTION_* variables); alone without them.
    dist::initialize();
    dist::set_distribution(std::make_shared<dist::DataParallel>());
    if (dist::process_id() == 0)
      std::cout << "process 0 of " << dist::num_processes() << ", devices:";
    for (const std::string& d : dist::list_devices())
      if (dist::process_id() == 0) std::cout << " " << d;
    if (dist::process_id() == 0) std::cout << "\n";

    keras::utils::set_random_seed(1337);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    auto prepare = [](const keras::Tensor& images, int64_t n) {
      keras::Tensor x = ops::cast(images.slice({{0, n}}), keras::DType::Float32) / 255.0;
      return ops::reshape(x, {n, 28 * 28});
    };
    samples = std::min<int64_t>(samples, 60000);
    keras::Tensor x_train = prepare(train.first, samples);
    keras::Tensor y_train = train.second.slice({{0, samples}});

    auto model = keras::Sequential({
        keras::Input({784}),
        layers::Dense(256, {.activation = "relu"}),
        layers::Dense(128, {.activation = "relu"}),
        layers::Dense(10, {.activation = "softmax"}),
    });
    model->compile({.optimizer = "adam",
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    // Only process 0 prints the progress bar; the logs are those of the whole global batch.
    model->fit(x_train, y_train, {.batch_size = 128, .epochs = epochs, .validation_split = 0.1});
    keras::Logs scores = model->evaluate(prepare(test.first, 10000), test.second, {.verbose = 0});
    if (dist::process_id() == 0) {
      std::cout << "test accuracy: " << scores.at("accuracy") << ", test loss: " << scores.at("loss")
                << "\n";
      // The replicas are equal: process 0 saves an ordinary .keras file.
      if (!save_to.empty()) model->save(save_to);
    }
    return scores.at("accuracy") > 0.5 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "process " << dist::process_id() << ": error: " << e.what() << "\n";
    return 1;
  }
}

// Model-parallel training on several processes: a classifier whose two large Dense kernels are
// split over a "model" axis of the device mesh by a LayoutMap, so that each process keeps only
// its columns (or rows) of them, and of their Adam moments, between steps. The data is split over
// the "batch" axis. After fit the model is whole again on every process, and process 0 saves an
// ordinary .keras file that loads anywhere.
//
//   keras-cpp launch -n 2 ./distributed_model_parallel            # a 1 x 2 mesh
//   keras-cpp launch -n 4 ./distributed_model_parallel --batch-shards 2   # a 2 x 2 mesh

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <keras/distribution/distribution.h>
#include <keras/keras.h>

namespace dist = keras::distribution;
namespace layers = keras::layers;
namespace ops = keras::ops;

int main(int argc, char** argv) {
  int64_t samples = 60000, batch_shards = 1;
  int epochs = 2;
  std::string save_to;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--batch-shards")) batch_shards = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--save")) save_to = argv[i + 1];
  }
  try {
    dist::initialize();
    const int64_t model_shards = dist::get_device_count() / batch_shards;
    auto mesh = std::make_shared<dist::DeviceMesh>(std::vector<int64_t>{batch_shards, model_shards},
                                                   std::vector<std::string>{"batch", "model"});
    dist::LayoutMap layouts(mesh);
    layouts.set("hidden_1/kernel", {std::nullopt, "model"});  // (784, 512): by columns
    layouts.set("hidden_2/kernel", {"model", std::nullopt});  // (512, 256): by rows
    dist::set_distribution(std::make_shared<dist::ModelParallel>(layouts, "batch"));

    keras::utils::set_random_seed(1337);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    auto prepare = [](const keras::Tensor& images, int64_t n) {
      keras::Tensor x = ops::cast(images.slice({{0, n}}), keras::DType::Float32) / 255.0;
      return ops::reshape(x, {n, 28 * 28});
    };
    samples = std::min<int64_t>(samples, 60000);
    auto model = keras::Sequential({
        keras::Input({784}),
        layers::Dense(512, {.activation = "relu", .name = "hidden_1"}),
        layers::Dense(256, {.activation = "relu", .name = "hidden_2"}),
        layers::Dense(10, {.activation = "softmax", .name = "classes"}),
    });
    model->compile({.optimizer = "adam",
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    model->fit(prepare(train.first, samples), train.second.slice({{0, samples}}),
               {.batch_size = 128, .epochs = epochs});
    keras::Logs scores = model->evaluate(prepare(test.first, 10000), test.second, {.verbose = 0});
    if (dist::process_id() == 0) {
      std::cout << "mesh " << batch_shards << " x " << model_shards << ": test accuracy "
                << scores.at("accuracy") << ", test loss " << scores.at("loss") << "\n";
      if (!save_to.empty()) model->save(save_to);
    }
    return scores.at("accuracy") > 0.5 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "process " << dist::process_id() << ": error: " << e.what() << "\n";
    return 1;
  }
}

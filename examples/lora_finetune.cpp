// LoRA fine-tuning (Keras's enable_lora): train an MLP on Fashion-MNIST as the "pretrained"
// model, then adapt it to a shifted task (the same clothes as photographic negatives, 255 - x,
// where the pretrained model does poorly) by training only low-rank adapters. The base kernels
// stay frozen: the example checks they are bit-for-bit unchanged, and prints how few parameters
// were trained.
//
//   ./lora_finetune                         # 12000 training images, 2 + 2 epochs
//   ./lora_finetune --samples 3000 --epochs 1

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;
using keras::Tensor;

int main(int argc, char** argv) {
  int64_t samples = 12000;
  int epochs = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
  }
  try {
    keras::utils::set_random_seed(1337);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    samples = std::min<int64_t>(samples, 60000);
    auto prepare = [](const Tensor& images, int64_t n) {
      Tensor x = ops::cast(images.slice({{0, n}}), keras::DType::Float32) / 255.0;
      return ops::reshape(x, {n, 28 * 28});
    };
    auto negative = [](const Tensor& x) { return ops::subtract(1.0, x); };
    Tensor x_train = prepare(train.first, samples), y_train = train.second.slice({{0, samples}});
    Tensor x_test = prepare(test.first, 2000), y_test = test.second.slice({{0, 2000}});

    // 1. The "pretrained" model: an ordinary MLP trained on the original images.
    std::vector<keras::LayerPtr<layers::DenseLayer>> dense = {
        layers::Dense(256, {.activation = "relu"}), layers::Dense(128, {.activation = "relu"}),
        layers::Dense(10, {.activation = "softmax"})};
    auto model = keras::Sequential({keras::Input({784}), dense[0], dense[1], dense[2]});
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-3}),
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    std::cout << "== pretraining on " << samples << " images\n";
    model->fit(x_train, y_train, {.batch_size = 128, .epochs = epochs, .verbose = 0});
    auto accuracy = [&](const Tensor& x) {
      return model->evaluate(x, y_test, {.verbose = 0}).at("accuracy");
    };
    const double original = accuracy(x_test), shifted_before = accuracy(negative(x_test));
    std::cout << "pretrained: accuracy " << original << " on the test images, " << shifted_before
              << " on their negatives\n";

    // 2. LoRA on every Dense layer: kernels frozen, rank-4 adapters trainable.
    std::vector<Tensor> kernels_before;
    for (auto& d : dense) {
      kernels_before.push_back(d->kernel_variable().value());
      d->enable_lora(4);
    }
    int64_t trainable = 0;
    for (const keras::Variable& v : model->trainable_weights()) trainable += v.shape().numel();
    const int64_t total = model->count_params();
    std::cout << "LoRA rank 4: " << trainable << " trainable parameters of " << total << " ("
              << 100.0 * static_cast<double>(trainable) / static_cast<double>(total) << "%)\n";

    // 3. Fine-tune on the shifted task (compile again: the trainable weights changed).
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    std::cout << "== fine-tuning on the negatives\n";
    model->fit(negative(x_train), y_train, {.batch_size = 128, .epochs = epochs, .verbose = 0});
    const double shifted_after = accuracy(negative(x_test));
    std::cout << "fine-tuned: accuracy " << shifted_after << " on the negatives (was "
              << shifted_before << ")\n";

    // 4. Only the adapters (and biases) moved.
    bool frozen = true;
    for (size_t i = 0; i < dense.size(); ++i) {
      const double kernel_change = ops::max(ops::absolute(ops::subtract(
          dense[i]->kernel_variable().value(), kernels_before[i]))).item<double>();
      const double update = ops::max(ops::absolute(ops::subtract(
          dense[i]->kernel(), kernels_before[i]))).item<double>();
      std::cout << dense[i]->name() << ": max |kernel change| " << kernel_change
                << ", max |LoRA update| " << update << "\n";
      frozen = frozen && kernel_change == 0.0 && update > 0.0;
    }

    // 5. Saved as Keras saves it: merged kernels, loadable with or without LoRA.
    const std::string file =
        (std::filesystem::temp_directory_path() / "lora_finetune.keras").string();
    model->save(file);
    auto loaded = keras::saving::load_model(file);
    const double reloaded = loaded->evaluate(negative(x_test), y_test, {.verbose = 0}).at("accuracy");
    std::cout << "saved and reloaded: accuracy " << reloaded << " on the negatives\n";

    const bool ok = frozen && shifted_after > shifted_before && std::abs(reloaded - shifted_after) < 1e-3;
    std::cout << (ok ? "OK: only the LoRA weights changed\n" : "FAILED\n");
    return ok ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

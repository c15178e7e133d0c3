// Post-training quantization (Keras's model.quantize): train an MLP on Fashion-MNIST in float32,
// quantize it, and compare accuracy, the weights' memory and the speed of a batch-32 forward
// pass; then save the quantized model as a .keras file (Python Keras loads it) and load it back.
//
//   ./quantize_mlp                          # 12000 training images, 2 epochs, int8
//   ./quantize_mlp --samples 3000 --epochs 1 --mode int8

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;
using keras::Tensor;

namespace {

int64_t weight_bytes(const keras::Model& model) {
  int64_t bytes = 0;
  for (const keras::Variable& v : model.weights())
    bytes += v.shape().numel() * static_cast<int64_t>(keras::itemsize(v.dtype()));
  return bytes;
}

// Median milliseconds of a forward pass on `x`.
double forward_ms(keras::Model& model, const Tensor& x) {
  for (int i = 0; i < 5; ++i) model(x);
  std::vector<double> ms;
  for (int i = 0; i < 31; ++i) {
    auto start = std::chrono::steady_clock::now();
    model(x);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int64_t samples = 12000;
  int epochs = 2;
  std::string mode = "int8";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--mode")) mode = argv[i + 1];
  }
  try {
    keras::utils::set_random_seed(1337);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    samples = std::min<int64_t>(samples, 60000);
    auto prepare = [](const Tensor& images, int64_t n) {
      Tensor x = ops::cast(images.slice({{0, n}}), keras::DType::Float32) / 255.0;
      return ops::reshape(x, {n, 28 * 28});
    };
    Tensor x_train = prepare(train.first, samples), y_train = train.second.slice({{0, samples}});
    Tensor x_test = prepare(test.first, 10000), y_test = test.second;

    // 1. An ordinary float32 model.
    auto model = keras::Sequential({keras::Input({784}), layers::Dense(256, {.activation = "relu"}),
                                    layers::Dense(128, {.activation = "relu"}),
                                    layers::Dense(10, {.activation = "softmax"})});
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-3}),
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"}});
    std::cout << "== training on " << samples << " images\n";
    model->fit(x_train, y_train, {.batch_size = 128, .epochs = epochs, .verbose = 0});
    auto accuracy = [&](keras::Model& m) {
      return 100.0 * m.evaluate(x_test, y_test, {.verbose = 0}).at("accuracy");
    };
    const Tensor batch = x_test.slice({{0, 32}});
    const double float_accuracy = accuracy(*model), float_ms = forward_ms(*model, batch);
    const int64_t float_bytes = weight_bytes(*model);

    // 2. Quantize in place: Dense kernels become int8 (or int4/float8) with per-unit scales.
    model->quantize(mode);
    const double quantized_accuracy = accuracy(*model), quantized_ms = forward_ms(*model, batch);
    const int64_t quantized_bytes = weight_bytes(*model);
    std::cout << "float32: accuracy " << float_accuracy << "%, weights " << float_bytes
              << " bytes\n"
              << mode << ": accuracy " << quantized_accuracy << "%, weights " << quantized_bytes
              << " bytes\n"
              << "batch-32 forward pass: float32 " << float_ms << " ms, " << mode << " "
              << quantized_ms << " ms\n"
              << "accuracy drop " << float_accuracy - quantized_accuracy << " points\n"
              << "float32 / " << mode << ": weight bytes "
              << static_cast<double>(float_bytes) / static_cast<double>(quantized_bytes)
              << "x, forward time " << float_ms / quantized_ms << "x\n";

    // 3. Saved as Keras saves a quantized model; loaded back it predicts the same.
    const std::string file =
        (std::filesystem::temp_directory_path() / ("quantize_mlp_" + mode + ".keras")).string();
    model->save(file);
    auto loaded = keras::saving::load_model(file);
    const double difference =
        ops::max(ops::absolute(ops::subtract(loaded->predict(x_test, {.verbose = 0}).single(),
                                             model->predict(x_test, {.verbose = 0}).single())))
            .item<double>();
    std::cout << "saved " << file << "; reloaded: max |prediction difference| " << difference
              << "\n";

    const bool ok = float_accuracy - quantized_accuracy <= 1.0 && difference == 0.0;
    std::cout << (ok ? "OK\n" : "FAILED\n");
    return ok ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

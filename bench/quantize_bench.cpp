// int8 quantization (issue 20): a Dense-heavy MLP's inference at batch 32, float32 against the
// same model after model->quantize("int8") (the cpu backend's int8 GEMM), the weights' memory,
// and Fashion-MNIST test accuracy before and after quantization. Prints `name: value` lines:
//   quantize_float_ms, quantize_int8_ms   median time of one batch-32 forward pass
//   quantize_speedup                      float / int8 (target >= 1.8)
//   quantize_float_weight_bytes, quantize_int8_weight_bytes, quantize_memory_ratio (target 4)
//                                         (the int8 kernels are all the memory they take: the
//                                         GEMM packs panels into per-thread scratch per call)
//   quantize_float_accuracy, quantize_int8_accuracy, quantize_accuracy_drop_points (<= 0.5)
//   quantize_int4_*, quantize_int4_b128_*   the same for int4 per channel and in Keras's default
//                                         blocks of 128 (weight-only: the cpu backend's
//                                         int4_matmul, a float GEMM on unpacked panels)
// Usage: bench_quantize [--threads N] [--epochs E] [--quick]. KERAS_CPU_ISA=avx2 measures the
// AVX2 kernel on an AVX-512 machine; the int8 kernel in use is printed.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <keras/keras.h>

#include "../backends/cpu/src/int8_gemm.h"
#include "../backends/cpu/src/thread_pool.h"
#include "common/bench_common.h"

namespace layers = keras::layers;
namespace ops = keras::ops;

namespace {

keras::ModelPtr<keras::SequentialModel> mlp(int64_t width) {
  return keras::Sequential({keras::Input({784}),
                            layers::Dense(width, {.activation = "relu"}),
                            layers::Dense(width, {.activation = "relu"}),
                            layers::Dense(10)});
}

int64_t weight_bytes(const keras::Model& model) {
  int64_t bytes = 0;
  for (const keras::Variable& v : model.weights())
    bytes += v.value().size() * static_cast<int64_t>(keras::itemsize(v.dtype()));
  return bytes;
}

// Median milliseconds of one forward pass on `x` over `blocks` blocks of `iters` calls.
double median_ms(keras::Model& model, const keras::Tensor& x, int blocks, int iters) {
  for (int i = 0; i < 10; ++i) model(x);
  std::vector<double> per_call;
  for (int b = 0; b < blocks; ++b) {
    double start = bench::now();
    for (int i = 0; i < iters; ++i) model(x);
    per_call.push_back((bench::now() - start) * 1e3 / iters);
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

// int4 per channel and in Keras's default blocks of 128.
const std::pair<const char*, int64_t> kInt4Settings[] = {{"int4", -1}, {"int4_b128", 128}};

double accuracy(keras::Model& model, const keras::Tensor& x, const keras::Tensor& y) {
  keras::Tensor logits = model.predict(keras::TensorStruct(x), {.batch_size = 256, .verbose = 0})
                             .flat()
                             .at(0);
  keras::Tensor hits = ops::equal(ops::argmax(logits, -1), ops::cast(y, keras::DType::Int64));
  return ops::mean(ops::cast(hits, keras::DType::Float32)).item<float>() * 100.0;
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 2;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) keras::cpu::set_num_threads(std::atoi(argv[++i]));
    else if (arg == "--epochs" && i + 1 < argc) epochs = std::atoi(argv[++i]);
    else if (arg == "--quick") quick = true;
    else {
      std::cerr << "usage: bench_quantize [--threads N] [--epochs E] [--quick]\n";
      return 2;
    }
  }
  std::cout << "int8 kernel: " << keras::cpu::int8_gemm_kernel()
            << ", threads: " << keras::cpu::num_threads() << "\n";
  keras::utils::set_random_seed(1);

  // Speed and memory: the Dense-heavy MLP (784 -> 1024 -> 1024 -> 10) at batch 32.
  auto model = mlp(1024);
  keras::Tensor batch = keras::random::uniform({32, 784}, 0, 1);
  const int blocks = quick ? 1 : 7, iters = quick ? 3 : 50;
  const double float_ms = median_ms(*model, batch, blocks, iters);
  const int64_t float_bytes = weight_bytes(*model);
  model->save("/tmp/bench_quantize_float.keras");
  auto quantized = keras::saving::load_model("/tmp/bench_quantize_float.keras");
  quantized->quantize("int8");
  const double int8_ms = median_ms(*quantized, batch, blocks, iters);
  const int64_t int8_bytes = weight_bytes(*quantized);
  bench::report("quantize_float_ms", float_ms);
  bench::report("quantize_int8_ms", int8_ms);
  bench::report("quantize_speedup", float_ms / int8_ms);
  bench::report("quantize_float_weight_bytes", static_cast<double>(float_bytes));
  bench::report("quantize_int8_weight_bytes", static_cast<double>(int8_bytes));
  bench::report("quantize_memory_ratio", static_cast<double>(float_bytes) / int8_bytes);
  for (const auto& [name, block_size] : kInt4Settings) {
    auto int4 = keras::saving::load_model("/tmp/bench_quantize_float.keras");
    int4->quantize("int4", keras::quantizers::Int4QuantizationConfig({.block_size = block_size}));
    const double ms = median_ms(*int4, batch, blocks, iters);
    const int64_t bytes = weight_bytes(*int4);
    bench::report(std::string("quantize_") + name + "_ms", ms);
    bench::report(std::string("quantize_") + name + "_weight_bytes", static_cast<double>(bytes));
    bench::report(std::string("quantize_") + name + "_memory_ratio",
                  static_cast<double>(float_bytes) / bytes);
  }

  // Accuracy: the same architecture trained on Fashion-MNIST, then quantized.
  const int64_t n_train = quick ? 2048 : 60000, n_test = quick ? 1024 : 10000;
  bench::ImageData train = bench::fashion_mnist(true, n_train);
  bench::ImageData test = bench::fashion_mnist(false, n_test);
  auto to_x = [](const bench::ImageData& d) {
    return ops::convert_to_tensor(d.x, {d.n, 784});
  };
  auto to_y = [](const bench::ImageData& d) {
    return ops::convert_to_tensor(d.y, {d.n});
  };
  keras::Tensor x_train = to_x(train), y_train = to_y(train);
  keras::Tensor x_test = to_x(test), y_test = to_y(test);
  auto trained = mlp(1024);
  trained->compile({.optimizer = keras::optimizers::Adam(1e-3),
                    .loss = keras::losses::SparseCategoricalCrossentropy({.from_logits = true})});
  trained->fit(x_train, y_train, {.batch_size = 128, .epochs = quick ? 1 : epochs, .verbose = 0});
  const double float_acc = accuracy(*trained, x_test, y_test);
  trained->save("/tmp/bench_quantize_trained.keras");
  for (const auto& [name, block_size] : kInt4Settings) {
    auto int4 = keras::saving::load_model("/tmp/bench_quantize_trained.keras");
    int4->quantize("int4", keras::quantizers::Int4QuantizationConfig({.block_size = block_size}));
    const double acc = accuracy(*int4, x_test, y_test);
    bench::report(std::string("quantize_") + name + "_accuracy", acc);
    bench::report(std::string("quantize_") + name + "_accuracy_drop_points", float_acc - acc);
  }
  trained->quantize("int8");
  const double int8_acc = accuracy(*trained, x_test, y_test);
  bench::report("quantize_float_accuracy", float_acc);
  bench::report("quantize_int8_accuracy", int8_acc);
  bench::report("quantize_accuracy_drop_points", float_acc - int8_acc);
  return 0;
}

// GPTQ and AWQ (Keras's model.quantize("gptq" / "awq")): train a small next-token model in
// float32, then quantize its weights to 4, 3 and 2 bits, calibrated on training windows block
// by block, and compare next-token accuracy with Keras's plain int4 (round to nearest, no
// calibration) and the float model; the GPTQ model is saved as a .keras file (Python Keras
// loads it) and read back.
//
//   ./quantize_gptq                         # 6000 training sequences, 3 epochs
//   ./quantize_gptq --samples 2000 --epochs 2
//
// The data: sequences of 32 tokens from a fixed random Markov chain whose next token is one
// given successor 3 times in 4; the best possible accuracy is about 0.75.

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;
namespace quantizers = keras::quantizers;
using keras::Tensor;

namespace {

constexpr int64_t kVocab = 32, kLength = 16, kWidth = 64, kHidden = 256;

// Inputs (n, length) and next-token targets (n, length) from the chain.
std::pair<Tensor, Tensor> sequences(int64_t n, std::mt19937& rng) {
  std::vector<int32_t> successor(kVocab);
  std::mt19937 table(7);  // the same chain for every split
  for (auto& s : successor) s = static_cast<int32_t>(table() % kVocab);
  std::vector<int32_t> x, y;
  for (int64_t i = 0; i < n; ++i) {
    int32_t token = static_cast<int32_t>(rng() % kVocab);
    for (int64_t t = 0; t <= kLength; ++t) {
      if (t < kLength) x.push_back(token);
      if (t > 0) y.push_back(token);
      token = rng() % 4 ? successor[static_cast<size_t>(token)] : static_cast<int32_t>(rng() % kVocab);
    }
  }
  return {Tensor::from_vector(x, {n, kLength}), Tensor::from_vector(y, {n, kLength})};
}

keras::ModelPtr<keras::FunctionalModel> language_model() {
  auto block = [](const std::string& name) {
    return keras::Sequential({keras::Input({kLength, kWidth}),
                              layers::Dense(kHidden, {.activation = "gelu"}),
                              layers::Dense(kWidth)},
                             {.name = name});
  };
  auto tokens = keras::Input({kLength}, {.dtype = keras::DType::Int32});
  auto x = layers::Embedding(kVocab, kWidth, {.name = "embedding"})(tokens);
  x = block("block_0")(x);
  x = block("block_1")(x);
  return keras::Functional(tokens, layers::Dense(kVocab, {.name = "head"})(x));
}

// The model's blocks for GPTQ/AWQ: the embedding before them; the head last, as a block of its
// own, so that it is calibrated too.
quantizers::QuantizationLayerStructure structure_of(keras::Model& model) {
  return {{model.get_layer("embedding")},
          {model.get_layer("block_0"), model.get_layer("block_1"), model.get_layer("head")}};
}

}  // namespace

int main(int argc, char** argv) {
  int64_t samples = 6000;
  int epochs = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
  }
  try {
    keras::utils::set_random_seed(1337);
    std::mt19937 rng(1337);
    auto [x_train, y_train] = sequences(samples, rng);
    auto [x_test, y_test] = sequences(1000, rng);
    auto [calibration, unused] = sequences(64, rng);

    // 1. A float32 model, trained and saved, so that each quantization starts from a copy.
    auto model = language_model();
    auto compile = [](keras::Model& m) {
      m.compile({.optimizer = keras::optimizers::Adam({.learning_rate = 2e-3}),
                 .loss = std::make_shared<keras::losses::SparseCategoricalCrossentropy>(
                     keras::losses::SparseCategoricalCrossentropyOptions{.from_logits = true}),
                 .metrics = {"accuracy"}});
    };
    compile(*model);
    std::cout << "== training on " << samples << " sequences of " << kLength << " tokens\n";
    model->fit(x_train, y_train, {.batch_size = 64, .epochs = epochs, .verbose = 0});
    // Per process: the test suite runs this example twice at once.
    const std::string stem = (std::filesystem::temp_directory_path() /
                              ("quantize_gptq_" + std::to_string(::getpid()))).string();
    const std::string float_file = stem + "_float.keras";
    model->save(float_file);
    // Test cross-entropy: how far the predicted distributions moved (the accuracy of this
    // task barely moves).
    auto test_loss = [&](keras::Model& m) {
      return m.evaluate(x_test, y_test, {.verbose = 0}).at("loss");
    };
    const double float_loss = test_loss(*model);
    std::cout << std::fixed << std::setprecision(4) << "float32       test loss " << float_loss
              << "\n";

    // 2. Each quantization on a fresh copy: Keras's int4 rounds each weight to the nearest
    // level; GPTQ corrects each column's rounding on the columns still to come, AWQ scales the
    // inputs with large activations first, both from the inputs the calibration windows give.
    const auto windows = quantizers::CalibrationDataset(calibration);
    struct Setting {
      std::string label, mode;
      std::function<quantizers::QuantizationConfigPtr(keras::Model&)> config;
    };
    auto gptq = [&](int bits, int64_t group) {
      return [&windows, bits, group](keras::Model& m) {
        return quantizers::GPTQConfig({.dataset = windows,
                                       .weight_bits = bits,
                                       .num_samples = 64,
                                       .sequence_length = kLength,
                                       .group_size = group,
                                       .activation_order = true,
                                       .quantization_layer_structure = structure_of(m)});
      };
    };
    const std::vector<Setting> settings = {
        {"int4 (round)", "int4", [](keras::Model&) { return nullptr; }},
        {"gptq 4-bit", "gptq", gptq(4, -1)},
        {"gptq 3-bit", "gptq", gptq(3, 32)},
        {"gptq 2-bit", "gptq", gptq(2, 16)},
        {"awq 4-bit", "awq",
         [&windows](keras::Model& m) {
           return quantizers::AWQConfig({.dataset = windows,
                                         .num_samples = 64,
                                         .sequence_length = kLength,
                                         .group_size = -1,
                                         .quantization_layer_structure = structure_of(m)});
         }},
    };
    double gptq4_loss = 0;
    std::string gptq_file;
    for (const Setting& s : settings) {
      auto copy = keras::saving::load_model(float_file);
      copy->quantize(s.mode, s.config(*copy));
      const double loss = test_loss(*copy);
      std::cout << std::left << std::setw(14) << s.label << "test loss " << loss << " ("
                << std::showpos << loss - float_loss << std::noshowpos << ")\n";
      if (s.label == "gptq 4-bit") {
        gptq4_loss = loss;
        gptq_file = stem + "_gptq_4bit.keras";
        copy->save(gptq_file);
      }
    }

    // 3. The GPTQ model as a .keras file Keras 3.15 loads; read back, it scores the same.
    auto loaded = keras::saving::load_model(gptq_file);
    const double reloaded_loss = test_loss(*loaded);
    std::cout << "saved " << gptq_file << "\nreloaded      test loss " << reloaded_loss << "\n";
    std::filesystem::remove(float_file);
    std::filesystem::remove(gptq_file);
    const bool ok = gptq4_loss - float_loss <= 0.02 && reloaded_loss == gptq4_loss;
    std::cout << (ok ? "OK\n" : "FAILED\n");
    return ok ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

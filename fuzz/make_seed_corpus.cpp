// Writes the committed seed corpus (fuzz/corpus/): files keras-cpp itself writes for the small
// model the fuzz target loads into, as a .weights.h5, as .keras archives (model.save's own,
// one with a hand-written Keras config stored as Keras writes it, and deflated) and as bare
// JSON. Usage: fuzz_seed_corpus <folder>

#include <zip.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/save_weights.h"

namespace {

const char* kMetadata = R"({"keras_version": "3.10.0", "date_saved": "2025-07-22@14:27:31"})";

// A Sequential config in Keras 3's schema for Input(4) -> Dense(3, relu) -> Dense(2).
std::string config_json() {
  auto dtype = R"({"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": null})";
  auto dense = [&](const std::string& name, int units, const std::string& activation,
                   int in) {
    return std::string(R"({"module": "keras.layers", "class_name": "Dense", "config": {"name": ")") +
           name + R"(", "trainable": true, "dtype": )" + dtype + R"(, "units": )" +
           std::to_string(units) + R"(, "activation": ")" + activation +
           R"(", "use_bias": true, "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform", "config": {"seed": null}, "registered_name": null}, "bias_initializer": {"module": "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": null}, "kernel_regularizer": null, "bias_regularizer": null, "kernel_constraint": null, "bias_constraint": null}, "registered_name": null, "build_config": {"input_shape": [null, )" +
           std::to_string(in) + "]}}";
  };
  return std::string(R"({"module": "keras", "class_name": "Sequential", "config": {"name": "sequential", "trainable": true, "dtype": )") +
         dtype +
         R"(, "layers": [{"module": "keras.layers", "class_name": "InputLayer", "config": {"batch_shape": [null, 4], "dtype": "float32", "sparse": false, "ragged": false, "name": "input_layer"}, "registered_name": null}, )" +
         dense("dense", 3, "relu", 4) + ", " + dense("dense_1", 2, "linear", 3) +
         R"(], "build_input_shape": [null, 4]}, "registered_name": null, "build_config": {"input_shape": [null, 4]}, "compile_config": {}})";
}

void write_zip(const std::string& path, const std::vector<std::pair<std::string, std::string>>& members,
               bool deflate) {
  std::remove(path.c_str());
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!z) throw keras::IOError("cannot create " + path);
  for (const auto& [name, data] : members) {
    zip_source_t* s = zip_source_buffer(z, data.data(), data.size(), 0);
    zip_int64_t i = zip_file_add(z, name.c_str(), s, ZIP_FL_OVERWRITE);
    zip_set_file_compression(z, static_cast<zip_uint64_t>(i),
                             deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  if (zip_close(z) != 0) throw keras::IOError("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <folder>\n", argv[0]);
    return 2;
  }
  namespace fs = std::filesystem;
  using namespace keras;
  const fs::path out(argv[1]);
  fs::create_directories(out);
  backend::clear_session();
  auto mlp = Sequential({Input({4}), layers::Dense(3, {.activation = "relu"}), layers::Dense(2)});
  const std::string weights = (out / "mlp.weights.h5").string();
  saving::save_weights(*mlp, weights);
  auto bytes = saving::read_file_bytes(weights);
  const std::string h5(bytes.begin(), bytes.end());
  const std::string config = config_json();
  write_zip((out / "mlp.keras").string(),
            {{"metadata.json", kMetadata}, {"config.json", config}, {"model.weights.h5", h5}},
            false);
  write_zip((out / "mlp_deflated.keras").string(),
            {{"metadata.json", kMetadata}, {"config.json", config}, {"model.weights.h5", h5}},
            true);
  write_zip((out / "assets.keras").string(),
            {{"metadata.json", kMetadata},
             {"config.json", config},
             {"model.weights.h5", h5},
             {"assets/layers/string_lookup/vocabulary.txt", "a\nb\nc\n"}},
            false);
  std::string json_seed = config;
  saving::write_file_atomically((out / "config.json").string(),
                                std::vector<uint8_t>(json_seed.begin(), json_seed.end()));
  std::string index = R"({"metadata": {"total_size": 92}, "weight_map": {"/layers/dense/vars": "mlp_00000.weights.h5"}})";
  saving::write_file_atomically((out / "index.weights.json").string(),
                                std::vector<uint8_t>(index.begin(), index.end()));
  // Optimizer variables too: a compiled, built optimizer.
  mlp->compile({.optimizer = optimizers::Adam(1e-3), .loss = "mse"});
  mlp->fit(ops::ones({8, 4}), ops::ones({8, 2}), {.batch_size = 4, .epochs = 1, .verbose = 0});
  saving::save_weights(*mlp, (out / "mlp_adam.weights.h5").string());
  // The whole model as model.save writes it: config, compile_config, optimizer variables.
  mlp->save((out / "mlp_saved.keras").string());
  std::printf("wrote the seed corpus to %s\n", out.c_str());
  return 0;
}

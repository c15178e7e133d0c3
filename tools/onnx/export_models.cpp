// ONNX files exported by keras-cpp for ONNX Runtime to run (scripts/onnx_check.sh, which then
// runs tools/onnx/check_onnx.py). Usage: onnx_export_models OUT_DIR SHARED_MODELS_DIR
// [KERAS_FIXTURES_DIR]
//
// For each model NAME: NAME.onnx (keras::saving::export_model), NAME.in<i>.npy (random inputs,
// batch 3: normal(0, 1); token ids in [0, 20) with some padding zeros for integer inputs) and
// NAME.out<i>.npy (keras-cpp's predictions on them). The models are those of onnx_models.cpp,
// every weight set to random values first (biases, BatchNormalization statistics and recurrent
// gates all count), the trained files of SHARED_MODELS_DIR with their own weights, and the
// models Keras saved under KERAS_FIXTURES_DIR (tests/oracle/fixtures) for the export: masks as
// Keras records them (onnx_masks/, tools/keras_oracle/onnx_masks.py) and the ConvLSTM1D/2D/3D
// files of tools/keras_oracle/conv_lstm.py (conv_lstm_files/).
// OUT_DIR/manifest.json lists {name, inputs, outputs, opset}; a model export_model refused
// carries "error" (a failure for check_onnx.py) or, where onnx_models.cpp allows the refusal,
// "expected_error".

#include <keras/keras.h>
#include <keras/saving/export.h>
#include <keras/saving/save_model.h>
#include <keras/utils/npy.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "onnx_models.h"

using keras::Model;
using keras::Tensor;
using keras::TensorList;

namespace {

constexpr int64_t kBatch = 3;

// Every weight to random values: normal(0, 0.3), or uniform(0.5, 1.5) for a variance.
void randomize_weights(Model& model) {
  for (keras::Variable v : model.weights()) {
    if (!keras::is_floating(v.dtype())) continue;
    const bool variance = v.name().find("variance") != std::string::npos;
    v.assign(variance ? keras::random::uniform(v.shape(), 0.5, 1.5, v.dtype())
                      : keras::random::normal(v.shape(), 0.0, 0.3, v.dtype()));
  }
}

// The model's symbolic inputs.
std::vector<keras::KerasTensor> model_inputs(const Model& model) {
  if (const auto* f = dynamic_cast<const keras::FunctionalModel*>(&model)) return f->inputs();
  if (const auto* s = dynamic_cast<const keras::SequentialModel*>(&model))
    return {s->input_tensor()};
  throw keras::ValueError("onnx_export_models: model \"" + model.name() +
                          "\" is neither Sequential nor Functional");
}

// Token ids with padding (id 0) as batches of sequences have it, so that a mask (Embedding's
// mask_zero) changes the result: row 0 ends with 3 zeros, row 1 starts with 2. Float sequences
// whose input is named "padded..." get whole steps of zeros there (Masking's default value), and
// row 2 all zeros: a sequence masked whole. An input named "...shifted" is padded elsewhere
// (row 0 starts with 1 zero, row 1 ends with 2, row 2 has 2 in the middle), so that two masks
// of one model differ.
Tensor with_padding(const Tensor& x, bool whole_row, bool shifted = false) {
  if (x.ndim() < 2 || x.shape()[1] < 4) return x;
  const int64_t steps = x.shape()[1];
  const int64_t step_size = x.size() / (x.shape()[0] * steps);
  std::vector<double> v = x.astype(keras::DType::Float64).to_vector<double>();
  const auto zero = [&](int64_t row, int64_t t) {
    for (int64_t k = 0; k < step_size; ++k)
      v[static_cast<size_t>((row * steps + t) * step_size + k)] = 0.0;
  };
  if (shifted) {
    zero(0, 0);
    for (int64_t t = steps - 2; t < steps; ++t) zero(1, t);
    if (x.shape()[0] > 2)
      for (int64_t t = steps / 2 - 1; t < steps / 2 + 1; ++t) zero(2, t);
    return Tensor::from_vector(v, x.shape()).astype(x.dtype());
  }
  for (int64_t t = steps - 3; t < steps; ++t) zero(0, t);
  for (int64_t t = 0; t < 2; ++t) zero(1, t);
  if (whole_row && x.shape()[0] > 2)
    for (int64_t t = 0; t < steps; ++t) zero(2, t);
  return Tensor::from_vector(v, x.shape()).astype(x.dtype());
}

// A batch of kBatch random rows for each input of `model`: normal(0, 1), or uniform in [0, 1)
// with `unit_range` (pixel values, for a model trained on them), or token ids in [0, 20) with
// padding.
TensorList random_inputs(const Model& model, bool unit_range) {
  // A subclassed model's inputs: float32, of the shapes it was built for.
  struct Spec {
    keras::Shape shape;
    keras::DType dtype;
    std::string name;
  };
  std::vector<Spec> specs;
  if (keras::onnx_check::is_subclassed(model))
    for (const keras::Shape& s : model.build_input_shapes())
      specs.push_back({s, keras::DType::Float32, ""});
  else
    for (const keras::KerasTensor& input : model_inputs(model))
      specs.push_back({input.shape(), input.dtype(), input.producer()->name()});
  TensorList out;
  for (auto [shape, dtype, name] : specs) {
    shape[0] = kBatch;
    for (int d = 1; d < shape.rank(); ++d)
      if (shape[d] < 0) shape[d] = 5;  // a dynamic axis (time): 5 steps
    if (!keras::is_floating(dtype))
      out.push_back(with_padding(keras::random::randint(shape, 0, 20, dtype), false,
                                 name.ends_with("shifted")));
    else if (name.rfind("padded", 0) == 0)
      out.push_back(with_padding(keras::random::normal(shape, 0.0, 1.0, dtype), true));
    else if (unit_range)
      out.push_back(keras::random::uniform(shape, 0.0, 1.0, dtype));
    else
      out.push_back(keras::random::normal(shape, 0.0, 1.0, dtype));
  }
  return out;
}

// The seed of a model's weights and inputs, from its name (FNV-1a): adding a model leaves the
// others' draws as they were.
uint64_t seed_of(const std::string& name) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return h;
}

class Writer {
 public:
  explicit Writer(std::string dir) : dir_(std::move(dir)) {}

  // Exports `model` as NAME.onnx and writes its predictions on random inputs. An export error
  // is recorded in the manifest (as expected when `expect_error`).
  void add(const std::string& name, Model& model, int opset, bool expect_error,
           bool unit_range = false) {
    nlohmann::json entry = {{"name", name}, {"opset", opset}};
    try {
      keras::saving::export_model(model, dir_ + "/" + name + ".onnx",
                                  {.opset_version = opset, .verbose = false});
    } catch (const keras::Error& e) {
      entry[expect_error ? "expected_error" : "error"] = e.what();
      std::cerr << "onnx_export_models: " << name << ": " << e.what() << "\n";
    }
    const TensorList inputs = random_inputs(model, unit_range);
    const keras::TensorStruct x =
        inputs.size() == 1 ? keras::TensorStruct(inputs[0]) : keras::TensorStruct(inputs);
    const TensorList outputs = model.predict(x, {.verbose = 0}).flat();
    for (size_t i = 0; i < inputs.size(); ++i) npy(name + ".in" + std::to_string(i), inputs[i]);
    for (size_t i = 0; i < outputs.size(); ++i) npy(name + ".out" + std::to_string(i), outputs[i]);
    entry["inputs"] = inputs.size();
    entry["outputs"] = outputs.size();
    manifest_.push_back(entry);
  }

  void finish() const {
    std::ofstream(dir_ + "/manifest.json") << manifest_.dump(1) << "\n";
    std::cout << "onnx_export_models: " << manifest_.size() << " models written to " << dir_
              << "\n";
  }

 private:
  void npy(const std::string& name, const Tensor& x) const {
    keras::utils::save_npy(dir_ + "/" + name + ".npy", x);
  }

  std::string dir_;
  nlohmann::json manifest_ = nlohmann::json::array();
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: onnx_export_models OUT_DIR SHARED_MODELS_DIR [KERAS_FIXTURES_DIR]\n";
    return 2;
  }
  try {
    std::filesystem::create_directories(argv[1]);
    Writer out(argv[1]);
    for (const auto& c : keras::onnx_check::model_cases()) {
      keras::backend::clear_session();
      keras::utils::set_random_seed(seed_of(c.name));
      auto model = c.build();
      randomize_weights(*model);
      out.add(c.name, *model, c.opset, c.expect_export_error);
    }
    // Trained models as Keras saved them (weights kept), read where they lie. The image model
    // gets pixel values in [0, 1) as in its training: on normal(0, 1) inputs its logits reach
    // +-100 and float32 rounding alone (in keras-cpp and in ONNX Runtime alike) moves its
    // saturated softmax by up to ~1e-5.
    const std::string shared = argv[2];
    for (const auto& [file, unit_range] : {std::pair{"fashion_mnist_cnn.keras", true},
                                           {"heart_functional_bn.keras", false},
                                           {"churn_functional_keras2.h5", false}}) {
      const std::string name = std::filesystem::path(file).stem().string();
      if (!std::filesystem::exists(shared + "/" + file)) {
        // A checkout without the shared folder beside it (the tests skip these files too).
        std::cout << "onnx_export_models: " << shared << "/" << file << " is not here; skipped\n";
        continue;
      }
      keras::backend::clear_session();
      keras::utils::set_random_seed(seed_of(name));
      auto model = keras::saving::load_model(shared + "/" + file);
      out.add(name, *model, keras::saving::kDefaultOnnxOpset, false, unit_range);
    }
    // Keras-saved files with their own (seeded random) weights, in name order.
    if (argc == 4) {
      std::vector<std::filesystem::path> files;
      for (const char* dir : {"onnx_masks", "conv_lstm_files"})
        for (const auto& f : std::filesystem::directory_iterator(std::string(argv[3]) + "/" + dir))
          if (f.path().extension() == ".keras") files.push_back(f.path());
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        const std::string name = "keras_" + file.stem().string();
        keras::backend::clear_session();
        keras::utils::set_random_seed(seed_of(name));
        auto model = keras::saving::load_model(file.string());
        out.add(name, *model, keras::saving::kDefaultOnnxOpset, false);
      }
    }
    out.finish();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "onnx_export_models: " << e.what() << "\n";
    return 1;
  }
}

// Model files written by keras-cpp for Python Keras 3.15 to load (scripts/interop.sh, which then
// runs tools/keras_oracle/interop.py). Usage: interop_models OUT_DIR ORACLE_FIXTURES_DIR
//
// Sets of files, each with the inputs keras-cpp predicted on and its predictions:
// - "cpp_<kind>": models built here, of the kinds of tools/keras_oracle/models.py (same
//   architectures, so Keras can load their .weights.h5 into its own build of them), and
//   "cpp_example_graph", the model of examples/functional_graph.cpp (graphs.py's twin);
// - "py_<kind>": the files Keras wrote (tests/oracle/fixtures/models/<kind>.keras) loaded and
//   saved again by keras-cpp, on the inputs of tests/oracle/fixtures/models.npz, and
//   "py_graph_<kind>" the same for the Functional graphs of graphs.npz;
// - "legacy_<file>": the Keras 2 .h5 files of tests/oracle/fixtures/legacy converted to .keras;
// - "cpp_lora_<kind>" and "py_lora_<kind>": models with LoRA enabled (lora_files.h).
// For each NAME: NAME.keras, NAME.weights.h5, NAME.in<i>.npy, NAME.out<i>.npy; for a compiled
// model also NAME.{x1,y1,x2,y2,probe}.npy with NAME.losses.npy (the losses of two
// train_on_batch steps after loading) and NAME.after.npy (predictions on probe after them).
// OUT_DIR/manifest.json lists the entries.

#include <keras/keras.h>
#include <keras/saving/save_model.h>
#include <keras/saving/save_weights.h>
#include <keras/saving/serialization.h>
#include <keras/utils/npy.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "../../examples/functional_graph_model.h"
#include "complex_scale.h"
#include "float8_files.h"
#include "layer_files.h"
#include "lora_files.h"
#include "quantized_files.h"
#include "scale_shift.h"
#include "string_files.h"
#include "two_tower.h"

namespace layers = keras::layers;
namespace ops = keras::ops;
using keras::KerasTensor;
using keras::Model;
using keras::Tensor;
using keras::TensorList;

using keras::interop::ComplexScale;
using keras::interop::ScaleShift;
using keras::interop::TwoTower;

using ModelPtr = keras::ModelPtr<Model>;

// The architectures of models.py.
ModelPtr mlp() {
  return keras::Sequential({keras::Input({8}), layers::Dense(16, {.activation = "relu"}),
                            layers::Dense(4, {.activation = "softmax"})});
}

ModelPtr cnn() {
  return keras::Sequential({keras::Input({8, 8, 2}), layers::Conv2D(4, 3, {.activation = "relu"}),
                            layers::BatchNormalization(), layers::MaxPooling2D(2),
                            layers::Dropout(0.25), layers::Flatten(),
                            layers::Dense(3, {.activation = "softmax"})});
}

ModelPtr two_io() {
  auto a = keras::Input({6}, {.name = "a"});
  auto b = keras::Input({3}, {.name = "b"});
  auto h = layers::concatenate({layers::Dense(5, {.activation = "tanh"})(a), layers::Dense(5)(b)});
  auto score = layers::Dense(2, {.name = "score"})(h);
  auto flag = layers::Dense(1, {.activation = "sigmoid", .name = "flag"})(h);
  return keras::Functional(std::vector<KerasTensor>{a, b}, std::vector<KerasTensor>{score, flag});
}

ModelPtr shared() {
  auto a = keras::Input({4}, {.name = "left"});
  auto b = keras::Input({4}, {.name = "right"});
  auto tower = layers::Dense(3, {.activation = "tanh", .name = "tower"});  // called twice
  auto h = layers::concatenate({tower(a), tower(b)});
  return keras::Functional(std::vector<KerasTensor>{a, b}, std::vector<KerasTensor>{layers::Dense(1)(h)});
}

ModelPtr nested() {
  auto inner = keras::Sequential({keras::Input({6}), layers::Dense(8, {.activation = "relu"}),
                                  layers::Dense(4)},
                                 {.name = "inner"});
  auto x = keras::Input({6});
  return keras::Functional(x, layers::Dense(2)(inner(x)));
}

ModelPtr lstm() {
  return keras::Sequential({keras::Input({7}, {.dtype = keras::DType::Int32}),
                            layers::Embedding(20, 8), layers::LSTM(6),
                            layers::Dense(3, {.activation = "softmax"})});
}

ModelPtr custom() {
  return keras::Sequential({keras::Input({5}), layers::Dense(4, {.activation = "tanh"}),
                            keras::make_layer<ScaleShift>(0.5), layers::Dense(2)});
}


// A subclassed model (models.py's TwoTower), built on a symbolic input as there.
ModelPtr subclassed() {
  auto model = keras::make_layer<TwoTower>(8, keras::LayerOptions{.name = "two_tower"});
  model(keras::Input({5}));
  return model;
}

ModelPtr subclassed_compiled() {
  auto model = keras::make_layer<TwoTower>(4, keras::LayerOptions{.name = "two_tower_compiled"});
  model(keras::Input({6}));
  model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 0.01}),
                  .loss = keras::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                  .metrics = std::vector<keras::metrics::MetricArg>{"accuracy"}});
  return model;
}

ModelPtr compiled() {
  auto model = keras::Sequential({keras::Input({6}), layers::Dense(8, {.activation = "relu"}),
                                  layers::Dense(3, {.activation = "softmax"})});
  model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 0.01}),
                  .loss = "sparse_categorical_crossentropy",
                  .metrics = std::vector<keras::metrics::MetricArg>{"accuracy"}});
  return model;
}

// Moving statistics and the custom layers' weights away from their initial values (as
// models.py and complex_scale.py), so that a reader that skipped them would be caught.
void randomize_non_trainable(Model& model) {
  for (const auto& layer : model.layers()) {
    const std::string cls = layer->class_name();
    if (cls != "BatchNormalization" && cls != "ScaleShift" && cls != "ComplexScale") continue;
    std::vector<Tensor> values;
    for (const Tensor& w : layer->get_weights()) {
      if (!keras::is_complex(w.dtype())) {
        values.push_back(keras::random::uniform(w.shape(), 0.5, 1.5));
        continue;
      }
      keras::Shape pairs = w.shape();
      pairs.push_back(2);
      values.push_back(
          ops::cast(ops::view_as_complex(keras::random::uniform(pairs, -1.5, 1.5)), w.dtype()));
    }
    layer->set_weights(values);
  }
}

class Writer {
 public:
  explicit Writer(std::string dir) : dir_(std::move(dir)) {}

  void npy(const std::string& name, const Tensor& x) const {
    keras::utils::save_npy(dir_ + "/" + name + ".npy", x);
  }

  // Saves `model` under `name` with its predictions on `inputs`.
  nlohmann::json add(const std::string& name, const std::string& kind, Model& model,
                     const TensorList& inputs) {
    model.save(dir_ + "/" + name + ".keras");
    model.save_weights(dir_ + "/" + name + ".weights.h5");
    keras::TensorStruct x = inputs.size() == 1 ? keras::TensorStruct(inputs[0])
                                               : keras::TensorStruct(inputs);
    TensorList outputs = model.predict(x, {.verbose = 0}).flat();
    for (size_t i = 0; i < inputs.size(); ++i) npy(name + ".in" + std::to_string(i), inputs[i]);
    for (size_t i = 0; i < outputs.size(); ++i)
      npy(name + ".out" + std::to_string(i), outputs[i]);
    nlohmann::json entry = {{"name", name}, {"kind", kind}, {"inputs", inputs.size()},
                            {"outputs", outputs.size()}, {"resume", false}};
    manifest_.push_back(entry);
    return entry;
  }

  // Two train_on_batch steps of `model` (already saved under `name`): the losses and the
  // predictions after them, for Keras to reproduce from the saved file.
  void add_resume(const std::string& name, Model& model, const TensorList& data) {
    const char* keys[] = {"x1", "y1", "x2", "y2", "probe"};
    for (int i = 0; i < 5; ++i) npy(name + "." + keys[i], data[static_cast<size_t>(i)]);
    double loss1 = model.train_on_batch(data[0], data[1]).at("loss");
    double loss2 = model.train_on_batch(data[2], data[3]).at("loss");
    npy(name + ".losses", Tensor::from_vector(std::vector<float>{static_cast<float>(loss1),
                                                                 static_cast<float>(loss2)},
                                              keras::Shape{2}));
    npy(name + ".after", model.predict(data[4], {.verbose = 0}).single());
    manifest_.back()["resume"] = true;
    manifest_.back()["iterations"] =
        model.optimizer()->iterations().value().item<int64_t>();
  }

  void finish() const {
    std::ofstream(dir_ + "/manifest.json") << manifest_.dump(1) << "\n";
    std::cout << "interop_models: " << manifest_.size() << " models written to " << dir_ << "\n";
  }

 private:
  std::string dir_;
  nlohmann::json manifest_ = nlohmann::json::array();
};

TensorList normal_inputs(std::initializer_list<keras::Shape> shapes) {
  TensorList out;
  for (const auto& s : shapes) out.push_back(keras::random::normal(s));
  return out;
}

void write_native(Writer& out) {
  struct Kind {
    std::string name;
    ModelPtr (*build)();
    TensorList (*inputs)();
  };
  const Kind kinds[] = {
      {"mlp", mlp,
       [] {
         return normal_inputs({{5, 8}});
       }},
      {"cnn", cnn,
       [] {
         return normal_inputs({{3, 8, 8, 2}});
       }},
      {"two_io", two_io,
       [] {
         return normal_inputs({{4, 6}, {4, 3}});
       }},
      {"shared", shared,
       [] {
         return normal_inputs({{4, 4}, {4, 4}});
       }},
      {"nested", nested,
       [] {
         return normal_inputs({{4, 6}});
       }},
      {"lstm", lstm,
       [] {
         return TensorList{keras::random::randint({4, 7}, 0, 20)};
       }},
      {"custom", custom,
       [] {
         return normal_inputs({{4, 5}});
       }},
      {"complex_scale", keras::interop::complex_scale_model,
       [] {
         return normal_inputs({{4, 4}});
       }},
      {"subclassed", subclassed,
       [] {
         return normal_inputs({{4, 5}});
       }},
  };
  uint64_t seed = 100;
  for (const auto& kind : kinds) {
    keras::backend::clear_session();
    keras::utils::set_random_seed(seed++);
    auto model = kind.build();
    randomize_non_trainable(*model);
    out.add("cpp_" + kind.name, kind.name, *model, kind.inputs());
  }
  // Compiled and trained one epoch, so the file carries Adam's moments and iteration count.
  keras::backend::clear_session();
  keras::utils::set_random_seed(200);
  auto model = compiled();
  Tensor x = keras::random::normal({32, 6});
  Tensor y = keras::random::randint({32}, 0, 3);
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  out.add("cpp_compiled", "compiled", *model, normal_inputs({{4, 6}}));
  TensorList data = {keras::random::normal({8, 6}), keras::random::randint({8}, 0, 3),
                     keras::random::normal({8, 6}), keras::random::randint({8}, 0, 3),
                     keras::random::normal({4, 6})};
  out.add_resume("cpp_compiled", *model, data);

  // The subclassed model compiled and trained one epoch.
  keras::backend::clear_session();
  keras::utils::set_random_seed(202);
  model = subclassed_compiled();
  model->fit(keras::random::normal({32, 6}), keras::random::randint({32}, 0, 3),
             {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  out.add("cpp_subclassed_compiled", "subclassed_compiled", *model, normal_inputs({{4, 6}}));
  out.add_resume("cpp_subclassed_compiled", *model,
                 {keras::random::normal({8, 6}), keras::random::randint({8}, 0, 3),
                  keras::random::normal({8, 6}), keras::random::randint({8}, 0, 3),
                  keras::random::normal({4, 6})});

  // examples/functional_graph.cpp's model: nested Functional, RNN states, ops as graph nodes.
  keras::backend::clear_session();
  keras::utils::set_random_seed(201);
  auto graph = functional_graph_model();
  out.add("cpp_example_graph", "example_graph", *graph,
          normal_inputs({{3, 16}, {3, 5, 3}, {3, 6}, {3, 6}}));
}

// Keras's own files, loaded and saved again by keras-cpp.
void write_converted(Writer& out, const std::string& fixtures) {
  auto arrays = keras::utils::load_npz(fixtures + "/models.npz");
  for (const char* kind : {"mlp", "cnn", "two_io", "shared", "nested", "lstm", "custom",
                           "compiled", "subclassed", "subclassed_compiled"}) {
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures + "/models/" + kind + ".keras");
    TensorList inputs;
    for (int i = 0; arrays.count(std::string(kind) + "_keras.in" + std::to_string(i)); ++i)
      inputs.push_back(arrays.at(std::string(kind) + "_keras.in" + std::to_string(i)));
    out.add(std::string("py_") + kind, kind, *model, inputs);
    if (arrays.count(std::string(kind) + "_resume.in0")) {  // a compiled kind
      TensorList data;
      for (int i = 0; i < 5; ++i)
        data.push_back(arrays.at(std::string(kind) + "_resume.in" + std::to_string(i)));
      out.add_resume(std::string("py_") + kind, *model, data);
    }
  }
  // The Functional graphs of tools/keras_oracle/graphs.py (nested models, call arguments, ops).
  auto graphs = keras::utils::load_npz(fixtures + "/graphs.npz");
  for (std::string kind : {"transfer", "siamese", "rnn_states", "masked_ops", "attention_flags",
                           "example_graph", "nested_outputs", "transfer_compiled"}) {
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures + "/graphs/" + kind + ".keras");
    // The compiled model's predictions are probed on its resume case's probe batch.
    const std::string stem = kind == "transfer_compiled" ? "transfer_resume" : kind + "_keras";
    TensorList inputs;
    if (kind == "transfer_compiled") inputs.push_back(graphs.at(stem + ".in4"));
    for (int i = 0; kind != "transfer_compiled" && graphs.count(stem + ".in" + std::to_string(i));
         ++i)
      inputs.push_back(graphs.at(stem + ".in" + std::to_string(i)));
    out.add("py_graph_" + kind, kind, *model, inputs);
    if (kind == "transfer_compiled") {
      TensorList data;
      for (int i = 0; i < 5; ++i) data.push_back(graphs.at(stem + ".in" + std::to_string(i)));
      out.add_resume("py_graph_" + kind, *model, data);
    }
  }
  // complex_weights.py's model with complex weights.
  keras::backend::clear_session();
  auto complex_model = keras::saving::load_model(fixtures + "/complex_weights/model.keras");
  out.add("py_complex_scale", "complex_scale", *complex_model,
          {keras::utils::load_npz(fixtures + "/complex_weights.npz").at("predict.in0")});
  // The legacy Keras 2 .h5 files of tools/keras_oracle/legacy_h5.py, converted to .keras.
  auto legacy = keras::utils::load_npz(fixtures + "/legacy.npz");
  for (const char* file : {"sequential_adam", "functional"}) {
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures + "/legacy/" + file + ".h5");
    TensorList inputs;
    for (int i = 0; legacy.count(std::string(file) + ".in" + std::to_string(i)); ++i)
      inputs.push_back(legacy.at(std::string(file) + ".in" + std::to_string(i)));
    out.add(std::string("legacy_") + file, std::string("legacy_") + file, *model, inputs);
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: interop_models OUT_DIR ORACLE_FIXTURES_DIR\n";
    return 2;
  }
  try {
    std::filesystem::create_directories(argv[1]);
    keras::saving::register_keras_serializable<ScaleShift>("oracle", "ScaleShift");
    keras::saving::register_keras_serializable<ComplexScale>("oracle", "ComplexScale");
    keras::saving::register_keras_serializable<TwoTower>("oracle", "TwoTower");
    Writer out(argv[1]);
    write_native(out);
    write_converted(out, argv[2]);
    auto add = [&out](const std::string& name, const std::string& kind, Model& model,
                      const TensorList& inputs) { out.add(name, kind, model, inputs); };
    write_layer_files(argv[2], add);
    write_layer_files(argv[2], add, "conv_lstm_files");
    write_lora_files(argv[2], add,
                     [&out](const std::string& name, Model& model, const TensorList& data) {
                       out.add_resume(name, model, data);
                     });
    write_quantized_files(argv[2], add);
    write_float8_files(argv[2], add,
                       [&out](const std::string& name, Model& model, const TensorList& data) {
                         out.add_resume(name, model, data);
                       });
    out.finish();
    // Text models, for Keras on TensorFlow (JAX holds no strings): string_interop.py.
    write_string_files(std::string(argv[1]) + "/strings", argv[2]);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "interop_models: " << e.what() << "\n";
    return 1;
  }
}

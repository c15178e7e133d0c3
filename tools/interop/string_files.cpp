#include "string_files.h"

#include <keras/keras.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "../../tests/support/json_tensors.h"
#include "../../tests/support/text_steps.h"

namespace {

using json = nlohmann::json;
using keras::Tensor;
using keras::TensorList;

// A tensor as nested lists (strings, or numbers as float64; NaN as null).
json nested(const Tensor& t) {
  std::vector<json> flat;
  if (t.dtype() == keras::DType::String) {
    const keras::StringTensor strings = t.to_strings();
    for (const std::string& s : strings.values()) flat.emplace_back(s);
  } else {
    for (double v : t.to_vector<double>()) flat.push_back(std::isnan(v) ? json(nullptr) : json(v));
  }
  size_t at = 0;
  std::function<json(int)> build = [&](int depth) -> json {
    if (depth == t.ndim()) return flat[at++];
    json list = json::array();
    for (int64_t i = 0; i < t.shape()[depth]; ++i) list.push_back(build(depth + 1));
    return list;
  };
  return build(0);
}

void write(const std::string& dir, const std::string& name, keras::Model& model, const json& inputs,
           const json& names, const json& dtypes) {
  model.save(dir + "/" + name + ".keras");
  TensorList xs;
  for (size_t i = 0; i < names.size(); ++i)
    xs.push_back(keras::test::tensor_from_json(inputs[names[i].get<std::string>()], dtypes[i]));
  TensorList ys =
      model
          .predict(xs.size() == 1 ? keras::TensorStruct(xs[0]) : keras::TensorStruct(xs),
                   {.verbose = 0})
          .flat();
  json outputs = json::array();
  for (const Tensor& y : ys) outputs.push_back(nested(y));
  std::ofstream(dir + "/" + name + ".json") << json{
      {"inputs", inputs},
      {"input_names", names},
      {"input_dtypes", dtypes},
      {"outputs", outputs}}.dump(1);
}

// A text model built in C++: TextVectorization adapted here, an Embedding, the mean of the
// tokens, two classes, and the label of the larger one as a string (an inverted StringLookup
// of an argmax).
keras::ModelPtr<keras::Model> cpp_text_model() {
  namespace layers = keras::layers;
  keras::utils::set_random_seed(7);
  auto vectorize = layers::TextVectorization({.max_tokens = 16, .output_sequence_length = 5});
  vectorize->adapt(keras::StringTensor(
      {"good film", "bad film", "a good plot", "bad acting", "good acting and a good plot"}));
  auto text = keras::Input({1}, {.dtype = keras::DType::String, .name = "review"});
  auto x = layers::GlobalAveragePooling1D()(layers::Embedding(16, 4)(vectorize(text)));
  auto scores = layers::Dense(2, {.name = "scores"})(x);
  auto label = layers::StringLookup({.num_oov_indices = 0,
                                     .vocabulary = std::vector<std::string>{"negative", "positive"},
                                     .invert = true,
                                     .name = "label"})(
      keras::ops::call_operation("Argmax", {scores},
                                 keras::Config{{"axis", -1}, {"keepdims", false}})[0]);
  return keras::Functional({text}, {scores, label});
}

}  // namespace

void write_string_files(const std::string& out_dir, const std::string& fixtures_dir) {
  std::filesystem::create_directories(out_dir);
  std::ifstream in(fixtures_dir + "/string_graphs.json");
  const json fixture = json::parse(in);
  keras::test::register_demo_text_steps();  // the custom steps of "custom_steps"
  for (const auto& [name, f] : fixture.items()) {
    auto model = keras::saving::load_model(fixtures_dir + "/string_graphs/" + name + ".keras");
    write(out_dir, "py_" + name, *model, f["inputs"], f["input_names"], f["input_dtypes"]);
  }
  auto model = cpp_text_model();
  json reviews = json::array({json::array({"a good film"}), json::array({"bad plot"}),
                              json::array({"unknown words only"}), json::array({""})});
  write(out_dir, "cpp_text", *model, json{{"review", reviews}}, json::array({"review"}),
        json::array({"string"}));
}

// check_applications DIR: keras-cpp's keras.applications against what Keras 3.15 wrote to DIR
// (tools/keras_oracle/applications.py; scripts/applications_check.sh runs both). Per case:
//   config   keras-cpp's model->to_json() equals Keras's model.to_json() key for key
//   weights  the same weight paths and shapes in the same order, the same parameter count
//   pre      the family's preprocess_input equals Keras's on the same images
//   .weights.h5 / .h5 / .keras   Keras's files load (the .weights.h5 and legacy .h5 into
//            keras-cpp's own build of the architecture) and predict Keras's predictions:
//            max |cpp - keras| <= 1e-4 * max(1, max |keras|)
// Prints one row per case and exits 1 on any failure.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "builders.h"
#include "json_diff.h"

namespace {

using nlohmann::json;
constexpr double kTolerance = 1e-4;

json read_json(const std::string& path) {
  std::ifstream in(path);
  keras::check<keras::IOError>(static_cast<bool>(in), "cannot read ", path);
  std::stringstream s;
  s << in.rdbuf();
  return json::parse(s.str());
}

// A config less the `"mask": null` Keras records at every call of a layer whose call() takes a
// mask (BatchNormalization, Softmax, the RNNs) when no mask flows: keras-cpp's masks travel
// with the tensors, so it records a mask only where a file gave one, and null only for nested
// models (docs/applications.md). Both sides are compared without them.
json without_null_masks(json config) {
  for (json& layer : config["config"]["layers"]) {
    for (json& node : layer["inbound_nodes"]) {
      if (node.contains("kwargs") && node["kwargs"].contains("mask") &&
          node["kwargs"]["mask"].is_null()) {
        node["kwargs"].erase("mask");
      }
    }
  }
  return config;
}

// max |a - e| / max(1, max |e|); infinity on a shape mismatch.
double relative_error(const keras::Tensor& actual, const keras::Tensor& expected) {
  if (actual.shape() != expected.shape()) return INFINITY;
  auto a = keras::ops::cast(actual, keras::DType::Float32).to_vector<float>();
  auto e = keras::ops::cast(expected, keras::DType::Float32).to_vector<float>();
  double diff = 0, scale = 1;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a[i]) - e[i]));
    scale = std::max(scale, std::abs(static_cast<double>(e[i])));
    if (std::isnan(a[i]) != std::isnan(e[i])) return INFINITY;
  }
  return diff / scale;
}

// A weight path of keras-cpp against Keras's. Keras prefixes the variables a nested model
// (ConvNeXt's Sequential stem) creates while it builds with the model's name
// ("convnext_tiny_stem/convnext_tiny_stem_conv/kernel"); keras-cpp's paths name the layer only
// (docs/applications.md). Weight files are matched by layer structure, not by these paths.
bool same_path(const std::string& cpp, const std::string& keras,
               const std::set<std::string>& nested_models) {
  if (cpp == keras) return true;
  const auto slash = keras.find('/');
  return slash != std::string::npos && nested_models.count(keras.substr(0, slash)) &&
         keras.substr(slash + 1) == cpp;
}

struct Row {
  std::string name;
  int64_t params = 0;
  bool config_ok = false, weights_ok = false;
  double pre = INFINITY, weights_h5 = INFINITY, legacy_h5 = INFINITY, keras_file = INFINITY;
  double seconds = 0;
  std::string error;
  bool ok() const {
    return error.empty() && config_ok && weights_ok && pre <= kTolerance &&
           weights_h5 <= kTolerance && legacy_h5 <= kTolerance && keras_file <= kTolerance;
  }
};

Row check_case(const std::string& dir, const json& c) {
  Row row{.name = c["name"]};
  const std::string base = dir + "/" + row.name;
  const auto start = std::chrono::steady_clock::now();
  try {
    keras::backend::clear_session();
    auto model = keras::tools::build_application(c["function"], c["kwargs"]);
    row.params = model->count_params();

    auto diffs = keras::test::json_differences(
        without_null_masks(json::parse(model->to_json())),
        without_null_masks(keras::test::comparable_keras_config(read_json(base + ".json"))));
    row.config_ok = diffs.empty();
    for (size_t i = 0; i < diffs.size() && i < 5; ++i) std::cerr << "  config: " << diffs[i] << "\n";

    const auto weights = model->weights();
    std::set<std::string> nested_models;
    for (const auto& layer : model->layers()) {
      if (dynamic_cast<const keras::Model*>(layer.get())) nested_models.insert(layer->name());
    }
    row.weights_ok = weights.size() == c["weights"].size() && row.params == c["count_params"];
    for (size_t i = 0; row.weights_ok && i < weights.size(); ++i) {
      const json& expected = c["weights"][i];
      if (!same_path(weights[i].path(), expected[0].get<std::string>(), nested_models) ||
          weights[i].shape().to_vector() != expected[1].get<std::vector<int64_t>>()) {
        std::cerr << "  weight " << i << ": " << weights[i].path() << " "
                  << weights[i].shape().to_string() << " vs " << expected.dump() << "\n";
        row.weights_ok = false;
      }
    }

    auto arrays = keras::utils::load_npz(base + ".npz");
    const keras::Tensor pre = keras::tools::preprocess(c["preprocess"], arrays.at("images"));
    row.pre = relative_error(pre, arrays.at("preprocessed"));
    const keras::Tensor& expected = arrays.at("predictions");
    const keras::Tensor& inputs = arrays.at("preprocessed");

    model->load_weights(base + ".weights.h5");
    row.weights_h5 = relative_error(model->predict(inputs).single(), expected);

    keras::backend::clear_session();
    auto fresh = keras::tools::build_application(c["function"], c["kwargs"]);
    fresh->load_weights(base + ".h5");
    row.legacy_h5 = relative_error(fresh->predict(inputs).single(), expected);

    auto loaded = keras::saving::load_model(base + ".keras");
    row.keras_file = relative_error(loaded->predict(inputs).single(), expected);
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: check_applications DIR (written by tools/keras_oracle/applications.py)\n";
    return 2;
  }
  const std::string dir = argv[1];
  const json manifest = read_json(dir + "/manifest.json");
  std::printf("| case | params | config | weights | preprocess | .weights.h5 | .h5 | .keras | s |\n"
              "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  int failed = 0;
  for (const json& c : manifest) {
    Row r = check_case(dir, c);
    std::printf("| %s | %lld | %s | %s | %.1e | %.1e | %.1e | %.1e | %.0f |%s\n", r.name.c_str(),
                static_cast<long long>(r.params), r.config_ok ? "same" : "DIFFERS",
                r.weights_ok ? "same" : "DIFFER", r.pre, r.weights_h5, r.legacy_h5, r.keras_file,
                r.seconds, r.ok() ? "" : " FAILED");
    if (!r.error.empty()) std::printf("    error: %s\n", r.error.c_str());
    std::fflush(stdout);
    failed += !r.ok();
  }
  std::printf("%zu cases, %d failed (tolerance %.0e)\n", manifest.size(), failed, kTolerance);
  return failed ? 1 : 0;
}

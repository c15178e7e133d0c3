// int8 quantization against Keras 3.15 (tools/keras_oracle/quantize.py): Keras quantized seeded
// float models with model.quantize("int8") and saved both; keras-cpp
//   - loads Keras's quantized files and predicts what Keras predicted,
//   - quantizes the float files itself and gets Keras's variables (int8 kernels bit for bit,
//     scales) and outputs,
//   - saves a quantized model whose config entries and weight datasets (names, order, dtypes,
//     values) are those of Keras's file.
// The other direction, Keras loading keras-cpp's quantized files, is the live round trip
// (tools/interop/quantize.cpp, scripts/interop.sh).

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

using test::json;

const std::vector<std::string> kCases = {"dense_mlp",    "dense_rank3", "einsum_dense",
                                         "einsum_heads", "embedding"};

std::string file_of(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/quantize/" + name + ".keras";
}

const std::map<std::string, Tensor>& fixtures() {
  static const auto* f =
      new std::map<std::string, Tensor>(utils::load_npz(test::oracle_path("quantize")));
  return *f;
}

const Tensor& fixture(const std::string& key) {
  auto it = fixtures().find(key);
  if (it == fixtures().end()) throw std::runtime_error("quantize.npz has no " + key);
  return it->second;
}

// |a - b| <= atol + rtol |b| elementwise, as float64 on the host.
void expect_close(const Tensor& actual, const Tensor& expected, double rtol, double atol,
                  const std::string& what) {
  ASSERT_EQ(actual.shape(), expected.shape()) << what;
  auto a = ops::cast(actual, DType::Float64).to_vector<double>();
  auto e = ops::cast(expected, DType::Float64).to_vector<double>();
  int bad = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - e[i]) > atol + rtol * std::abs(e[i]) && bad++ < 5)
      ADD_FAILURE() << what << "[" << i << "]: " << a[i] << " vs Keras " << e[i];
}

Tensor predict(Model& model, const Tensor& x) {
  return model.predict(TensorStruct(x), {.verbose = 0}).flat().at(0);
}

// Every variable of `model` against Keras's variables of the same path.
void expect_keras_variables(const Model& model, const std::string& prefix) {
  size_t checked = 0;
  for (const Variable& v : model.weights()) {
    const Tensor& expected = fixture(prefix + ".var." + v.path());
    EXPECT_EQ(v.dtype(), expected.dtype()) << v.path();
    if (v.dtype() == DType::Int8)
      EXPECT_EQ(v.value().to_vector<int8_t>(), expected.to_vector<int8_t>()) << v.path();
    else
      expect_close(v.value(), expected, 1e-6, 0, v.path());
    ++checked;
  }
  size_t keras_count = 0;
  for (const auto& [key, value] : fixtures())
    if (key.rfind(prefix + ".var.", 0) == 0) ++keras_count;
  EXPECT_EQ(checked, keras_count) << prefix << ": keras-cpp's variables are not Keras's";
}

TEST(QuantizeOracle, KerasInt8FilesLoadAndPredictTheSame) {
  for (const std::string& name : kCases) {
    backend::clear_session();
    auto model = saving::load_model(file_of(name + "_int8"));
    expect_keras_variables(*model, name + ".int8");
    expect_close(predict(*model, fixture(name + ".x")), fixture(name + ".int8"), 1e-5, 1e-6,
                 name + " (Keras's int8 file)");
  }
}

TEST(QuantizeOracle, QuantizingTheFloatModelGivesKerasVariablesAndOutputs) {
  for (const std::string& name : kCases) {
    backend::clear_session();
    auto model = saving::load_model(file_of(name + "_float"));
    // Three calls: a compiled step traces on its first two and replays from the third, so
    // quantize() must drop the program traced with the float weights (as Keras resets its
    // predict_function).
    for (int call = 0; call < 3; ++call)
      expect_close(predict(*model, fixture(name + ".x")), fixture(name + ".float"), 1e-5, 1e-6,
                   name + " (float)");
    model->quantize("int8");
    expect_keras_variables(*model, name + ".int8");
    expect_close(predict(*model, fixture(name + ".x")), fixture(name + ".int8"), 1e-5, 1e-6,
                 name + " (quantized by keras-cpp)");
  }
}

std::map<std::string, std::vector<uint8_t>> members(const std::string& path) {
  return saving::read_zip_members(saving::read_file_bytes(path), path);
}

// `config` without Keras's "shared_object_id" entries: Python object ids Keras writes when one
// object is serialized twice in a save (a quantization config); loading does not need them.
json without_shared_object_ids(json config) {
  if (config.is_object()) {
    config.erase("shared_object_id");
    for (auto& [key, value] : config.items()) value = without_shared_object_ids(value);
  } else if (config.is_array()) {
    for (auto& value : config) value = without_shared_object_ids(value);
  }
  return config;
}

// The layers' configs of a .keras file's config.json, by layer name.
std::map<std::string, json> layer_configs(const std::string& path) {
  auto m = members(path);
  const auto& bytes = m.at("config.json");
  json config = json::parse(std::string(bytes.begin(), bytes.end()));
  std::map<std::string, json> out;
  for (const auto& layer : config["config"]["layers"])
    out[layer["config"]["name"].get<std::string>()] = without_shared_object_ids(layer["config"]);
  return out;
}

TEST(QuantizeOracle, SavedFileHasKerassConfigsAndWeightLayout) {
  for (const std::string& name : kCases) {
    backend::clear_session();
    auto model = saving::load_model(file_of(name + "_float"));
    model->quantize("int8");
    const std::string ours =
        (std::filesystem::temp_directory_path() / ("quantized_" + name + ".keras")).string();
    model->save(ours);
    const std::string keras = file_of(name + "_int8");
    // The config entries quantization adds or changes, layer by layer.
    auto mine = layer_configs(ours), theirs = layer_configs(keras);
    ASSERT_EQ(mine.size(), theirs.size()) << name;
    for (const auto& [layer, config] : theirs) {
      for (const char* key : {"dtype", "quantization_config"}) {
        if (!config.contains(key)) continue;
        EXPECT_EQ(mine[layer][key], config[key]) << name << " " << layer << " " << key;
      }
    }
    // model.weights.h5: the same datasets in the same order, dtypes and values.
    auto h5_of = [](const std::string& path) {
      return saving::H5File::open_image(members(path).at("model.weights.h5"), path);
    };
    saving::H5File a = h5_of(ours), b = h5_of(keras);
    for (const std::string& layer : b.children("layers")) {
      const std::string group = "layers/" + layer + "/vars";
      ASSERT_EQ(a.children(group), b.children(group)) << name << " " << group;
      for (const std::string& index : b.children(group)) {
        Tensor x = a.read(group + "/" + index), y = b.read(group + "/" + index);
        EXPECT_EQ(x.dtype(), y.dtype()) << group << "/" << index;
        expect_close(x, y, 1e-6, 0, name + " " + group + "/" + index);
      }
    }
    std::filesystem::remove(ours);
  }
}

}  // namespace
}  // namespace keras

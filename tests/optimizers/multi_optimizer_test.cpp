// MultiOptimizer and OptimizerMap against Keras 3.15 (tools/keras_oracle/multi_optimizer.py):
//   - OptimizerMap lookups (exact key first, one regex fullmatch, several matches an error,
//     the default) give Keras's optimizer for every query,
//   - Keras's untrained .keras files (compile_config with a MultiOptimizer) load, and fit
//     trains to Keras's weights and optimizer variables (Adam, SGD with and without momentum,
//     Nesterov, the default RMSprop, loss_scale_factor),
//   - Keras's trained files load their optimizer variables, also when Keras's sub-optimizer
//     order differs from keras-cpp's (keys inserted out of order),
//   - keras-cpp's saved file has Keras's layout (optimizer/vars, optimizer/optimizers/<class>)
//     and its compile_config reads back,
//   - the errors Keras raises (duplicate keys, nested wrappers, learning_rate).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "assertions.h"
#include "oracle_fixture.h"
#include "keras/keras.h"
#include "keras/optimizers/multi_optimizer.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"

namespace keras {
namespace {

namespace opt = keras::optimizers;
using json = nlohmann::json;

const Tensor& fixture(const std::string& key) {
  return test::oracle_array("multi_optimizer", key);
}

const json& doc() { return test::oracle_json("multi_optimizer"); }

std::string file_of(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/multi_optimizer/" + name + ".keras";
}

// Largest |a - b| (shapes must match); records a failure past `atol`.
double expect_close(const Tensor& actual, const Tensor& expected, double atol,
                    const std::string& what) {
  EXPECT_EQ(actual.shape(), expected.shape()) << what;
  if (actual.shape() != expected.shape()) return INFINITY;
  auto a = ops::cast(actual, DType::Float64).to_vector<double>();
  auto e = ops::cast(expected, DType::Float64).to_vector<double>();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - e[i]));
  EXPECT_LE(worst, atol) << what;
  return worst;
}

TEST(OptimizerMap, LookupsAreKeras) {
  const json& lookups = doc()["lookups"];
  std::map<std::string, opt::OptimizerPtr> by_name;
  auto optimizer = [&](const std::string& name) {
    auto& p = by_name[name];
    if (!p) p = std::make_shared<opt::SGD>(opt::SGDOptions{.name = name});
    return p;
  };
  opt::OptimizerMap map(optimizer(lookups["default"]));
  for (const auto& [key, name] : lookups["keys"].items()) map.set(key, optimizer(name));
  ASSERT_EQ(map.size(), lookups["keys"].size());
  int checked = 0;
  for (const auto& entry : lookups["results"]) {
    const std::string key = entry[0], expected = entry[1];
    SCOPED_TRACE(key);
    if (expected == "ValueError") {
      EXPECT_THROW(map[key], ValueError);
    } else {
      EXPECT_EQ(map[key]->name(), expected);
    }
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

TEST(OptimizerMap, ErrorsAreKeras) {
  opt::OptimizerMap map(opt::Adam(0.01));
  map.set("enc/.*", opt::SGD(0.1));
  EXPECT_THROW(map.set("enc/.*", opt::SGD(0.1)), ValueError);  // duplicated key
  EXPECT_THROW(map.set("x", std::make_shared<opt::LossScaleOptimizer>(opt::SGD(0.1))), ValueError);
  EXPECT_THROW(map.set("y", std::make_shared<opt::MultiOptimizer>(opt::OptimizerMap(opt::SGD()))),
               ValueError);
  EXPECT_THROW(map.set("z", nullptr), ValueError);
  EXPECT_THROW(opt::OptimizerMap(nullptr), TypeError);
  // A key that is no ECMAScript regex: only an exact lookup works, others name the key.
  opt::OptimizerPtr exact = opt::SGD(0.2);
  map.set("(?P<n>x)", exact);
  EXPECT_EQ(map["(?P<n>x)"], exact);
  try {
    map["other"];
    ADD_FAILURE() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(?P<n>x)"), std::string::npos) << e.what();
  }
  map.erase("(?P<n>x)");
  EXPECT_THROW(map.erase("(?P<n>x)"), ValueError);
  EXPECT_EQ(map["other"], map.default_optimizer());
}

TEST(MultiOptimizer, RoutesSharedOptimizersOnceAndRefusesLearningRate) {
  Variable a(ops::ones({2, 3}), {.name = "kernel", .path = "enc/kernel"});
  Variable b(ops::ones({3}), {.name = "bias", .path = "enc/bias"});
  Variable c(ops::ones({3}), {.name = "bias", .path = "dec/bias"});
  auto adam = std::make_shared<opt::Adam>(opt::AdamOptions{.learning_rate = 0.1, .name = "adam"});
  auto rms = std::make_shared<opt::RMSprop>(opt::RMSpropOptions{.name = "rms"});
  opt::OptimizerMap map(rms, {{"enc/kernel", adam}, {"enc/bias", adam}});
  opt::MultiOptimizer multi(map, {.name = "multi"});
  ASSERT_EQ(multi.optimizers().size(), 2u);  // adam once, then the default
  multi.apply({ops::ones({2, 3}), ops::ones({3}), ops::ones({3})}, {a, b, c});
  EXPECT_EQ(multi.optimizer_for(a), adam);
  EXPECT_EQ(multi.optimizer_for(c), rms);
  EXPECT_EQ(multi.iterations().value().item<int64_t>(), 1);
  EXPECT_EQ(adam->iterations().value().item<int64_t>(), 1);
  // Adam's first step moves every entry by the learning rate.
  EXPECT_NEAR(a.value().to_vector<float>()[0], 0.9f, 2e-6);
  EXPECT_THROW(multi.learning_rate(), ValueError);
  EXPECT_THROW(multi.set_learning_rate(0.1), ValueError);
  // Keras requires every variable's gradient in one call.
  EXPECT_THROW(multi.apply({ops::ones({2, 3})}, {a}), ValueError);
  // A selector function works and cannot be serialized.
  auto sgd = std::make_shared<opt::SGD>(0.5);
  opt::MultiOptimizer selected([&](const Variable&) -> opt::OptimizerPtr { return sgd; });
  Variable d(ops::ones({2}), {.name = "w", .path = "w"});
  selected.apply({ops::ones({2})}, {d});
  EXPECT_NEAR(d.value().to_vector<float>()[0], 0.5f, 1e-6);
  EXPECT_THROW(selected.get_config(), ValueError);
  // A sub-optimizer with its own loss_scale_factor conflicts with the MultiOptimizer's.
  EXPECT_THROW(opt::MultiOptimizer(opt::OptimizerMap(opt::SGD({.loss_scale_factor = 2.0})),
                                   {.loss_scale_factor = 4.0}),
               ValueError);
}

// keras-cpp fits Keras's untrained file and reaches Keras's trained weights and optimizer
// variables.
TEST(MultiOptimizerOracle, FitMatchesKeras) {
  double worst_w = 0, worst_opt = 0;
  for (const std::string c : {"map", "unsorted_lsf"}) {
    SCOPED_TRACE(c);
    backend::clear_session();
    auto model = saving::load_model(file_of(c));
    auto* multi = dynamic_cast<opt::MultiOptimizer*>(model->optimizer().get());
    ASSERT_NE(multi, nullptr) << model->optimizer()->class_name();
    auto history = model->fit(TensorStruct(fixture("mo.x")), TensorStruct(fixture("mo.y")),
                              {.batch_size = 4, .epochs = 3, .verbose = 0, .shuffle = false});
    const auto losses = fixture("mo." + c + ".loss").to_vector<float>();
    ASSERT_EQ(history->history["loss"].size(), losses.size());
    for (size_t e = 0; e < losses.size(); ++e)
      EXPECT_NEAR(history->history["loss"][e], losses[e], 1e-5 * std::max(1.f, losses[e]));
    const auto weights = model->weights();
    for (size_t k = 0; k < weights.size(); ++k)
      worst_w = std::max(worst_w, expect_close(weights[k].value(),
                                               fixture("mo." + c + ".w" + std::to_string(k)),
                                               1e-5, weights[k].path()));
    // Every optimizer variable, by path (iterations of each sub-optimizer included).
    std::vector<std::string> keras_paths = doc()["multi_optimizer"][c + ".variables"];
    ASSERT_EQ(multi->variables().size(), keras_paths.size());
    for (const Variable& v : multi->variables()) {
      const Tensor& expected = fixture("mo." + c + ".opt." + v.path());
      worst_opt = std::max(worst_opt, expect_close(v.value(), expected, 1e-5, v.path()));
    }
  }
  std::cout << "[ MultiOptimizer ] largest difference from Keras: weights " << worst_w
            << ", optimizer variables " << worst_opt << "\n";
}

// The saved compile_config, sub-optimizer names and order.
TEST(MultiOptimizerOracle, ConfigReadsBackAsKeras) {
  for (const std::string c : {"map", "unsorted_lsf"}) {
    SCOPED_TRACE(c);
    backend::clear_session();
    const json& keras_record = doc()["multi_optimizer"][c];
    auto o = opt::get(keras_record);
    auto* multi = dynamic_cast<opt::MultiOptimizer*>(o.get());
    ASSERT_NE(multi, nullptr);
    std::vector<std::string> names;
    for (const auto& inner : multi->optimizers()) names.push_back(inner->name());
    std::vector<std::string> keras_names = doc()["multi_optimizer"][c + ".optimizers"];
    std::vector<std::string> sorted_keras = keras_names, sorted_ours = names;
    std::sort(sorted_keras.begin(), sorted_keras.end());
    std::sort(sorted_ours.begin(), sorted_ours.end());
    EXPECT_EQ(sorted_ours, sorted_keras);
    if (c == "map") {  // keys inserted sorted: the same order
      EXPECT_EQ(names, keras_names);
    }
    // serialize(get(record)) == record, floats as float32.
    json ours = opt::serialize(o);
    std::function<void(const json&, const json&, const std::string&)> same =
        [&](const json& a, const json& b, const std::string& at) {
          if (b.is_number_float() || (b.is_number() && a.is_number_float())) {
            EXPECT_NEAR(a.get<double>(), b.get<double>(), 1e-7 * std::abs(b.get<double>())) << at;
          } else if (b.is_object()) {
            ASSERT_TRUE(a.is_object()) << at;
            EXPECT_EQ(a.size(), b.size()) << at << " " << a.dump();
            for (const auto& [k, v] : b.items()) {
              ASSERT_TRUE(a.contains(k)) << at << "/" << k;
              same(a[k], v, at + "/" + k);
            }
          } else {
            EXPECT_EQ(a, b) << at;
          }
        };
    same(ours, keras_record, "");
  }
}

// Keras's trained files: the optimizer variables load (by sub-optimizer name when the order
// differs), and a saved file has Keras's layout.
TEST(MultiOptimizerOracle, TrainedFilesLoadAndSaveWithKerasLayout) {
  for (const std::string c : {"map", "unsorted_lsf"}) {
    SCOPED_TRACE(c);
    backend::clear_session();
    auto model = saving::load_model(file_of(c + "_trained"));
    auto* multi = dynamic_cast<opt::MultiOptimizer*>(model->optimizer().get());
    ASSERT_NE(multi, nullptr);
    ASSERT_TRUE(multi->built());
    for (const Variable& v : multi->variables())
      expect_close(v.value(), fixture("mo." + c + ".opt." + v.path()), 0, v.path());

    const std::string ours =
        (std::filesystem::temp_directory_path() / ("multi_opt_" + c + ".keras")).string();
    model->save(ours);
    auto read_h5 = [](const std::string& path) {
      auto members = saving::read_zip_members(saving::read_file_bytes(path), path);
      return saving::H5File::open_image(members.at("model.weights.h5"), path);
    };
    saving::H5File mine = read_h5(ours), theirs = read_h5(file_of(c + "_trained"));
    EXPECT_EQ(mine.children("optimizer/optimizers"), theirs.children("optimizer/optimizers"));
    for (const std::string& g : theirs.children("optimizer/optimizers")) {
      const std::string vars = "optimizer/optimizers/" + g + "/vars";
      EXPECT_EQ(mine.string_attribute(vars, "name"), theirs.string_attribute(vars, "name")) << g;
      ASSERT_EQ(mine.children(vars), theirs.children(vars)) << g;
      for (const std::string& i : theirs.children(vars))
        expect_close(mine.read(vars + "/" + i), theirs.read(vars + "/" + i), 0, vars + "/" + i);
    }
    ASSERT_EQ(mine.children("optimizer/vars").size(), theirs.children("optimizer/vars").size());
    if (c == "map") {  // the same sub-optimizer order: optimizer/vars matches index by index
      for (const std::string& i : theirs.children("optimizer/vars"))
        expect_close(mine.read("optimizer/vars/" + i), theirs.read("optimizer/vars/" + i), 0,
                     "optimizer/vars/" + i);
    }
    // And keras-cpp reads its own file back.
    backend::clear_session();
    auto again = saving::load_model(ours);
    auto* multi2 = dynamic_cast<opt::MultiOptimizer*>(again->optimizer().get());
    ASSERT_NE(multi2, nullptr);
    for (const Variable& v : multi2->variables())
      expect_close(v.value(), fixture("mo." + c + ".opt." + v.path()), 0, v.path());
    std::filesystem::remove(ours);
  }
}

}  // namespace
}  // namespace keras

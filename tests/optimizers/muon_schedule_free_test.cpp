// Muon and ScheduleFreeAdamW beyond the step-by-step oracle (optimizers_test.cpp's
// OptimizersOracle.MuonAndScheduleFreeAdamW): Keras's default configs and names
// (tools/keras_oracle/optimizers_muon_sf.py wrote them), the registry, which variables take
// Muon's AdamW branch, the slot order, and the errors for bad arguments.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace opt = keras::optimizers;
using json = nlohmann::json;

json keras_defaults() {
  std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/optimizers_muon_sf_defaults.json");
  EXPECT_TRUE(in.good()) << "optimizers_muon_sf_defaults.json missing";
  return json::parse(in);
}

Variable var(const Shape& shape, const std::string& path) {
  return Variable(ops::ones(shape), {.name = path.substr(path.rfind('/') + 1), .path = path});
}

std::vector<std::string> paths(const std::vector<Variable>& vars) {
  std::vector<std::string> out;
  for (const auto& v : vars) out.push_back(v.path());
  return out;
}

template <typename Fn>
std::string value_error_of(Fn&& fn) {
  try {
    fn();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "no ValueError";
}

// Every key of Keras's default config, with Keras's value (learning rates are float32 widened
// in Keras's: compared to 1e-6), and no key Keras lacks.
void expect_config_matches(const json& cpp, const json& keras) {
  EXPECT_EQ(cpp.size(), keras.size()) << cpp.dump();
  for (const auto& [key, expected] : keras.items()) {
    ASSERT_TRUE(cpp.contains(key)) << key;
    if (expected.is_number())
      EXPECT_NEAR(cpp[key].get<double>(), expected.get<double>(),
                  1e-6 * std::abs(expected.get<double>()))
          << key;
    else
      EXPECT_EQ(cpp[key], expected) << key;
  }
}

TEST(MuonScheduleFree, DefaultConfigsAndNamesAreKeras) {
  const json keras = keras_defaults();
  backend::clear_session();  // fresh names: "muon", "schedule_free_adam_w"
  expect_config_matches(opt::get("muon")->get_config(), keras["Muon"]);
  expect_config_matches(opt::get("schedulefreeadamw")->get_config(), keras["ScheduleFreeAdamW"]);
  EXPECT_EQ(opt::get("Muon")->class_name(), "Muon");
  EXPECT_EQ(opt::get("ScheduleFreeAdamW")->class_name(), "ScheduleFreeAdamW");
}

TEST(MuonScheduleFree, KerasConfigsDeserialize) {
  // Keras's serialized defaults read back to the same config (None values included).
  for (const char* cls : {"Muon", "ScheduleFreeAdamW"}) {
    json config = keras_defaults()[cls];
    auto o = opt::deserialize({{"class_name", cls}, {"config", config}});
    expect_config_matches(o->get_config(), config);
  }
  json config = keras_defaults()["Muon"];
  config["rms_rate"] = nullptr;
  config["adam_weight_decay"] = nullptr;
  config["weight_decay"] = nullptr;
  config["exclude_layers"] = {"head", "^proj"};
  auto o = opt::deserialize({{"class_name", "Muon"}, {"config", config}});
  expect_config_matches(o->get_config(), config);
}

TEST(MuonScheduleFree, MuonChoosesAdamWByRankEmbeddingAndExcludedLayers) {
  opt::Muon muon({.exclude_layers = {"head", "^proj/"}});
  EXPECT_FALSE(muon.uses_adamw(var({3, 4}, "dense/kernel")));
  EXPECT_TRUE(muon.uses_adamw(var({4}, "dense/bias")));
  EXPECT_TRUE(muon.uses_adamw(var({2, 3, 4}, "conv/kernel")));
  EXPECT_TRUE(muon.uses_adamw(var({10, 4}, "model/Token_Embedding/embeddings")));
  EXPECT_TRUE(muon.uses_adamw(var({3, 4}, "output_head/kernel")));
  EXPECT_TRUE(muon.uses_adamw(var({3, 4}, "proj/kernel")));
  EXPECT_FALSE(muon.uses_adamw(var({3, 4}, "model/proj/kernel")));  // anchored
  opt::Muon with_embeddings({.exclude_embeddings = false});
  EXPECT_FALSE(with_embeddings.uses_adamw(var({10, 4}, "embedding/embeddings")));
}

TEST(MuonScheduleFree, SlotsInKerasOrder) {
  Variable kernel = var({3, 4}, "dense/kernel"), bias = var({4}, "dense/bias");
  opt::Muon muon({.name = "muon"});
  muon.build({kernel, bias});
  EXPECT_EQ(paths(muon.variables()),
            (std::vector<std::string>{"muon/iteration", "muon/learning_rate",
                                      "muon/dense_kernel_momentum", "muon/dense_bias_momentum",
                                      "muon/dense_bias_velocity"}));
  opt::ScheduleFreeAdamW sf({.use_ema = true, .name = "sf"});
  sf.build({kernel, bias});
  EXPECT_EQ(paths(sf.variables()),
            (std::vector<std::string>{"sf/iteration", "sf/learning_rate", "sf/dense_kernel_average",
                                      "sf/dense_bias_average", "sf/dense_kernel_momentum",
                                      "sf/dense_kernel_velocity", "sf/dense_bias_momentum",
                                      "sf/dense_bias_velocity"}));
  // z starts at the variable's value.
  EXPECT_TENSOR_EQ(sf.variables()[4].value(), kernel.value());
}

TEST(MuonScheduleFree, BadArgumentsAreValueErrors) {
  EXPECT_NE(value_error_of([] {
              opt::Muon({.exclude_layers = {"dense("}});
            }).find("`exclude_layers` entry 'dense('"),
            std::string::npos);
  EXPECT_NE(value_error_of([] { opt::Muon({.ns_steps = -1}); }).find("ns_steps"),
            std::string::npos);
  EXPECT_NE(value_error_of([] { opt::ScheduleFreeAdamW({.beta_1 = 0.0}); }).find("beta_1"),
            std::string::npos);
  EXPECT_NE(
      value_error_of([] { opt::ScheduleFreeAdamW({.warmup_steps = -2}); }).find("warmup_steps"),
      std::string::npos);
  EXPECT_NE(value_error_of([] {
              opt::deserialize({{"class_name", "Muon"}, {"config", {{"exclude_layers", "dense"}}}});
            }).find("must be a list of strings"),
            std::string::npos);
  EXPECT_NE(
      value_error_of([] {
        opt::deserialize({{"class_name", "ScheduleFreeAdamW"}, {"config", {{"amsgrad", true}}}});
      }).find("not recognized: amsgrad"),
      std::string::npos);
}

}  // namespace
}  // namespace keras

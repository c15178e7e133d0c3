// Mixed precision against real Keras 3.15 (tools/keras_oracle/mixed_precision.py): the layer
// outputs and their dtypes of an MLP and a CNN saved by Keras under mixed_float16 and
// mixed_bfloat16, the DTypePolicy records of their configs, and LossScaleOptimizer's schedule
// (skipped steps, halving, growth) step by step. The training curves of the same models are
// compared in training_test.cpp (OracleTraining.MixedPrecisionMatchesKeras).
//
// Tolerance: the fixture's rtol/atol, 16-bit sized (float16 rounds to 2**-11 relative,
// bfloat16 to 2**-8; each layer adds a few roundings). The loss scale schedule is exact.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "keras/optimizers/loss_scale_optimizer.h"
#include "keras/saving/archive.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"
#include "json_diff.h"

namespace keras {
namespace {

using json = nlohmann::json;

const std::string kDir = std::string(KERAS_ORACLE_DIR) + "/mixed_precision/";

std::string text_of(const Tensor& bytes) {
  auto v = bytes.to_vector<uint8_t>();
  return std::string(v.begin(), v.end());
}

std::vector<double> values(const Tensor& t) { return t.astype(DType::Float64).to_vector<double>(); }

struct Case {
  json kwargs;
  std::vector<Tensor> in, out;
};

std::map<std::string, Case> load_cases(const std::string& file) {
  std::map<std::string, std::map<std::string, Tensor>> fields;
  for (auto& [key, value] : utils::load_npz(kDir + file)) {
    size_t dot = key.rfind('.');
    fields[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  std::map<std::string, Case> cases;
  for (auto& [name, f] : fields) {
    Case c;
    c.kwargs = json::parse(text_of(f.at("kwargs")));
    for (int i = 0; f.count("in" + std::to_string(i)); ++i) c.in.push_back(f.at("in" + std::to_string(i)));
    for (int i = 0; f.count("out" + std::to_string(i)); ++i)
      c.out.push_back(f.at("out" + std::to_string(i)));
    cases[name] = std::move(c);
  }
  return cases;
}

// The config.json inside a .keras file.
json keras_file_config(const std::string& path) {
  auto members = saving::read_zip_members(saving::read_file_bytes(path), path);
  const auto& bytes = members.at("config.json");
  return json::parse(std::string(bytes.begin(), bytes.end()));
}

TEST(OracleMixedPrecision, LayerOutputsAndDtypesMatchKeras) {
  auto cases = load_cases("layers.npz");
  ASSERT_EQ(cases.size(), 4u);
  for (auto& [name, c] : cases) {
    SCOPED_TRACE("case " + name);
    const json& kw = c.kwargs;
    const double rtol = kw.at("rtol").get<double>(), atol = kw.at("atol").get<double>();
    backend::clear_session();
    auto model = saving::load_model(kDir + kw.at("model").get<std::string>());
    EXPECT_EQ(model->dtype_policy().name, kw.at("model_policy").get<std::string>());
    EXPECT_EQ(model->optimizer()->class_name(), kw.at("optimizer").get<std::string>());
    auto layers = model->layers();
    ASSERT_EQ(layers.size(), kw.at("layers").size());
    EXPECT_EQ(dtype_name(layers[0]->compute_dtype()), kw.at("compute_dtype").get<std::string>());
    EXPECT_EQ(dtype_name(layers[0]->variable_dtype()), kw.at("variable_dtype").get<std::string>());
    Tensor h = c.in[0];
    for (size_t i = 0; i < layers.size(); ++i) {
      h = (*layers[i])(h);
      const std::string layer = kw["layers"][i].get<std::string>();
      EXPECT_EQ(std::string(dtype_name(h.dtype())), kw["dtypes"][i].get<std::string>())
          << "dtype of " << layer << "'s output";
      std::vector<double> a = values(h), e = values(c.out[i]);
      ASSERT_EQ(a.size(), e.size()) << layer;
      double worst = 0;
      size_t bad = a.size();
      for (size_t j = 0; j < a.size(); ++j) {
        double d = std::abs(a[j] - e[j]);
        worst = std::max(worst, d);
        if (!(d <= atol + rtol * std::abs(e[j])) && bad == a.size()) bad = j;
      }
      EXPECT_EQ(bad, a.size()) << layer << ": first mismatch at " << bad << ": keras-cpp "
                               << (bad < a.size() ? a[bad] : 0) << ", Keras "
                               << (bad < a.size() ? e[bad] : 0) << " (max abs diff " << worst
                               << ")";
    }
    // The weights stay float32 under a mixed policy.
    for (const Variable& v : model->weights()) EXPECT_EQ(v.dtype(), DType::Float32) << v.path();
  }
}

TEST(OracleMixedPrecision, ConfigsWriteKerasDTypePolicyRecords) {
  for (const char* name : {"mlp_mixed_float16", "cnn_mixed_bfloat16"}) {
    SCOPED_TRACE(name);
    json keras = keras_file_config(kDir + name + ".keras");
    backend::clear_session();
    // Under the policy it was saved with (Keras's Sequential takes the global policy on load).
    config::set_dtype_policy(keras["config"]["dtype"]["config"]["name"].get<std::string>());
    const std::string path = kDir + name + ".keras";
    auto model = saving::load_model(path);
    json ours = model->get_config();
    EXPECT_EQ(test::json_differences(ours["dtype"],
                                     test::comparable_keras_config(keras["config"]["dtype"])),
              std::vector<std::string>{});
    const json& keras_layers = keras["config"]["layers"];
    auto layers = model->layers();
    // Keras's layer list starts with the InputLayer, which has a plain dtype string.
    ASSERT_EQ(keras_layers.size(), layers.size() + 1);
    for (size_t i = 0; i < layers.size(); ++i)
      EXPECT_EQ(test::json_differences(
                    layers[i]->get_config()["dtype"],
                    test::comparable_keras_config(keras_layers[i + 1]["config"]["dtype"])),
                std::vector<std::string>{})
          << layers[i]->name();
    // Keras records the optimizer compile() was given, not its LossScaleOptimizer wrapper.
    EXPECT_EQ(model->get_compile_config()["optimizer"]["class_name"],
              keras["compile_config"]["optimizer"]["class_name"]);
  }
}

TEST(OracleMixedPrecision, LossScaleOptimizerScheduleMatchesKerasExactly) {
  std::ifstream f(kDir + "loss_scale.json");
  ASSERT_TRUE(f.good());
  json expected = json::parse(f);
  backend::clear_session();
  auto opt = std::make_shared<optimizers::LossScaleOptimizer>(
      optimizers::SGD(expected.at("learning_rate").get<double>()),
      optimizers::LossScaleOptimizerOptions{
          .initial_scale = expected.at("initial_scale").get<double>(),
          .dynamic_growth_steps = expected.at("dynamic_growth_steps").get<int>()});
  EXPECT_EQ(opt->scale_loss(ops::full({}, 2.0, DType::Float32)).item<float>(),
            expected.at("scale_loss_before_build").get<double>());
  Variable w(ops::convert_to_tensor(std::vector<float>{1, -2}, {2}), {.name = "w"});
  opt->build({w});
  std::vector<std::string> paths;
  for (const Variable& v : opt->variables()) paths.push_back(v.path());
  EXPECT_EQ(paths, expected.at("variables").get<std::vector<std::string>>());
  EXPECT_EQ(test::json_differences(optimizers::serialize(*opt), expected.at("config")),
            std::vector<std::string>{});

  for (const json& step : expected.at("steps")) {
    std::vector<float> g;
    for (const json& s : step.at("grad")) g.push_back(std::stof(s.get<std::string>()));
    SCOPED_TRACE("gradient " + step.at("grad").dump());
    opt->apply({ops::convert_to_tensor(g, {2})}, {w});
    EXPECT_EQ(w.numpy<float>(), step.at("variable").get<std::vector<float>>());
    EXPECT_EQ(opt->dynamic_scale().numpy<float>()[0], step.at("dynamic_scale").get<float>());
    EXPECT_EQ(opt->step_counter().numpy<int64_t>()[0], step.at("step_counter").get<int64_t>());
    EXPECT_EQ(opt->iterations().numpy<int64_t>()[0], step.at("iterations").get<int64_t>());
  }
  EXPECT_EQ(opt->scale_loss(ops::full({}, 2.0, DType::Float32)).item<float>(),
            expected.at("scale_loss_after").get<double>());

  // The config reads back (Keras's class name, the inner optimizer deserialized).
  auto again = optimizers::deserialize(optimizers::serialize(*opt));
  EXPECT_EQ(again->class_name(), "LossScaleOptimizer");
  EXPECT_EQ(test::json_differences(optimizers::serialize(*again), expected.at("config")),
            std::vector<std::string>{});
}

TEST(MixedPrecisionPolicy, GlobalPolicyAndOverrides) {
  backend::clear_session();
  EXPECT_EQ(config::dtype_policy().name, "float32");
  config::set_dtype_policy("mixed_bfloat16");
  auto dense = layers::Dense(4);
  EXPECT_EQ(dense->dtype_policy().name, "mixed_bfloat16");
  EXPECT_EQ(dense->compute_dtype(), DType::BFloat16);
  EXPECT_EQ(dense->variable_dtype(), DType::Float32);
  auto f32 = layers::Dense(4, {.dtype = "float32"});
  Tensor x = ops::ones({2, 3});
  Tensor y = dense(x);
  EXPECT_EQ(y.dtype(), DType::BFloat16);
  EXPECT_EQ(f32(y).dtype(), DType::Float32);  // a float32 layer casts bfloat16 inputs back up
  EXPECT_THROW(config::set_dtype_policy("mixed_float8"), ValueError);
  backend::clear_session();  // as Keras's clear_session, back to floatx()
  EXPECT_EQ(config::dtype_policy().name, "float32");
  EXPECT_EQ(layers::Dense(2)->compute_dtype(), DType::Float32);
}

TEST(MixedPrecisionPolicy, GradientsReachFloat32WeightsInFloat32) {
  backend::clear_session();
  config::set_dtype_policy("mixed_float16");
  auto dense = layers::Dense(3);
  Tensor x = ops::convert_to_tensor(std::vector<float>{0.5f, -1.f, 2.f, 1.f}, {2, 2});
  Tensor y;
  auto kernel = [&] {
    dense->ensure_built({x.shape()}, false);
    return dense->trainable_weights();
  }();
  auto [loss, grads] = value_and_grad(
      [&] {
        y = dense(x);
        return ops::sum(ops::cast(y, DType::Float32));
      },
      kernel);
  backend::clear_session();
  EXPECT_EQ(y.dtype(), DType::Float16);
  ASSERT_EQ(grads.size(), 2u);
  EXPECT_EQ(grads[0].dtype(), DType::Float32);
  // d sum(x @ W + b) / dW[i][j] = sum over rows of x[:, i] (exact in float16).
  EXPECT_EQ(grads[0].to_vector<float>(), (std::vector<float>{2.5f, 2.5f, 2.5f, 0.f, 0.f, 0.f}));
  EXPECT_EQ(grads[1].to_vector<float>(), (std::vector<float>{2.f, 2.f, 2.f}));
}

TEST(MixedPrecisionPolicy, CompileWrapsOptimizerUnderMixedFloat16Only) {
  for (const char* policy : {"mixed_float16", "mixed_bfloat16", "float32"}) {
    SCOPED_TRACE(policy);
    backend::clear_session();
    config::set_dtype_policy(policy);
    auto model = Sequential({Input({4}), layers::Dense(2)});
    model->compile({.optimizer = "sgd", .loss = "mse"});
    const bool wrapped = model->optimizer()->class_name() == "LossScaleOptimizer";
    EXPECT_EQ(wrapped, std::string(policy) == "mixed_float16");
    if (wrapped) {
      EXPECT_EQ(model->optimizer()->name(), "loss_scale_optimizer");
    }
    model->compile({.optimizer = "sgd", .loss = "mse", .auto_scale_loss = false});
    EXPECT_EQ(model->optimizer()->class_name(), "SGD");
  }
  backend::clear_session();
}

}  // namespace
}  // namespace keras

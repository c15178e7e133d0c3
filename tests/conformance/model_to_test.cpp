// Model::to moves a model (weights, optimizer state, metric variables) between backends, and
// training continues there with the same numbers as on cpu (within the conformance bound).

#include <gtest/gtest.h>

#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

bool has_torch() {
  for (const auto& b : backend::available())
    if (b == "torch") return true;
  return false;
}

auto make_model(const char* where = "cpu") {
  backend::BackendScope scope(where);
  utils::set_random_seed(5);
  auto model = Sequential({Input({6}), layers::Dense(8, {.activation = "relu"}), layers::Dense(3)});
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}),
                  .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                  .metrics = {"accuracy"}});
  return model;
}

TEST(ModelTo, MovesWeightsOptimizerStateAndMetricsAndKeepsTraining) {
  if (!has_torch()) GTEST_SKIP() << "the torch backend is not built in";
  backend::BackendScope scope("cpu");
  Tensor x = random::normal({32, 6}, 0, 1, DType::Float32, 1);
  Tensor y = random::randint({32}, 0, 3, DType::Int32, 2);
  auto on_cpu = make_model();
  auto moved = make_model();
  on_cpu->train_on_batch(x, y);
  moved->train_on_batch(x, y);
  {
    std::vector<Tensor> a = on_cpu->get_weights(), b = moved->get_weights();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
  }
  Variable kernel = moved->weights()[0];  // a handle taken before the move
  std::vector<Tensor> before = moved->get_weights();
  moved->to("torch");
  for (const Variable& v : moved->weights()) EXPECT_EQ(v.value().backend_name(), "torch") << v.path();
  for (const Variable& v : moved->optimizer()->variables())
    EXPECT_EQ(v.value().backend_name(), "torch") << v.path();
  EXPECT_EQ(kernel.value().backend_name(), "torch");
  std::vector<Tensor> after = moved->get_weights();
  ASSERT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size(); ++i) EXPECT_TENSOR_EQ(after[i].to("cpu"), before[i]);
  EXPECT_TENSOR_NEAR(moved->predict(x, {.verbose = 0}).single().to("cpu"),
                     on_cpu->predict(x, {.verbose = 0}).single(), 1e-6, 1e-7);
  // Batches on cpu are moved to the model's backend; both models take the same two steps.
  for (int step = 0; step < 2; ++step) {
    double a = on_cpu->train_on_batch(x, y).at("loss");
    double b = moved->train_on_batch(x, y).at("loss");
    std::vector<Tensor> wa = on_cpu->get_weights(), wb = moved->get_weights();
    for (size_t i = 0; i < wa.size(); ++i) EXPECT_TENSOR_NEAR(wb[i].to("cpu"), wa[i], 1e-5, 1e-7);
    auto va = on_cpu->optimizer()->variables(), vb = moved->optimizer()->variables();
    for (size_t i = 0; i < va.size(); ++i) EXPECT_TENSOR_NEAR(vb[i].value().to("cpu"), va[i].value(), 1e-5, 1e-7) << va[i].path();
    EXPECT_NEAR(b, a, 1e-5 * std::abs(a));
  }
  EXPECT_EQ(moved->optimizer()->iterations().value().to("cpu").item<int64_t>(), 3);
  Tensor p_cpu = on_cpu->predict(x, {.verbose = 0}).single();
  Tensor p_torch = moved->predict(x, {.verbose = 0}).single();
  EXPECT_EQ(p_torch.backend_name(), "torch");
  EXPECT_TENSOR_NEAR(p_torch.to("cpu"), p_cpu, 1e-5, 1e-6);
  Logs logs = moved->evaluate(x, y, {.verbose = 0});
  EXPECT_TRUE(logs.count("accuracy"));
  // And back.
  moved->to("cpu");
  EXPECT_EQ(kernel.value().backend_name(), "cpu");
  EXPECT_TENSOR_NEAR(moved->predict(x, {.verbose = 0}).single(), p_cpu, 1e-5, 1e-6);
}

TEST(ModelTo, BeforeTheFirstStepTrainsAsOnCpu) {
  // Moved right after compile, before the optimizer has built its variables.
  if (!has_torch()) GTEST_SKIP() << "the torch backend is not built in";
  backend::BackendScope scope("cpu");
  Tensor x = random::normal({32, 6}, 0, 1, DType::Float32, 3);
  Tensor y = random::randint({32}, 0, 3, DType::Int32, 4);
  auto on_cpu = make_model();
  auto moved = make_model();
  moved->to("torch");
  for (int step = 0; step < 3; ++step) {
    double a = on_cpu->train_on_batch(x, y).at("loss");
    double b = moved->train_on_batch(x, y).at("loss");
    EXPECT_NEAR(b, a, 1e-5 * std::abs(a));
  }
  for (const Variable& v : moved->optimizer()->variables())
    EXPECT_EQ(v.value().backend_name(), "torch") << v.path();
  std::vector<Tensor> wa = on_cpu->get_weights(), wb = moved->get_weights();
  for (size_t i = 0; i < wa.size(); ++i) EXPECT_TENSOR_NEAR(wb[i].to("cpu"), wa[i], 1e-5, 1e-7);
}

TEST(ModelTo, UnknownBackendIsAValueErrorNamingTheAvailableOnes) {
  auto model = make_model();
  try {
    model->to("tpu");
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Available backends: "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keras

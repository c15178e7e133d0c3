#include "testing/conformance/training_runs.h"

#include "keras/backend/registry.h"
#include "keras/layers/layers.h"
#include "keras/losses/losses.h"
#include "keras/models/models.h"
#include "keras/ops/ops.h"
#include "keras/optimizers/optimizers.h"
#include "keras/random/random.h"

namespace keras::testing::conformance {
namespace {

ModelPtr<SequentialModel> build(const std::string& model) {
  if (model == "mlp")
    return Sequential({Input({28, 28, 1}), layers::Flatten(),
                       layers::Dense(128, {.activation = "relu"}), layers::Dropout(0.2),
                       layers::Dense(10)});
  return Sequential({Input({28, 28, 1}), layers::Conv2D(8, 3, {.activation = "relu"}),
                     layers::MaxPooling2D(2), layers::Conv2D(16, 3, {.activation = "relu"}),
                     layers::MaxPooling2D(2), layers::Flatten(), layers::Dropout(0.5),
                     layers::Dense(10)});
}

}  // namespace

TrainingTrace train_one_epoch(const std::string& model_name, const std::string& backend_name,
                              const Tensor& x, const Tensor& y, bool compiled) {
  backend::BackendScope scope(backend_name);
  utils::set_random_seed(11);
  auto model = build(model_name);
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 1e-3}),
                  .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                  .jit_compile = compiled ? "auto" : "false"});
  const int64_t n = x.shape()[0], batch = 64;
  std::vector<double> losses;
  for (int64_t start = 0; start + batch <= n; start += batch) {
    Tensor xb = ops::slice(x, {start, 0, 0, 0}, {batch, 28, 28, 1});
    Tensor yb = ops::slice(y, {start}, {batch});
    losses.push_back(model->train_on_batch(xb, yb).at("loss"));
  }
  TrainingTrace trace;
  trace.losses = Tensor::from_host(losses.data(), DType::Float64,
                                   {static_cast<int64_t>(losses.size())}, losses.size(), "cpu");
  trace.weights = model->get_weights();
  return trace;
}

}  // namespace keras::testing::conformance

// TorchModuleWrapper: forward and gradients against LibTorch running the same module, gradients
// against finite differences, and fit training the torch module's own parameters.

#include <gtest/gtest.h>

#include <torch/torch.h>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/torch/interop.h"

namespace keras {
namespace {

using torch_interop::from_torch;
using torch_interop::to_torch;
using torch_interop::TorchModuleWrapper;

torch::nn::Sequential mlp(int64_t in, int64_t hidden, int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::Tanh(),
                               torch::nn::Linear(hidden, out));
}

// Exact equality: both sides run the same ATen kernels on the same memory.
void expect_same(const Tensor& actual, const at::Tensor& expected) {
  EXPECT_TENSOR_EQ(actual, from_torch(expected.detach().contiguous(), actual.backend_name()));
}

TEST(TorchModuleWrapper, WeightsAreTheModuleParameters) {
  torch::manual_seed(0);
  auto seq = mlp(4, 8, 3);
  auto layer = TorchModuleWrapper(seq);
  layer(random::normal({2, 4}));
  auto params = seq->parameters();
  std::vector<Variable> weights = layer->trainable_weights();
  ASSERT_EQ(weights.size(), params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(weights[i].value().array().data(), params[i].data_ptr()) << weights[i].path();
    EXPECT_EQ(weights[i].shape(), Shape(params[i].sizes().vec()));
  }
  EXPECT_EQ(layer->count_params(), 4 * 8 + 8 + 8 * 3 + 3);
  // A keras assign lands in the torch parameter, and a torch write in the keras weight.
  weights[1].assign(ops::full({8}, 0.25));
  EXPECT_TRUE(at::equal(params[1], at::full({8}, 0.25f)));
  {
    torch::NoGradGuard no_grad;
    params[3].fill_(-2);
  }
  EXPECT_EQ(weights[3].numpy<float>(), std::vector<float>(3, -2));
}

TEST(TorchModuleWrapper, ForwardEqualsTheModule) {
  torch::manual_seed(1);
  auto seq = mlp(5, 7, 2);
  auto layer = TorchModuleWrapper(seq);
  for (const char* backend : {"cpu", "torch"}) {
    Tensor x = Tensor::from_vector(random::normal({6, 5}).to_vector<float>(), {6, 5}, backend);
    Tensor y = layer(x);
    EXPECT_EQ(y.backend_name(), backend);
    torch::NoGradGuard no_grad;
    expect_same(y, seq->forward(to_torch(x)));
  }
}

TEST(TorchModuleWrapper, AnyModuleAndFunctionalShapes) {
  torch::manual_seed(2);
  torch::nn::Linear linear(3, 4);
  auto layer = TorchModuleWrapper(torch::nn::AnyModule(linear));
  auto inputs = Input({3});
  auto outputs = layers::Dense(2)(layer(inputs));
  auto model = Functional(inputs, outputs);
  EXPECT_EQ(layer->output().shape(), Shape({-1, 4}));
  EXPECT_EQ(model->count_params(), 3 * 4 + 4 + 4 * 2 + 2);
  Tensor x = random::normal({5, 3});
  torch::NoGradGuard no_grad;
  expect_same(layer(x), linear->forward(to_torch(x)));
}

TEST(TorchModuleWrapper, GradientsEqualTorchAutograd) {
  torch::manual_seed(3);
  auto seq = mlp(4, 6, 3);
  auto layer = TorchModuleWrapper(seq);
  Tensor x = random::normal({5, 4});
  Tensor target = random::normal({5, 3});
  layer(x);  // build

  // keras-cpp: the loss around the layer is ours, the layer's backward is torch's.
  std::vector<Variable> weights = layer->trainable_weights();
  GradientTape tape(/*persistent=*/true);
  Tensor xw = x;
  tape.watch(xw);
  Tensor loss = ops::sum(ops::square(ops::subtract(layer(xw), target)));
  Tensor dx = tape.gradient(loss, xw);
  std::vector<Tensor> dw = tape.gradient(loss, weights);

  // LibTorch alone on the same module.
  at::Tensor xt = to_torch(x).clone().requires_grad_(true);
  seq->zero_grad();
  at::Tensor lt = (seq->forward(xt) - to_torch(target)).pow(2).sum();
  lt.backward();
  EXPECT_NEAR(loss.item<double>(), lt.item<double>(), 1e-5 * std::abs(lt.item<double>()));
  EXPECT_TENSOR_NEAR(dx, from_torch(xt.grad()), 1e-6, 1e-6);
  auto params = seq->parameters();
  ASSERT_EQ(dw.size(), params.size());
  for (size_t i = 0; i < params.size(); ++i)
    EXPECT_TENSOR_NEAR(dw[i], from_torch(params[i].grad()), 1e-6, 1e-6) << weights[i].path();
}

TEST(TorchModuleWrapper, GradientsMatchFiniteDifferences) {
  torch::manual_seed(4);
  auto seq = mlp(3, 5, 2);
  seq->to(torch::kDouble);
  auto layer = TorchModuleWrapper(seq);
  Tensor x = test::randn({4, 3}, 7);
  ASSERT_EQ(x.dtype(), DType::Float64);
  layer(x);
  // Inputs: keras::testing::gradcheck against central differences.
  test::expect_gradcheck("wrapper input",
                         [&](const std::vector<Tensor>& in) { return layer(in[0]); }, {x});

  // Parameters: perturb each weight element in place (the torch module sees it) and compare
  // d(sum(u * f))/dw with central differences.
  Tensor u = test::randn({4, 2}, 11);
  auto objective = [&] { return ops::sum(ops::multiply(u, layer(x))); };
  std::vector<Variable> weights = layer->trainable_weights();
  auto [value, grads] = value_and_grad(objective, weights);
  const double eps = 1e-6;
  for (size_t w = 0; w < weights.size(); ++w) {
    at::Tensor p = seq->parameters()[w];
    std::vector<double> analytic = grads[w].to_vector<double>();
    for (int64_t i = 0; i < p.numel(); ++i) {
      torch::NoGradGuard no_grad;
      double* slot = p.data_ptr<double>() + i;
      const double saved = *slot;
      *slot = saved + eps;
      const double plus = objective().item<double>();
      *slot = saved - eps;
      const double minus = objective().item<double>();
      *slot = saved;
      EXPECT_NEAR(analytic[static_cast<size_t>(i)], (plus - minus) / (2 * eps), 1e-6)
          << weights[w].path() << "[" << i << "]";
    }
  }
}

TEST(TorchModuleWrapper, FitTrainsTheTorchModule) {
  torch::manual_seed(5);
  utils::set_random_seed(5);
  torch::nn::Linear linear(3, 1);
  at::Tensor before = linear->weight.detach().clone();
  auto layer = TorchModuleWrapper(linear);
  auto model = Sequential({Input({3}), layer});
  model->compile({.optimizer = optimizers::SGD({.learning_rate = 0.1}), .loss = "mse"});
  Tensor x = random::normal({64, 3});
  Tensor y = ops::add(ops::matmul(x, test::make({1.5, -2.0, 0.5}, {3, 1})), 0.3);
  const double initial = model->evaluate(x, y, {.verbose = 0}).at("loss");
  model->fit(x, y, {.batch_size = 16, .epochs = 30, .verbose = 0});
  const double final_loss = model->evaluate(x, y, {.verbose = 0}).at("loss");
  EXPECT_LT(final_loss, 0.01 * initial);
  // The torch module itself learned the map, and still shares memory with the keras weights.
  EXPECT_FALSE(at::allclose(linear->weight, before));
  EXPECT_TRUE(
      at::allclose(linear->weight, at::tensor({1.5f, -2.0f, 0.5f}).reshape({1, 3}), 0, 0.05));
  EXPECT_EQ(layer->trainable_weights()[0].value().array().data(), linear->weight.data_ptr());
  torch::NoGradGuard no_grad;
  expect_same(model->predict(x, {.verbose = 0}).single(), linear->forward(to_torch(x)));
}

TEST(TorchModuleWrapper, FitsBetweenKerasLayers) {
  torch::manual_seed(6);
  utils::set_random_seed(6);
  auto block = mlp(8, 16, 8);
  auto model = Sequential({Input({4}), layers::Dense(8, {.activation = "relu"}),
                           TorchModuleWrapper(block), layers::Dense(1)});
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  Tensor x = random::normal({128, 4});
  Tensor y = ops::sum(ops::sin(x), -1, /*keepdims=*/true);
  at::Tensor first = block->parameters()[0].detach().clone();
  const double initial = model->evaluate(x, y, {.verbose = 0}).at("loss");
  model->fit(x, y, {.batch_size = 32, .epochs = 20, .verbose = 0});
  EXPECT_LT(model->evaluate(x, y, {.verbose = 0}).at("loss"), 0.5 * initial);
  EXPECT_FALSE(at::allclose(block->parameters()[0], first));
}

TEST(TorchModuleWrapper, SyncRestoresSharingAfterCopyOnWrite) {
  torch::nn::Linear linear(2, 3);
  auto layer = TorchModuleWrapper(linear);
  layer(ops::ones({1, 2}));
  Variable kernel = layer->trainable_weights()[0];
  Tensor held = kernel.value();  // a reader of the old value: keras must copy on assign
  kernel.assign(ops::full({3, 2}, 7.0));
  EXPECT_NE(kernel.value().array().data(), linear->weight.data_ptr());
  layer->sync();
  EXPECT_EQ(kernel.value().array().data(), linear->weight.data_ptr());
  EXPECT_TRUE(at::equal(linear->weight, at::full({3, 2}, 7.0f)));
  // The reader still sees the value it read.
  EXPECT_FALSE(at::equal(to_torch(held), at::full({3, 2}, 7.0f)));
}

TEST(TorchModuleWrapper, SecondOrderGradientsAreAClearError) {
  torch::nn::Linear linear(2, 2);
  auto layer = TorchModuleWrapper(linear);
  Tensor x = random::normal({3, 2});
  GradientTape outer;
  outer.watch(x);
  GradientTape inner;
  inner.watch(x);
  Tensor y = ops::sum(ops::square(layer(x)));
  EXPECT_THROW(inner.gradient(y, x), NotImplementedError);
}

TEST(TorchModuleWrapper, TrainingFlagReachesTorchDropout) {
  torch::nn::Dropout dropout(0.5);
  auto layer = TorchModuleWrapper(dropout);
  Tensor x = ops::ones({64, 64});
  // Inference: the identity; training: about half the entries zeroed, the rest scaled by 2.
  EXPECT_TENSOR_EQ(layer(x), x);
  std::vector<float> trained = layer(x, {.training = true}).to_vector<float>();
  size_t zeros = 0;
  for (float v : trained) {
    EXPECT_TRUE(v == 0.0f || v == 2.0f) << v;
    zeros += v == 0.0f;
  }
  EXPECT_NEAR(static_cast<double>(zeros) / trained.size(), 0.5, 0.05);
  EXPECT_TRUE(dropout->is_training());
}

TEST(TorchModuleWrapper, FrozenTorchParametersAreNonTrainable) {
  torch::nn::Linear linear(2, 2);
  linear->bias.set_requires_grad(false);
  auto layer = TorchModuleWrapper(linear);
  layer(ops::ones({1, 2}));
  EXPECT_EQ(layer->trainable_weights().size(), 1u);
  ASSERT_EQ(layer->non_trainable_weights().size(), 1u);
  EXPECT_EQ(layer->non_trainable_weights()[0].value().array().data(), linear->bias.data_ptr());
}

}  // namespace
}  // namespace keras

// to_torch_module: a keras-cpp model driven by LibTorch. Forward against model->predict,
// torch::autograd gradients against keras-cpp's value_and_grad, and torch::optim::SGD steps
// against the same steps done by hand with keras-cpp gradients.

#include <gtest/gtest.h>

#include <torch/torch.h>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/torch/interop.h"

namespace keras {
namespace {

using torch_interop::from_torch;
using torch_interop::to_torch;
using torch_interop::to_torch_module;

ModelPtr<SequentialModel> small_model(uint64_t seed) {
  utils::set_random_seed(seed);
  return Sequential({Input({4}), layers::Dense(6, {.activation = "tanh"}), layers::Dense(2)});
}

Tensor mse(const Tensor& y, const Tensor& target) {
  return ops::mean(ops::square(ops::subtract(y, target)));
}

TEST(ToTorchModule, ParametersAreTheKerasWeights) {
  auto model = small_model(1);
  auto view = to_torch_module(model);
  auto params = view->parameters();
  std::vector<Variable> weights = model->trainable_weights();
  ASSERT_EQ(params.size(), weights.size());
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(params[i].data_ptr(), weights[i].value().array().data()) << weights[i].path();
    EXPECT_TRUE(params[i].requires_grad());
  }
  EXPECT_EQ(view->named_parameters().size(), 4u);
  // Both directions of writing: torch in place, keras assign.
  {
    torch::NoGradGuard no_grad;
    params[1].fill_(0.5);
  }
  EXPECT_EQ(weights[1].numpy<float>(), std::vector<float>(6, 0.5f));
  weights[3].assign(ops::full({2}, -1.0));
  EXPECT_TRUE(at::equal(params[3], at::full({2}, -1.0f)));
}

TEST(ToTorchModule, ForwardEqualsPredict) {
  auto model = small_model(2);
  auto view = to_torch_module(model);
  Tensor x = random::normal({7, 4});
  Tensor expected = model->predict(x, {.verbose = 0}).single();
  at::Tensor y = view->forward(to_torch(x));  // recorded (parameters require grad)
  EXPECT_TRUE(y.requires_grad());
  EXPECT_TENSOR_EQ(from_torch(y.detach(), expected.backend_name()), expected);
  torch::NoGradGuard no_grad;
  EXPECT_TENSOR_EQ(from_torch(view->forward(to_torch(x)), expected.backend_name()), expected);
}

TEST(ToTorchModule, TorchGradientsEqualKerasGradients) {
  auto model = small_model(3);
  auto view = to_torch_module(model);
  Tensor x = random::normal({5, 4});
  Tensor target = random::normal({5, 2});

  std::vector<Variable> weights = model->trainable_weights();
  auto [loss, grads] = value_and_grad([&] { return mse((*model)(x), target); }, weights);
  GradientTape tape;
  Tensor xw = x;
  tape.watch(xw);
  Tensor dx = tape.gradient(mse((*model)(xw), target), xw);

  at::Tensor xt = to_torch(x).clone().requires_grad_(true);
  view->zero_grad();
  at::Tensor lt = torch::mse_loss(view->forward(xt), to_torch(target));
  lt.backward();
  EXPECT_NEAR(lt.item<double>(), loss.item<double>(), 1e-6);
  EXPECT_TENSOR_NEAR(from_torch(xt.grad(), x.backend_name()), dx, 1e-6, 1e-7);
  auto params = view->parameters();
  for (size_t i = 0; i < params.size(); ++i)
    EXPECT_TENSOR_NEAR(from_torch(params[i].grad(), x.backend_name()), grads[i], 1e-6, 1e-7)
        << weights[i].path();
}

TEST(ToTorchModule, TorchSgdStepsEqualStepsByHand) {
  Tensor x = random::normal({8, 4}, 0.0, 1.0, std::nullopt, 17);
  Tensor target = random::normal({8, 2}, 0.0, 1.0, std::nullopt, 18);
  const double lr = 0.1;
  const int steps = 4;

  // By hand: keras gradients, w -= lr * g.
  auto reference = small_model(4);
  std::vector<Variable> ref_weights = reference->trainable_weights();
  for (int s = 0; s < steps; ++s) {
    auto [loss, grads] = value_and_grad([&] { return mse((*reference)(x), target); }, ref_weights);
    for (size_t i = 0; i < ref_weights.size(); ++i)
      ref_weights[i].assign(ops::subtract(ref_weights[i].value(), ops::multiply(grads[i], lr)));
  }

  // A plain LibTorch loop on the same initial model.
  auto model = small_model(4);
  auto view = to_torch_module(model);
  torch::optim::SGD sgd(view->parameters(), torch::optim::SGDOptions(lr));
  for (int s = 0; s < steps; ++s) {
    sgd.zero_grad();
    torch::mse_loss(view->forward(to_torch(x)), to_torch(target)).backward();
    sgd.step();
  }
  std::vector<Variable> weights = model->trainable_weights();
  for (size_t i = 0; i < weights.size(); ++i)
    EXPECT_TENSOR_NEAR(weights[i].value(), ref_weights[i].value(), 1e-5, 1e-6) << weights[i].path();
  // model->predict sees the weights torch::optim wrote.
  EXPECT_TENSOR_NEAR(model->predict(x, {.verbose = 0}).single(),
                     reference->predict(x, {.verbose = 0}).single(), 1e-5, 1e-6);
}

TEST(ToTorchModule, KerasFitThenTorchStepsShareWeights) {
  auto model = small_model(5);
  auto view = to_torch_module(model);
  model->compile({.optimizer = optimizers::SGD({.learning_rate = 0.05}), .loss = "mse"});
  Tensor x = random::normal({16, 4});
  Tensor y = random::normal({16, 2});
  model->fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});
  std::vector<Variable> weights = model->trainable_weights();
  std::vector<std::vector<float>> fitted;
  for (const Variable& w : weights) fitted.push_back(w.numpy<float>());
  // fit may have copied a weight on write (its step graph still read the old value); sync()
  // (forward() runs it) puts the trained values into the parameters and shares them again.
  view->sync();
  auto params = view->parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(params[i].data_ptr(), weights[i].value().array().data()) << weights[i].path();
    at::Tensor p = params[i].detach().contiguous();
    EXPECT_EQ(std::vector<float>(p.data_ptr<float>(), p.data_ptr<float>() + p.numel()), fitted[i]);
  }
  // And a torch step after that moves what keras predicts.
  Tensor before = model->predict(x, {.verbose = 0}).single();
  torch::optim::SGD sgd(view->parameters(), torch::optim::SGDOptions(0.1));
  torch::mse_loss(view->forward(to_torch(x)), to_torch(y)).backward();
  sgd.step();
  Tensor after = model->predict(x, {.verbose = 0}).single();
  EXPECT_GT(ops::max(ops::absolute(ops::subtract(after, before))).item<double>(), 1e-4);
}

TEST(ToTorchModule, NonTrainableWeightsAreBuffers) {
  utils::set_random_seed(6);
  auto model = Sequential({Input({3}), layers::BatchNormalization(), layers::Dense(1)});
  auto view = to_torch_module(model);
  std::vector<Variable> frozen = model->non_trainable_weights();
  auto buffers = view->buffers();
  ASSERT_EQ(buffers.size(), frozen.size());
  ASSERT_EQ(frozen.size(), 2u);  // moving mean and variance
  for (size_t i = 0; i < buffers.size(); ++i) {
    EXPECT_EQ(buffers[i].data_ptr(), frozen[i].value().array().data()) << frozen[i].path();
    EXPECT_FALSE(buffers[i].requires_grad());
  }
  // A training-mode forward updates the moving statistics, and the buffers show it.
  at::Tensor before = buffers[0].clone();
  view->train();
  view->forward(at::randn({16, 3}) + 5);
  view->sync();
  EXPECT_FALSE(at::allclose(view->buffers()[0], before));
  EXPECT_TRUE(at::equal(view->buffers()[0], to_torch(model->non_trainable_weights()[0].value())));
}

TEST(ToTorchModule, ModelOnTheTorchBackendWithAWrappedModule) {
  // torch::autograd -> keras-cpp autograd -> torch::autograd (the wrapped Linear) and back.
  backend::BackendScope scope("torch");
  utils::set_random_seed(7);
  torch::manual_seed(7);
  torch::nn::Linear inner(4, 5);
  auto model = Sequential({Input({4}), torch_interop::TorchModuleWrapper(inner),
                           layers::Dense(2, {.activation = "tanh"})});
  auto view = to_torch_module(model);
  Tensor x = random::normal({3, 4});
  Tensor target = random::normal({3, 2});
  ASSERT_EQ(x.backend_name(), "torch");
  std::vector<Variable> weights = model->trainable_weights();
  auto [loss, grads] = value_and_grad([&] { return mse((*model)(x), target); }, weights);

  view->zero_grad();
  at::Tensor lt = torch::mse_loss(view->forward(to_torch(x)), to_torch(target));
  lt.backward();
  auto params = view->parameters();
  ASSERT_EQ(params.size(), 4u);
  EXPECT_EQ(params[0].data_ptr(), inner->weight.data_ptr());  // one buffer for all three views
  for (size_t i = 0; i < params.size(); ++i)
    EXPECT_TENSOR_NEAR(from_torch(params[i].grad()), grads[i], 1e-6, 1e-7) << weights[i].path();
}

TEST(ToTorchModule, UnbuiltModelIsAnError) {
  auto model = Sequential({layers::Dense(2)});
  EXPECT_THROW(to_torch_module(model), Error);
}

}  // namespace
}  // namespace keras

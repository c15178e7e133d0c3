// LoRA gradients against finite differences, training that moves only the adapters, and the
// saved form (merged kernel, adapters zeroed on load) as Keras's own LoRA tests check it
// (keras/src/layers/core/dense_test.py test_enable_lora, conv_test.py).

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/layers/core/lora.h"
#include "keras/saving/save_model.h"

namespace keras {
namespace {

// The layer's output projected on a fixed probe, as a function of its trainable weights
// (bias and adapters) with the frozen base held: gradcheck differentiates through the merge.
void expect_lora_gradients(const std::string& label, layers::LoraLayer& layer, const Tensor& x) {
  layer(x);
  ASSERT_TRUE(layer.lora_enabled());
  std::vector<Tensor> trainable, frozen;
  for (const Variable& v : layer.trainable_weights())
    trainable.push_back(test::randn(v.shape(), trainable.size() + 1, 0.5));
  for (const Variable& v : layer.non_trainable_weights()) frozen.push_back(ops::cast(v.value(), DType::Float64));
  ASSERT_EQ(frozen.size(), 1u) << label << ": the base weight alone is frozen";
  auto fn = [&](const std::vector<Tensor>& t) {
    return layer.stateless_call(t, frozen, {x}).outputs[0];
  };
  test::expect_gradcheck(label, fn, trainable);
  // Not vacuously: every trainable weight (both adapters included) moves the output.
  std::vector<Tensor> grads = grad([&](const std::vector<Tensor>& t) { return ops::sum(fn(t)); },
                                   trainable);
  for (size_t i = 0; i < grads.size(); ++i)
    EXPECT_GT(ops::max(ops::absolute(grads[i])).item<double>(), 0) << label << " weight " << i;
}

TEST(LoraGradients, AdaptersAndBiasMatchFiniteDifferences) {
  const Tensor x3 = test::randn({2, 3, 4}, 7);
  {
    auto dense = layers::Dense(3, {.activation = "tanh", .dtype = "float64"});
    dense(x3);
    dense->enable_lora(2, {.lora_alpha = 3});
    expect_lora_gradients("Dense", *dense, x3);
  }
  {
    auto einsum = layers::EinsumDense("abc,cde->abde", {layers::kNone, 2, 3},
                                      {.bias_axes = "e", .dtype = "float64"});
    einsum(x3);
    einsum->enable_lora(2, {.lora_alpha = 1.5});
    expect_lora_gradients("EinsumDense", *einsum, x3);
  }
  {
    const Tensor img = test::randn({2, 4, 4, 2}, 8);
    auto conv = layers::Conv2D(3, 2, {.dtype = "float64"});
    conv(img);
    conv->enable_lora(1);
    expect_lora_gradients("Conv2D", *conv, img);
  }
  {
    const Tensor ids = Tensor::from_vector(std::vector<int32_t>{0, 3, 3, 5, 1, 2}, {2, 3});
    auto embed = layers::Embedding(6, 3, {.dtype = "float64"});
    embed(ids);
    embed->enable_lora(2, {.lora_alpha = 4});
    expect_lora_gradients("Embedding", *embed, ids);
  }
}

TEST(LoraTraining, FitMovesOnlyTheAdaptersAndBias) {
  utils::set_random_seed(3);
  auto hidden = layers::Dense(16, {.activation = "relu"});
  auto head = layers::Dense(2);
  auto model = Sequential({Input({5}), hidden, head});
  const Tensor kernel_before = hidden->kernel_variable().value();
  hidden->enable_lora(2);
  head->enable_lora(1);
  EXPECT_EQ(model->trainable_weights().size(), 6u);  // bias, lora_kernel_a, lora_kernel_b twice
  EXPECT_EQ(model->non_trainable_weights().size(), 2u);
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}), .loss = "mse"});
  Tensor x = random::normal({64, 5}), y = random::normal({64, 2});
  const Tensor b_before = hidden->lora_kernel_b().value();
  auto history = model->fit(x, y, {.batch_size = 16, .epochs = 3, .verbose = 0});
  EXPECT_TENSOR_EQ(hidden->kernel_variable().value(), kernel_before);
  EXPECT_GT(ops::max(ops::absolute(ops::subtract(hidden->lora_kernel_b(), b_before))).item<float>(), 0);
  // The layer computes with the merged kernel.
  EXPECT_TENSOR_NEAR(hidden->kernel(),
                     ops::add(kernel_before, ops::multiply(ops::matmul(hidden->lora_kernel_a(),
                                                                       hidden->lora_kernel_b()),
                                                           1.0)),
                     1e-6, 1e-6);
}

TEST(LoraSaving, FilesHoldTheMergedKernelAndLoadEitherWay) {
  utils::set_random_seed(4);
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("keras_lora_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto build = [](int64_t lora_rank) {
    return Sequential({Input({4}), layers::Dense(3, {.lora_rank = lora_rank, .name = "d"})});
  };
  auto model = build(0);
  auto dense = std::dynamic_pointer_cast<layers::DenseLayer>(model->get_layer("d"));
  dense->enable_lora(2);
  std::vector<Tensor> values;
  for (const Variable& w : dense->weights()) values.push_back(random::normal(w.shape()));
  dense->set_weights(values);
  const Tensor x = random::normal({5, 4});
  const Tensor y = model->predict(x, {.verbose = 0}).single();
  model->save_weights((dir / "m.weights.h5").string());
  model->save((dir / "m.keras").string());

  // Into a model without LoRA: the merged kernel is the whole function.
  auto plain = build(0);
  plain->load_weights((dir / "m.weights.h5").string());
  EXPECT_TENSOR_NEAR(plain->predict(x, {.verbose = 0}).single(), y, 1e-5, 1e-6);
  EXPECT_TENSOR_NEAR(plain->get_layer("d")->get_weights()[0], dense->kernel(), 1e-6, 1e-6);

  // Into a model with LoRA (the .keras file's config has lora_rank): adapters zeroed.
  auto loaded = saving::load_model((dir / "m.keras").string());
  auto again = std::dynamic_pointer_cast<layers::DenseLayer>(loaded->get_layer("d"));
  ASSERT_TRUE(again && again->lora_enabled());
  EXPECT_EQ(again->get_config()["lora_rank"], 2);
  EXPECT_TENSOR_NEAR(loaded->predict(x, {.verbose = 0}).single(), y, 1e-5, 1e-6);
  EXPECT_EQ(ops::max(ops::absolute(again->lora_kernel_a())).item<float>(), 0.0f);
  EXPECT_EQ(ops::max(ops::absolute(again->lora_kernel_b())).item<float>(), 0.0f);

  // A plain checkpoint into a LoRA model.
  auto lora = build(2);
  lora(x);
  plain->save_weights((dir / "plain.weights.h5").string());
  lora->load_weights((dir / "plain.weights.h5").string());
  EXPECT_TENSOR_NEAR(lora->predict(x, {.verbose = 0}).single(), y, 1e-5, 1e-6);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace keras

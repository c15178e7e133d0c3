// SwapEMAWeights: validation and prediction see the moving averages (computed here by hand
// from the weights after every step), training sees the trained weights, swap_on_epoch.

#include "keras/callbacks/swap_ema_weights.h"

#include <gtest/gtest.h>

#include "keras/keras.h"

namespace keras {
namespace {

constexpr double kMomentum = 0.5;

ModelPtr<> ema_model(bool use_ema = true) {
  utils::set_random_seed(4);
  auto model = Sequential({Input({1}), layers::Dense(1, {.use_bias = false,
                                                         .kernel_initializer = "ones"})});
  model->compile({.optimizer = optimizers::deserialize(
                      {{"class_name", "SGD"},
                       {"config", {{"learning_rate", 0.1}, {"use_ema", use_ema},
                                   {"ema_momentum", kMomentum}}}}),
                  .loss = "mse"});
  return model;
}

double kernel(Model& m) { return m.get_weights()[0].item<double>(); }

struct Recorder {
  std::vector<double> after_batch;  // trained weights after each step
  std::vector<double> in_test;      // what validation saw
  std::vector<double> at_epoch_end, at_epoch_begin;
};

// x = 1..4, y = 0: 2 batches per epoch; validation on the same data.
std::shared_ptr<callbacks::History> run(Model& model, std::shared_ptr<callbacks::SwapEMAWeights> swap,
                                        Recorder& r, int epochs) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4}, {4, 1});
  Tensor y = ops::zeros({4, 1});
  auto rec = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_begin = [&](int, const Logs&) { r.at_epoch_begin.push_back(kernel(model)); },
      .on_epoch_end = [&](int, const Logs&) { r.at_epoch_end.push_back(kernel(model)); },
      .on_train_batch_end = [&](int64_t, const Logs&) { r.after_batch.push_back(kernel(model)); },
      .on_test_begin = [&](const Logs&) { r.in_test.push_back(kernel(model)); }});
  return model.fit(x, y, {.batch_size = 2, .epochs = epochs, .verbose = 0,
                          .callbacks = {swap, rec}, .validation_data = ValidationData{x, y},
                          .shuffle = false});
}

// Keras's EMA: the first step copies the weight, then avg = m * avg + (1 - m) * w.
std::vector<double> ema_of(const std::vector<double>& w) {
  std::vector<double> out;
  double avg = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    avg = i == 0 ? w[0] : kMomentum * avg + (1 - kMomentum) * w[i];
    out.push_back(avg);
  }
  return out;
}

TEST(SwapEMAWeights, ValidationSeesTheMovingAverages) {
  auto model = ema_model();
  Recorder r;
  run(*model, std::make_shared<callbacks::SwapEMAWeights>(), r, 3);
  ASSERT_EQ(r.after_batch.size(), 6u);
  std::vector<double> ema = ema_of(r.after_batch);
  ASSERT_EQ(r.in_test.size(), 3u);
  for (int e = 0; e < 3; ++e) {
    EXPECT_NEAR(r.in_test[e], ema[2 * e + 1], 1e-6) << e;
    EXPECT_NE(r.in_test[e], r.after_batch[2 * e + 1]);
    // Swapped back before the epoch ends: training continues from the trained weights.
    EXPECT_EQ(r.at_epoch_end[e], r.after_batch[2 * e + 1]);
  }
  // fit's end (use_ema) leaves the averages in the model, as Keras.
  EXPECT_NEAR(kernel(*model), ema.back(), 1e-6);
}

TEST(SwapEMAWeights, SwapOnEpochHoldsTheAveragesBetweenEpochs) {
  auto model = ema_model();
  Recorder r;
  auto swap = std::make_shared<callbacks::SwapEMAWeights>(true);
  run(*model, swap, r, 3);
  std::vector<double> ema = ema_of(r.after_batch);
  for (int e = 0; e < 3; ++e) {
    EXPECT_NEAR(r.at_epoch_end[e], ema[2 * e + 1], 1e-6) << e;  // the recorder runs after it
    EXPECT_NEAR(r.in_test[e], ema[2 * e + 1], 1e-6) << e;
  }
  for (int e = 1; e < 3; ++e)
    EXPECT_EQ(r.at_epoch_begin[e], r.after_batch[2 * e - 1]) << e;  // trained weights back
  EXPECT_NEAR(kernel(*model), ema.back(), 1e-6);
  EXPECT_TRUE(swap->ema_weights_in_model());
}

TEST(SwapEMAWeights, PredictUsesTheAveragesAndRestores) {
  auto model = ema_model();
  Recorder r;
  // Train without the callback, but stop before fit's final overwrite can hide the
  // difference: use train_on_batch.
  Tensor x = Tensor::from_vector<float>({1, 2}, {2, 1});
  Tensor y = ops::zeros({2, 1});
  std::vector<double> w;
  for (int i = 0; i < 3; ++i) {
    model->train_on_batch(x, y);
    w.push_back(kernel(*model));
  }
  double ema = ema_of(w).back();
  auto swap = std::make_shared<callbacks::SwapEMAWeights>();
  Tensor p = model->predict(Tensor::from_vector<float>({1}, {1, 1}),
                            {.verbose = 0, .callbacks = {swap}}).single();
  EXPECT_NEAR(p.item<double>(), ema, 1e-6);
  EXPECT_EQ(kernel(*model), w.back());
  Logs scores = model->evaluate(x, y, {.verbose = 0, .callbacks = {swap}});
  EXPECT_NEAR(scores.at("loss"), (ema * ema * 1 + ema * ema * 4) / 2, 1e-5);
  EXPECT_EQ(kernel(*model), w.back());
}

TEST(SwapEMAWeights, NeedsAnEmaOptimizer) {
  auto model = ema_model(false);
  Recorder r;
  EXPECT_THROW(run(*model, std::make_shared<callbacks::SwapEMAWeights>(), r, 1), ValueError);
}

}  // namespace
}  // namespace keras

// The proof the issue asks for: fit learns real data. An MLP on a Fashion-MNIST subset
// (Debian's dataset-fashion-mnist) must reach accuracy well above chance (10%) in a few
// epochs; the reference is the dataset's published baselines (MLPs reach ~85-88%).

#include <gtest/gtest.h>

#include "keras/keras.h"

namespace keras {
namespace {

std::pair<Tensor, Tensor> subset(const Tensor& images, const Tensor& labels, int64_t n) {
  Tensor x = ops::cast(images.slice({{0, n}}), DType::Float32) / 255.0;
  return {ops::reshape(x, {n, 784}), labels.slice({{0, n}})};
}

TEST(FashionMnistTraining, MlpLearnsWellAboveChance) {
  utils::set_random_seed(0);
  auto [train, test] = datasets::fashion_mnist::load_data();
  auto [x_train, y_train] = subset(train.first, train.second, 6000);
  auto [x_test, y_test] = subset(test.first, test.second, 2000);
  auto model = Sequential({Input({784}), layers::Dense(128, {.activation = "relu"}),
                           layers::Dense(10, {.activation = "softmax"})});
  model->compile({.optimizer = "adam",
                  .loss = "sparse_categorical_crossentropy",
                  .metrics = {"accuracy"}});
  auto history = model->fit(x_train, y_train,
                            {.batch_size = 64, .epochs = 3, .verbose = 0,
                             .validation_split = 0.1});
  EXPECT_GT(history->history.at("val_accuracy").back(), 0.7);
  Logs scores = model->evaluate(x_test, y_test, {.verbose = 0});
  EXPECT_GT(scores.at("accuracy"), 0.7);
  EXPECT_LT(scores.at("loss"), history->history.at("loss").front());
}

}  // namespace
}  // namespace keras

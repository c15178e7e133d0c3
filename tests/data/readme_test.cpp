// The example of docs/data.md (data pipelines), compiled and run on a small synthetic problem.

#include <gtest/gtest.h>

#include "keras/keras.h"

namespace keras {
namespace {

namespace ops = keras::ops;
namespace layers = keras::layers;

TEST(DataReadme, ExampleRuns) {
  std::vector<float> xs, ys;
  for (int i = 0; i < 200; ++i) {
    for (int j = 0; j < 4; ++j) xs.push_back(std::sin(0.1f * static_cast<float>(i * 4 + j)));
    ys.push_back(static_cast<float>(i % 3));
  }
  Tensor x_train = Tensor::from_vector(xs, {200, 4});
  std::pair<Tensor, Tensor> train{x_train, Tensor::from_vector(ys, {200})};
  Tensor x_test = x_train.slice({{0, 50}}), y_test = train.second.slice({{0, 50}});
  auto model = Sequential({Input({4}), layers::Dense(3, {.activation = "softmax"})});
  model->compile(
      {.optimizer = "adam", .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
  int64_t cursor = 0;
  auto next_batch = [&] {
    int64_t s = (cursor++ % 4) * 50;
    return StepData{x_train.slice({{s, s + 50}}), train.second.slice({{s, s + 50}}), {}};
  };

  // clang-format off
  // ---- the code of docs/data.md, verbatim ----
  namespace data = keras::data;
  auto augment = [](const data::Element& e) {               // runs on 4 threads, order kept
    return data::Element{ops::add(e.x.single(), 0.01), e.y, {}};
  };
  auto [train_part, val_part] = keras::utils::split_dataset(  // 90% / 10%
      data::Dataset::from_tensor_slices(x_train, train.second), {.left_size = 0.9});
  auto train_ds = train_part.shuffle(10000, /*seed=*/42)    // reshuffled every epoch
                      .map(augment, /*num_parallel_calls=*/4)
                      .batch(128)
                      .prefetch(2);                        // a background thread
  model->fit(train_ds, {.epochs = 5, .validation_data = val_part.batch(256)});
  model->evaluate(data::Dataset::from_tensor_slices(x_test, y_test).batch(256));

  // Endless data: a generator (or dataset.repeat()) needs steps_per_epoch.
  model->fit([&]() -> std::optional<keras::StepData> { return next_batch(); },
             {.epochs = 3, .steps_per_epoch = 100});
  // ---- end ----
  // clang-format on
  EXPECT_EQ(model->history()->history.at("loss").size(), 3u);
  EXPECT_EQ(cursor, 300);
}

}  // namespace
}  // namespace keras

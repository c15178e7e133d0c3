// The callbacks example of docs/training.md: several callbacks in one fit, on real training.

#include <gtest/gtest.h>

#include <filesystem>

#include "callback_test_util.h"
#include "keras/keras.h"

namespace keras {
namespace {

TEST(Callbacks, ReadmeExampleRunsTogether) {
  test::TempDir dir("readme");
  utils::set_random_seed(8);
  Tensor y;
  Tensor x = test::linear_data(40, &y);
  auto model = Sequential({Input({3}), layers::Dense(4, {.activation = "relu"}), layers::Dense(1)});
  model->compile({.optimizer = "adam", .loss = "mse"});
  namespace cb = keras::callbacks;
  auto history = model->fit(x, y, {.epochs = 4, .verbose = 0, .callbacks = {
      std::make_shared<cb::EarlyStopping>(cb::EarlyStoppingOptions{.patience = 3,
                                                                   .restore_best_weights = true}),
      std::make_shared<cb::ModelCheckpoint>(dir.file("ckpt/{epoch:02d}-{val_loss:.2f}.weights.h5"),
                                            cb::ModelCheckpointOptions{.save_weights_only = true}),
      std::make_shared<cb::BackupAndRestore>(dir.file("backup"))},
                    .validation_split = 0.1});
  EXPECT_EQ(history->epoch.size(), 4u);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.file("ckpt"))) {
    EXPECT_EQ(e.path().extension(), ".h5");
    ++files;
  }
  EXPECT_EQ(files, 4);
  EXPECT_FALSE(std::filesystem::exists(dir.file("backup")));
}

}  // namespace
}  // namespace keras

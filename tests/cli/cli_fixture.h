#pragma once
// The files the CLI tests run keras-cpp on, written once per test run: a small Functional
// classifier (compiled, trained one epoch, saved), the same without compile, a Sequential
// model, and .npy inputs and labels written with keras::utils::save_npy.

#include <string>

#include "cli_runner.h"
#include "keras/keras.h"
#include "keras/utils/npy.h"

namespace keras::test {

struct CliFiles {
  std::string model, uncompiled, sequential, x, y;
  Tensor x_values, y_values;
};

inline const CliFiles& cli_files() {
  static const CliFiles files = [] {
    ::setenv("COLUMNS", "300", 1);  // summary_string() as the piped subprocess sees it
    backend::clear_session();
    CliFiles f;
    f.x_values = random::uniform({64, 4}, -1.0, 1.0, DType::Float32, 7);
    // Three classes: how many of the first two features are positive (learnable by an MLP).
    std::vector<float> xv = f.x_values.to_vector<float>();
    std::vector<int64_t> labels(64);
    for (size_t i = 0; i < labels.size(); ++i)
      labels[i] = (xv[i * 4] > 0 ? 1 : 0) + (xv[i * 4 + 1] > 0 ? 1 : 0);
    f.y_values = Tensor::from_vector(labels, Shape{64});

    auto inputs = Input({4}, {.name = "features"});
    auto hidden = layers::Dense(16, {.activation = "relu", .name = "hidden"})(inputs);
    auto outputs = layers::Dense(3, {.activation = "softmax", .name = "probs"})(hidden);
    auto model = Functional(inputs, outputs, {.name = "classifier"});
    model->save(cli_path("uncompiled.keras"));
    model->compile(
        {.optimizer = "adam", .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
    model->fit(f.x_values, f.y_values, {.batch_size = 16, .epochs = 1, .verbose = 0});
    model->save(cli_path("model.keras"));

    auto seq = Sequential({Input({4}), layers::Dense(5, {.activation = "tanh"}), layers::Dense(2)});
    seq->save(cli_path("sequential.keras"));

    utils::save_npy(cli_path("x.npy"), f.x_values);
    utils::save_npy(cli_path("y.npy"), f.y_values);
    f.model = cli_path("model.keras");
    f.uncompiled = cli_path("uncompiled.keras");
    f.sequential = cli_path("sequential.keras");
    f.x = cli_path("x.npy");
    f.y = cli_path("y.npy");
    return f;
  }();
  return files;
}

}  // namespace keras::test

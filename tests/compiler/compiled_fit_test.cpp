// fit/evaluate/predict with jit_compile "true" against the same runs eagerly (Keras: eager mode
// is the semantics a compiled step must keep). The eager runs themselves are checked against
// NumPy, PyTorch and Keras by the trainer, layer and oracle suites; here every loss, metric,
// weight and prediction of the compiled run must equal them bit for bit, across MLP (Dropout,
// BatchNormalization, Adam), CNN (Conv2D, MaxPooling2D, SGD with momentum; within the bound of
// the conv-pool pass, which fuses its pair) and recurrent (Embedding, LSTM, GRU, RMSprop)
// models, with a smaller last batch.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <functional>
#include <thread>

#include "assertions.h"
#include "blas_invariance.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"

namespace keras {
namespace {

constexpr int64_t kSamples = 72;  // batches of 16, the last of 8
constexpr int64_t kBatch = 16;

struct Run {
  std::map<std::string, std::vector<double>> history;
  Logs evaluation;
  std::vector<std::vector<float>> weights;
  std::vector<float> predictions;
  int64_t train_traces = 0, train_replays = 0, predict_replays = 0;
};

using Builder = std::function<ModelPtr<>()>;

Run train(const std::string& jit, const Builder& build, const Tensor& x, const Tensor& y,
          const std::string& optimizer, const std::string& loss) {
  utils::set_random_seed(2024);
  ModelPtr<> model = build();
  model->compile({.optimizer = optimizer, .loss = loss, .metrics = {"accuracy"},
                  .jit_compile = jit});
  Run run;
  run.history = model->fit(x, y, {.batch_size = kBatch, .epochs = 4, .verbose = 0})->history;
  run.evaluation = model->evaluate(x, y, {.batch_size = kBatch, .verbose = 0});
  for (int i = 0; i < 3; ++i)
    run.predictions = model->predict(x, {.batch_size = kBatch, .verbose = 0}).single().to_vector<float>();
  for (const Tensor& w : model->get_weights()) run.weights.push_back(ops::cast(w, DType::Float32).to_vector<float>());
  if (model->train_function().defined()) {
    run.train_traces = model->train_function().tracing_count();
    run.train_replays = model->train_function().replay_count();
    run.predict_replays = model->predict_function().replay_count();
  }
  return run;
}

// Every number of `a` within rtol of `b`'s (relative to the larger of 1 and |b|); 0: equal.
template <typename V>
void expect_near(const V& a, const V& b, double rtol, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = b[i];
    EXPECT_LE(std::abs(x - y), rtol * std::max(1.0, std::abs(y))) << what << " " << i;
  }
}

// `rtol` 0: bit for bit. A model whose compiled step a pass changes the rounding of passes the
// bound that pass documents, grown over the run's steps.
void expect_same_runs(const Builder& build, const Tensor& x, const Tensor& y,
                      const std::string& optimizer, const std::string& loss, double rtol = 0) {
  Run eager = train("false", build, x, y, optimizer, loss);
  Run compiled = train("true", build, x, y, optimizer, loss);
  if (rtol == 0) {
    EXPECT_EQ(compiled.history, eager.history);
    EXPECT_EQ(compiled.evaluation, eager.evaluation);
    EXPECT_EQ(compiled.weights, eager.weights);
    EXPECT_EQ(compiled.predictions, eager.predictions);
  } else {
    ASSERT_EQ(compiled.history.size(), eager.history.size());
    for (const auto& [name, values] : eager.history)
      expect_near(compiled.history[name], values, rtol, name);
    for (const auto& [name, value] : eager.evaluation)
      expect_near(std::vector<double>{compiled.evaluation[name]}, std::vector<double>{value},
                  rtol, "evaluate " + name);
    ASSERT_EQ(compiled.weights.size(), eager.weights.size());
    for (size_t i = 0; i < eager.weights.size(); ++i)
      expect_near(compiled.weights[i], eager.weights[i], rtol, "weight " + std::to_string(i));
    expect_near(compiled.predictions, eager.predictions, rtol, "predictions");
  }
  // Two signatures (full batches and the smaller last one), each traced once; 4 epochs of 5
  // steps leave most steps replayed.
  EXPECT_EQ(compiled.train_traces, 2);
  EXPECT_GE(compiled.train_replays, 12);
  EXPECT_GE(compiled.predict_replays, 8);
  EXPECT_EQ(eager.train_traces, 0);
}

Tensor labels(int64_t classes) {
  return random::randint({kSamples}, 0, classes, DType::Int32, random::Seed(11));
}

TEST(CompiledFit, MlpWithDropoutBatchNormAndAdamEqualsEager) {
  Tensor x = random::normal({kSamples, 10}, 0.0, 1.0, std::nullopt, random::Seed(5));
  auto build = [] {
    return Sequential({Input({10}), layers::Dense(32, {.activation = "relu"}),
                       layers::BatchNormalization(), layers::Dropout(0.3),
                       layers::Dense(4, {.activation = "softmax"})});
  };
  expect_same_runs(build, x, labels(4), "adam", "sparse_categorical_crossentropy");
}

TEST(CompiledFit, CnnWithConvPoolAndMomentumEqualsEager) {
  Tensor x = random::uniform({kSamples, 8, 8, 1}, 0.0, 1.0, std::nullopt, random::Seed(6));
  auto build = [] {
    return Sequential({Input({8, 8, 1}), layers::Conv2D(6, 3, {.activation = "relu"}),
                       layers::MaxPooling2D(2), layers::Flatten(),
                       layers::Dense(3, {.activation = "softmax"})});
  };
  // The conv-pool pass fuses the Conv2D -> MaxPooling2D pair and its backward chain in the
  // compiled step (compiler/fuse_conv_pool.h): its gradients are summed in another order
  // (within 1e-6 relative), so after 4 epochs of 5 SGD steps the numbers agree within 1e-5
  // relative (accuracy too: no prediction is near a tie), not bit for bit.
  expect_same_runs(build, x, labels(3), "sgd", "sparse_categorical_crossentropy", 1e-5);
}

TEST(CompiledFit, EmbeddingLstmGruWithRmsPropEqualsEager) {
  Tensor x = random::randint({kSamples, 7}, 0, 20, DType::Int32, random::Seed(7));
  auto build = [] {
    return Sequential({Input({7}, {.dtype = DType::Int32}), layers::Embedding(20, 8),
                       layers::LSTM(12, {.return_sequences = true}), layers::GRU(6),
                       layers::Dense(2, {.activation = "softmax"})});
  };
  expect_same_runs(build, x, labels(2), "rmsprop", "sparse_categorical_crossentropy");
}

TEST(CompiledFit, AStatefulRnnRunsEagerlyWithAWarningAndTheSameNumbers) {
  // Its states are layer tensors, not variables: a replay could not carry them to the next
  // batch, so the step must not compile.
  Tensor x = random::normal({64, 5, 3}, 0.0, 1.0, std::nullopt, random::Seed(9));
  Tensor y = random::randint({64}, 0, 2, DType::Int32, random::Seed(10));
  std::vector<std::vector<double>> losses;
  std::string warning;
  for (std::string jit : {"false", "true"}) {
    utils::set_random_seed(3);
    auto model = Sequential({Input({5, 3}, {.batch_size = 16}),
                             layers::LSTM(4, {.stateful = true}),
                             layers::Dense(2, {.activation = "softmax"})});
    model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy",
                    .jit_compile = jit});
    testing::internal::CaptureStderr();
    losses.push_back(model->fit(x, y, {.batch_size = 16, .epochs = 3, .verbose = 0,
                                       .shuffle = false})->history["loss"]);
    warning = testing::internal::GetCapturedStderr();
    if (jit == "true") {
      EXPECT_EQ(model->train_function().replay_count(), 0);
      EXPECT_NE(model->train_function().fallback_reason().find("stateful RNN"), std::string::npos);
    }
  }
  EXPECT_EQ(losses[0], losses[1]);
  EXPECT_NE(warning.find("'train_step' runs eagerly"), std::string::npos) << warning;
}

TEST(CompiledPredict, RealKerasFilesPredictAsTheirEagerRuns) {
  // Files saved by Python Keras (../shared/models); their eager predictions are checked against
  // PyTorch and NumPy re-implementations in tests/saving. Loaded and never compiled, they
  // predict compiled by default (Keras's jit_compile "auto").
  const std::vector<std::pair<std::string, Shape>> files{
      {"fashion_mnist_cnn.keras", {40, 28, 28, 1}}, {"heart_functional_bn.keras", {40, 11}}};
  for (const auto& [file, shape] : files) {
    const std::string path = std::string(KERAS_SHARED_DIR) + "/models/" + file;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
    ModelPtr<Model> compiled = saving::load_model(path, {.compile = false});
    ModelPtr<Model> eager = saving::load_model(path, {.compile = false});
    eager->compile({.optimizer = "sgd", .loss = "mse", .jit_compile = "false"});
    Tensor x = random::uniform(shape, 0.0, 1.0, std::nullopt, random::Seed(12));
    for (int call = 0; call < 3; ++call) {
      Tensor got = compiled->predict(x, {.batch_size = 8, .verbose = 0}).single();
      Tensor want = eager->predict(x, {.batch_size = 8, .verbose = 0}).single();
      if (test::matmul_rows_are_invariant())  // blas_invariance.h
        EXPECT_EQ(got.to_vector<float>(), want.to_vector<float>()) << file << " call " << call;
      else
        EXPECT_TRUE(test::tensors_near(got, want, 1e-5, 1e-6)) << file << " call " << call;
    }
    EXPECT_GE(compiled->predict_function().replay_count(), 10) << file;
  }
}

TEST(CompiledPredict, ThreadsPredictingWithOneModelGetTheEagerAnswers) {
  // Thread-safe inference holds in compiled mode: calls of one signature are serialized, each
  // thread's trace records only its own calls.
  auto model = Sequential({Input({6}), layers::Dense(8, {.activation = "relu"}), layers::Dense(3)});
  auto eager = Sequential({Input({6}), layers::Dense(8, {.activation = "relu"}), layers::Dense(3)});
  eager->set_weights(model->get_weights());
  eager->compile({.optimizer = "sgd", .loss = "mse", .jit_compile = "false"});
  std::vector<Tensor> inputs;
  std::vector<std::vector<float>> expected;
  for (int i = 0; i < 4; ++i) {
    inputs.push_back(random::normal({5, 6}, 0.0, 1.0, std::nullopt, random::Seed(30 + i)));
    expected.push_back(eager->predict(inputs.back(), {.verbose = 0}).single().to_vector<float>());
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < 25; ++k) {
        const int i = (t + k) % 4;
        if (model->predict(inputs[i], {.verbose = 0}).single().to_vector<float>() != expected[i])
          ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(model->predict_function().replay_count(), 90);
}

TEST(CompiledFit, JitCompileFalseAndRunEagerlyNeverTrace) {
  Tensor x = random::normal({kSamples, 3}, 0.0, 1.0, std::nullopt, random::Seed(8));
  for (bool run_eagerly : {false, true}) {
    auto model = Sequential({Input({3}), layers::Dense(1)});
    model->compile({.optimizer = "sgd", .loss = "mse",
                    .jit_compile = run_eagerly ? "true" : "false", .run_eagerly = run_eagerly});
    model->fit(x, ops::sum(x, 1), {.batch_size = kBatch, .epochs = 2, .verbose = 0});
    EXPECT_FALSE(model->train_function().defined());
  }
}

}  // namespace
}  // namespace keras

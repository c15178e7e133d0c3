// Concurrent inference (docs/deployment.md, "Thread safety"): one model serves predict,
// predict_on_batch and model(x) from 16 threads at once, mixing batch sizes, and every result
// has the bits the same call gave on one thread before. The models: the two real Keras files of
// ../shared/models (a CNN, a Functional model with BatchNormalization) and an LSTM.
//
// The CI run is short (512 to 1024 calls per model, enough for the threads to overlap all the
// time); KERAS_CONCURRENCY_CALLS=N makes every thread do N calls per model (the deployment
// issue's full run is N=1000: 16 000 calls per model).

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <latch>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "keras/keras.h"

namespace keras {
namespace {

constexpr int kThreads = 16;
constexpr int64_t kBatchSizes[] = {1, 3, 8, 32};

enum Via { kPredict, kPredictOnBatch, kCall, kNumVias };
const char* const kViaNames[] = {"predict", "predict_on_batch", "model(x)"};
// Each thread goes through the three ways of calling in its own order.
constexpr int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

std::string model_path(const std::string& name) {
  // ../shared next to the source tree, or $KERAS_SHARED_DIR (e.g. from a git worktree).
  const char* env = std::getenv("KERAS_SHARED_DIR");
  return std::string(env ? env : KERAS_SHARED_DIR) + "/models/" + name;
}

// Calls per thread: the CI default, or KERAS_CONCURRENCY_CALLS.
int calls_per_thread(int ci_default) {
  if (const char* env = std::getenv("KERAS_CONCURRENCY_CALLS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return ci_default;
}

// KERAS_DISABLE_JIT as keras::jit reads it (compiled steps then run eagerly).
bool jit_disabled() {
  const char* v = std::getenv("KERAS_DISABLE_JIT");
  return v && *v && std::string_view(v) != "0" && std::string_view(v) != "false";
}

Tensor infer(Model& model, int via, const Tensor& x) {
  switch (via) {
    case kPredict: return model.predict(x, {.verbose = 0}).single();
    case kPredictOnBatch: return model.predict_on_batch(x).single();
    default: return model(x);
  }
}

std::vector<float> values_of(const Tensor& t) { return t.to_vector<float>(); }

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Two inputs per batch size, all with different values (two calls of one signature running at
// once must not see each other's data), of shape (batch, sample_shape...).
std::vector<Tensor> mixed_batches(const Shape& sample_shape, float low, float high) {
  std::mt19937 engine(1234);
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<Tensor> out;
  for (int copy = 0; copy < 2; ++copy)
    for (int64_t b : kBatchSizes) {
      Shape shape{b};
      for (int64_t d : sample_shape) shape.push_back(d);
      std::vector<float> values(static_cast<size_t>(shape.numel()));
      for (float& v : values) v = dist(engine);
      out.push_back(Tensor::from_vector(values, shape));
    }
  return out;
}

// The reference on this thread, then kThreads threads doing `calls` calls each on the shared
// model (every input, every way of calling, in per-thread orders), every result compared bit for
// bit with the reference.
void expect_concurrent_inference_matches(Model& model, const std::vector<Tensor>& inputs,
                                         int calls, const std::string& label) {
  // Inference writes nothing the threads share: the weights keep their tensors (not copies
  // swapped in by a compiled step) and their values.
  const std::vector<Variable> weights = model.weights();
  std::vector<Tensor> held;
  std::vector<std::vector<float>> values;
  for (const Variable& w : weights) {
    held.push_back(w.value());
    values.push_back(values_of(w.value()));
  }

  // A compiled step traces its first two calls per signature and replays from the third: the
  // reference is the replay's answer.
  std::vector<std::array<std::vector<float>, kNumVias>> reference(inputs.size());
  for (int round = 0; round < 3; ++round)
    for (size_t k = 0; k < inputs.size(); ++k)
      for (int via = 0; via < kNumVias; ++via)
        reference[k][via] = values_of(infer(model, via, inputs[k]));

  std::atomic<int64_t> mismatches{0}, failures{0}, done{0};
  std::mutex report_mutex;
  std::string first_report;
  auto report = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(report_mutex);
    if (first_report.empty()) first_report = what;
  };
  std::latch start(kThreads);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < calls; ++i) {
        const size_t k = static_cast<size_t>(i * 5 + t * 3) % inputs.size();
        const int via = kOrders[t % 6][i % 3];
        try {
          if (!same_bits(values_of(infer(model, via, inputs[k])), reference[k][via])) {
            ++mismatches;
            report(keras::detail::cat("thread ", t, " call ", i, ": ", kViaNames[via], " on ",
                                      inputs[k].shape(), " differs from the single-thread result"));
          }
        } catch (const std::exception& e) {
          ++failures;
          report(keras::detail::cat("thread ", t, " call ", i, ": ", kViaNames[via], " threw: ",
                                    e.what()));
        }
        ++done;
      }
    });
  // What only reads the model may run alongside.
  std::atomic<bool> inferring{true};
  std::thread reader([&] {
    try {
      while (inferring.load())
        if (model.get_weights().size() != weights.size() || model.count_params() <= 0 ||
            model.summary_string().empty() || model.to_json().empty()) {
          ++failures;
          report("a read of the model during inference gave nothing");
        }
    } catch (const std::exception& e) {
      ++failures;
      report(keras::detail::cat("a read of the model during inference threw: ", e.what()));
    }
  });
  for (std::thread& th : threads) th.join();
  inferring = false;
  reader.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ concurrency ] " << label << ": " << kThreads << " threads x " << calls
            << " calls in " << seconds << " s\n";
  EXPECT_EQ(done.load(), int64_t{kThreads} * calls);
  EXPECT_EQ(failures.load(), 0) << first_report;
  EXPECT_EQ(mismatches.load(), 0) << first_report;
  for (size_t i = 0; i < weights.size(); ++i) {
    EXPECT_TRUE(weights[i].value().is_same(held[i]))
        << weights[i].path() << " holds another tensor after inference";
    EXPECT_TRUE(same_bits(values_of(weights[i].value()), values[i])) << weights[i].path();
  }
}

// Compiled as the file says (jit_compile true): predict replays programs, model(x) runs eagerly.
TEST(ConcurrentInference, FashionMnistCnnFile) {
  const std::string path = model_path("fashion_mnist_cnn.keras");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = saving::load_model(path);
  ASSERT_EQ(model->compile_options().jit_compile, "true");
  expect_concurrent_inference_matches(*model, mixed_batches({28, 28, 1}, 0.0f, 1.0f),
                                      calls_per_thread(32), "fashion_mnist_cnn.keras");
  // Four batch sizes, four signatures: the copies of a program made for concurrent calls are
  // not new signatures.
  if (!jit_disabled()) {
    EXPECT_EQ(model->predict_function().tracing_count(), 4);
  }
}

// The file says jit_compile false: every call runs eagerly. Then the same model compiled.
TEST(ConcurrentInference, HeartFunctionalBatchNormFile) {
  const std::string path = model_path("heart_functional_bn.keras");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = saving::load_model(path);
  ASSERT_EQ(model->compile_options().jit_compile, "false");
  const std::vector<Tensor> inputs = mixed_batches({11}, -2.0f, 2.0f);
  expect_concurrent_inference_matches(*model, inputs, calls_per_thread(64),
                                      "heart_functional_bn.keras (eager)");
  model->compile({.optimizer = "adam", .loss = "binary_crossentropy", .jit_compile = "true"});
  expect_concurrent_inference_matches(*model, inputs, calls_per_thread(64),
                                      "heart_functional_bn.keras (compiled)");
}

// The Dense layer's activity regularizer adds a loss to the layer in every call.
TEST(ConcurrentInference, LstmSequential) {
  auto model = Sequential({
      Input({6, 4}),
      layers::LSTM(16, {.return_sequences = true}),
      layers::LSTM(8),
      layers::Dense(3, {.activation = "softmax", .activity_regularizer = "l2"}),
  });
  expect_concurrent_inference_matches(*model, mixed_batches({6, 4}, -1.0f, 1.0f),
                                      calls_per_thread(64), "LSTM Sequential");
}

// Different models share no state: one trains (shuffling, dropout, compiled steps) while 16
// threads predict with another, and it ends with the weights it gets alone.
TEST(ConcurrentInference, AnotherModelTrainsMeanwhile) {
  auto make = [] {
    return Sequential({Input({8}), layers::Dense(16, {.activation = "relu"}), layers::Dropout(0.2),
                       layers::Dense(1)});
  };
  auto served = Sequential({Input({6, 4}), layers::LSTM(8), layers::Dense(3)});
  const Tensor x = mixed_batches({8}, -1.0f, 1.0f)[3];  // 32 samples
  const Tensor y = ops::sum(x, -1, true);
  const FitOptions fit{.batch_size = 8, .epochs = 150, .verbose = 0};
  utils::set_random_seed(5);
  auto alone = make();
  alone->compile({.optimizer = "adam", .loss = "mse"});
  alone->fit(x, y, fit);
  utils::set_random_seed(5);
  auto trained = make();
  trained->compile({.optimizer = "adam", .loss = "mse"});
  std::thread trainer([&] { trained->fit(x, y, fit); });
  expect_concurrent_inference_matches(*served, mixed_batches({6, 4}, -1.0f, 1.0f),
                                      calls_per_thread(32), "LSTM while another model trains");
  trainer.join();
  const std::vector<Tensor> expected = alone->get_weights(), got = trained->get_weights();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(same_bits(values_of(got[i]), values_of(expected[i]))) << "weight " << i;
}

// The first calls of a model with no Input build it (its layers' weights) on whichever thread
// comes first; the others wait for that build and use the same weights.
TEST(ConcurrentInference, AnUnbuiltModelBuildsOnce) {
  auto model = Sequential({layers::LSTM(8), layers::Dense(3)});
  ASSERT_FALSE(model->built());
  const Tensor x = mixed_batches({5, 3}, -1.0f, 1.0f)[2];
  std::vector<std::vector<float>> results(kThreads);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      results[static_cast<size_t>(t)] = values_of((*model)(x));
    });
  for (std::thread& th : threads) th.join();
  // LSTM: kernel, recurrent kernel, bias; Dense: kernel, bias.
  EXPECT_EQ(model->weights().size(), 5u);
  const std::vector<float> after = values_of((*model)(x));
  for (int t = 0; t < kThreads; ++t)
    EXPECT_TRUE(same_bits(results[static_cast<size_t>(t)], after)) << "thread " << t;
}

// predict draws no random seed: the global generator (set_random_seed) gives the same numbers
// after it as without it.
TEST(ConcurrentInference, PredictLeavesTheGlobalGeneratorAlone) {
  auto model = Sequential({Input({4}), layers::Dense(2)});
  const Tensor x = mixed_batches({4}, -1.0f, 1.0f)[3];
  utils::set_random_seed(11);
  const std::vector<float> expected = values_of(random::uniform({8}));
  utils::set_random_seed(11);
  model->predict(x, {.verbose = 0});
  model->predict_on_batch(x);
  (*model)(x);
  EXPECT_TRUE(same_bits(values_of(random::uniform({8})), expected));
}

}  // namespace
}  // namespace keras

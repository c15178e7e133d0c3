// SIGINT during fit: the running batch finishes (its on_train_batch_end too, so a checkpoint
// written there is complete), fit throws KeyboardInterrupt without on_train_end (as Python's
// KeyboardInterrupt leaves Keras's fit), a second SIGINT goes to the handler that was there
// before, which fit restores when it returns; an ignored SIGINT stays ignored.

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "keras/core/runtime_errors.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace fs = std::filesystem;

std::atomic<int> user_calls{0};
void user_handler(int) {
  ++user_calls;
}

// Installs `handler` for SIGINT for the test's duration, then puts back what was there.
class SigintHandler {
 public:
  explicit SigintHandler(void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &saved_);
  }
  ~SigintHandler() { sigaction(SIGINT, &saved_, nullptr); }

 private:
  struct sigaction saved_ {};
};

void (*current_handler())(int) {
  struct sigaction now {};
  sigaction(SIGINT, nullptr, &now);
  return now.sa_handler;
}

struct FitRun {
  ModelPtr<SequentialModel> model;
  std::vector<std::string> events;
  int epoch = 0;
};

// fit for 3 epochs of 4 batches; `on_batch(epoch, batch)` runs after each batch's checkpoint.
std::string fit_with(FitRun& run, const std::string& checkpoint,
                     const std::function<void(int, int64_t)>& on_batch) {
  backend::clear_session();
  run.model = Sequential({Input({3}), layers::Dense(2)});
  run.model->compile({.optimizer = "sgd", .loss = "mse"});
  auto ckpt = std::make_shared<callbacks::ModelCheckpoint>(
      checkpoint, callbacks::ModelCheckpointOptions{.save_weights_only = true, .save_freq = 1});
  auto spy = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_begin = [&](int e, const Logs&) { run.epoch = e; },
      .on_train_end = [&](const Logs&) { run.events.push_back("train_end"); },
      .on_train_batch_end =
          [&](int64_t b, const Logs&) {
            run.events.push_back(std::to_string(run.epoch) + ":" + std::to_string(b));
            on_batch(run.epoch, b);
          },
  });
  try {
    run.model->fit(ops::ones({16, 3}), ops::zeros({16, 2}),
                   {.batch_size = 4, .epochs = 3, .verbose = 0, .callbacks = {ckpt, spy}});
  } catch (const KeyboardInterrupt& e) {
    return e.what();
  }
  return "";
}

std::string temp_file(const std::string& name) {
  return (fs::temp_directory_path() /
          ("keras_interrupt_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(Interrupt, SigintStopsAfterTheBatchWithACompleteCheckpoint) {
  SigintHandler user(user_handler);
  user_calls = 0;
  const std::string ckpt = temp_file("a.weights.h5");
  FitRun run;
  std::string what = fit_with(run, ckpt, [](int epoch, int64_t batch) {
    if (epoch == 1 && batch == 1) ::raise(SIGINT);
  });
  EXPECT_NE(what.find("after batch 2 of epoch 2"), std::string::npos) << what;
  EXPECT_EQ(run.events, (std::vector<std::string>{"0:0", "0:1", "0:2", "0:3", "1:0", "1:1"}));
  EXPECT_EQ(user_calls, 0);  // fit took it
  EXPECT_EQ(current_handler(), &user_handler);
  ::raise(SIGINT);
  EXPECT_EQ(user_calls, 1);
  // The checkpoint of the last batch is complete and holds the model's weights.
  auto fresh = Sequential({Input({3}), layers::Dense(2)});
  fresh->load_weights(ckpt);
  auto a = run.model->get_weights(), b = fresh->get_weights();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].to_vector<float>(), b[i].to_vector<float>());
  fs::remove(ckpt);
}

TEST(Interrupt, ASecondSigintGoesToThePreviousHandler) {
  SigintHandler user(user_handler);
  user_calls = 0;
  const std::string ckpt = temp_file("b.weights.h5");
  FitRun run;
  std::string what = fit_with(run, ckpt, [](int epoch, int64_t batch) {
    if (epoch == 0 && batch == 2) {
      ::raise(SIGINT);
      ::raise(SIGINT);
    }
  });
  EXPECT_NE(what.find("after batch 3 of epoch 1"), std::string::npos) << what;
  EXPECT_EQ(user_calls, 1);
  EXPECT_EQ(run.events.back(), "0:2");
  fs::remove(ckpt);
}

TEST(Interrupt, AnIgnoredSigintStaysIgnoredAndAPlainFitRestoresTheHandler) {
  const std::string ckpt = temp_file("c.weights.h5");
  {
    SigintHandler ignore(SIG_IGN);
    FitRun run;
    EXPECT_EQ(fit_with(run, ckpt,
                       [](int, int64_t batch) {
                         if (batch == 0) ::raise(SIGINT);
                       }),
              "");
    EXPECT_EQ(run.events.size(), 13u);  // 12 batches and train_end
    EXPECT_EQ(current_handler(), SIG_IGN);
  }
  SigintHandler user(user_handler);
  FitRun run;
  EXPECT_EQ(fit_with(run, ckpt, [](int, int64_t) {}), "");
  EXPECT_EQ(run.events.back(), "train_end");
  EXPECT_EQ(current_handler(), &user_handler);
  fs::remove(ckpt);
}

}  // namespace
}  // namespace keras

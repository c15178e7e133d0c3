// Programs launched as one recording (backend/capture.h), on the device emulator, which records
// as CUDA stream capture does: a recorded call keeps the addresses and scalars it was made with.
// So a replay that left an input where the recording does not read it, or a variable that moved
// without a new recording, gives wrong numbers here. Each step is checked against the same
// arithmetic on the host in double, over calls with new inputs each time.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <thread>
#include <vector>

#include "device_emulator.h"
#include "keras/backend/registry.h"
#include "program_helpers.h"

namespace keras {
namespace {

using test_compiler::compile;
using test_compiler::random_floats;
using testing::kDeviceEmulator;

Tensor on_device(const std::vector<float>& values, const Shape& shape) {
  testing::register_device_emulator();
  return Tensor::from_vector(values, shape).to(kDeviceEmulator);
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want,
                 const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << what << " element " << i;
}

// One step of gradient descent on least squares, y ~ x w + b, with the gradients written out.
struct LeastSquaresStep {
  static constexpr int64_t n = 32, d = 5;
  static constexpr double lr = 0.05;
  Variable w{on_device(random_floats(d, 1, -1, 1), {d, 1})};
  Variable b{on_device({0.25f}, {1})};

  TensorList operator()(const TensorList& in) {
    const Tensor err = ops::subtract(ops::add(ops::matmul(in[0], w.value()), b.value()), in[1]);
    const Tensor gw = ops::multiply(ops::matmul(ops::transpose(in[0]), err), 2.0 / n);
    const Tensor gb = ops::multiply(ops::sum(err, ops::Axes({0})), 2.0 / n);
    w.assign_sub(ops::multiply(gw, lr));
    b.assign_sub(ops::multiply(gb, lr));
    return {ops::mean(ops::square(err))};
  }

  // The same step on the host in double: updates `hw` and `hb`, returns the loss.
  static double on_host(const std::vector<float>& x, const std::vector<float>& y,
                        std::vector<double>& hw, double& hb) {
    std::vector<double> err(n);
    double loss = 0;
    for (int64_t i = 0; i < n; ++i) {
      double p = hb;
      for (int64_t j = 0; j < d; ++j) p += x[i * d + j] * hw[j];
      err[i] = p - y[i];
      loss += err[i] * err[i] / n;
    }
    for (int64_t j = 0; j < d; ++j) {
      double g = 0;
      for (int64_t i = 0; i < n; ++i) g += x[i * d + j] * err[i];
      hw[j] -= lr * 2.0 / n * g;
    }
    double gb = 0;
    for (double e : err) gb += e;
    hb -= lr * 2.0 / n * gb;
    return loss;
  }
};

struct Batch {
  std::vector<float> x, y;
  explicit Batch(uint32_t seed)
      : x(random_floats(LeastSquaresStep::n * LeastSquaresStep::d, seed, -1, 1)),
        y(random_floats(LeastSquaresStep::n, seed + 1000, -2, 2)) {}
  TensorList tensors() const {
    return {on_device(x, {LeastSquaresStep::n, LeastSquaresStep::d}),
            on_device(y, {LeastSquaresStep::n, 1})};
  }
};

// Replays `calls` steps with new batches and checks each loss and the variables against the
// host, starting from the variables' current values.
void replay_and_check(compiler::detail::Program& program, LeastSquaresStep& step, int calls,
                      uint32_t seed) {
  std::vector<double> hw = step.w.value().to_vector<double>();
  double hb = step.b.value().to_vector<double>()[0];
  for (int call = 0; call < calls; ++call) {
    SCOPED_TRACE(::testing::Message() << "call " << call);
    const Batch batch(seed + call);
    const double loss = LeastSquaresStep::on_host(batch.x, batch.y, hw, hb);
    const TensorList out = program.replay(batch.tensors());
    expect_near(out[0].to_vector<double>(), {loss}, "loss");
    expect_near(step.w.value().to_vector<double>(), hw, "w");
    expect_near(step.b.value().to_vector<double>(), {hb}, "b");
  }
}

TEST(RecordedReplay, ATrainingStepIsRecordedOnceAndLaunchedWithNewInputs) {
  LeastSquaresStep step;
  auto program = compile(std::ref(step), Batch(1).tensors());
  EXPECT_EQ(program->stats().graph_problem, "");
  replay_and_check(*program, step, 6, 10);
  // The first replay runs call by call (warming what cannot be recorded), the second records.
  EXPECT_EQ(program->stats().graph_captures, 1u);
  EXPECT_EQ(program->stats().graph_launches, 5u);
}

TEST(RecordedReplay, AVariableThatMovedIsRecordedAgain) {
  LeastSquaresStep step;
  auto program = compile(std::ref(step), Batch(1).tensors());
  replay_and_check(*program, step, 3, 20);
  // An assign of a new value from outside the step: the variable's memory may move.
  const Tensor held = step.w.value();  // holding the old value makes the step copy on write
  step.w.assign(on_device(random_floats(LeastSquaresStep::d, 7, -1, 1), {LeastSquaresStep::d, 1}));
  replay_and_check(*program, step, 4, 30);
  EXPECT_GE(program->stats().graph_captures, 2u);
  EXPECT_GE(program->stats().graph_launches, 4u);
  EXPECT_EQ(program->stats().graph_problem, "");
}

TEST(RecordedReplay, AFailedRecordingFallsBackToCallByCallReplays) {
  LeastSquaresStep step;
  auto program = compile(std::ref(step), Batch(1).tensors());
  testing::fail_next_recording();
  replay_and_check(*program, step, 4, 40);
  EXPECT_EQ(program->stats().graph_captures, 0u);
  EXPECT_EQ(program->stats().graph_launches, 0u);
  EXPECT_NE(program->stats().graph_problem.find("told to fail"), std::string::npos)
      << program->stats().graph_problem;
}

// Dropout's draws in a recording: the key of each draw is written to device memory before each
// launch, so a launch draws what an eager call would have drawn from the same generator.
TEST(RecordedReplay, RandomDrawsReadTheirKeysAtEachLaunch) {
  testing::register_device_emulator();
  backend::BackendScope scope(kDeviceEmulator);  // where the draws go
  random::SeedGenerator compiled_gen(5), eager_gen(5);
  auto step = [&](const TensorList& in) {
    const Tensor u = random::uniform({4}, 0.0, 1.0, std::nullopt, compiled_gen);
    const Tensor z = random::normal({3}, 0.0, 1.0, std::nullopt, compiled_gen);
    return TensorList{ops::add(in[0], u), z};
  };
  auto program = compile(step, {on_device({1, 2, 3, 4}, {4})});
  (void)random::uniform({4}, 0.0, 1.0, std::nullopt, eager_gen);  // the traced call's draws
  (void)random::normal({3}, 0.0, 1.0, std::nullopt, eager_gen);
  EXPECT_EQ(program->stats().graph_problem, "");
  for (int call = 0; call < 5; ++call) {
    SCOPED_TRACE(::testing::Message() << "call " << call);
    const std::vector<float> x = random_floats(4, 60 + call, -1, 1);
    const TensorList out = program->replay({on_device(x, {4})});
    const Tensor u = random::uniform({4}, 0.0, 1.0, std::nullopt, eager_gen);
    const Tensor z = random::normal({3}, 0.0, 1.0, std::nullopt, eager_gen);
    EXPECT_EQ(out[0].to_vector<float>(), ops::add(on_device(x, {4}), u).to_vector<float>());
    EXPECT_EQ(out[1].to_vector<float>(), z.to_vector<float>());
  }
  EXPECT_EQ(program->stats().graph_launches, 4u);
  EXPECT_EQ(compiled_gen.counter(), eager_gen.counter());
}

// A guard (here the label range check of sparse_categorical_crossentropy) reads this call's
// inputs on the host, so it runs before each launch, with the calls it reads from.
TEST(RecordedReplay, GuardsCheckEveryLaunchBeforeTheStepChangesAnything) {
  constexpr int64_t n = 6, classes = 3;
  Variable total{on_device({0}, {1})};
  auto step = [&](const TensorList& in) {
    const Tensor loss = ops::mean(ops::sparse_categorical_crossentropy(in[1], in[0], true));
    total.assign_add(ops::reshape(loss, {1}));
    return TensorList{loss};
  };
  auto labels_on_device = [](const std::vector<int32_t>& v) {
    return Tensor::from_vector(v, {static_cast<int64_t>(v.size())}).to(kDeviceEmulator);
  };
  auto program = compile(step, {on_device(random_floats(n * classes, 1, -2, 2), {n, classes}),
                                labels_on_device({0, 1, 2, 0, 1, 2})});
  EXPECT_EQ(program->stats().graph_problem, "");
  double host_total = total.value().to_vector<double>()[0];
  for (int call = 0; call < 5; ++call) {
    SCOPED_TRACE(::testing::Message() << "call " << call);
    const std::vector<float> logits = random_floats(n * classes, 50 + call, -2, 2);
    std::vector<int32_t> labels(n);
    double loss = 0;
    for (int64_t i = 0; i < n; ++i) {
      labels[i] = static_cast<int32_t>((i * 7 + call) % classes);
      double sum = 0;
      for (int64_t c = 0; c < classes; ++c) sum += std::exp(double(logits[i * classes + c]));
      loss += (std::log(sum) - logits[i * classes + labels[i]]) / n;
    }
    host_total += loss;
    const TensorList out =
        program->replay({on_device(logits, {n, classes}), labels_on_device(labels)});
    expect_near(out[0].to_vector<double>(), {loss}, "loss");
    expect_near(total.value().to_vector<double>(), {host_total}, "total");
  }
  EXPECT_GE(program->stats().graph_launches, 3u);
  // A label out of range fails the call before the launch: the variable keeps its value.
  EXPECT_THROW(program->replay({on_device(random_floats(n * classes, 9, -2, 2), {n, classes}),
                                labels_on_device({0, 1, 3, 0, 1, 2})}),
               IndexError);
  expect_near(total.value().to_vector<double>(), {host_total}, "total after the failed call");
}

// Inference replays run at the same time on their own copies of a program, each recording its
// own; recordings on one backend are made one at a time.
TEST(RecordedReplay, ConcurrentInferenceRecordsPerProgramAndStaysRight) {
  constexpr int64_t n = 8, d = 4;
  const std::vector<float> wv = random_floats(d, 3, -1, 1);
  Variable w{on_device(wv, {d, 1})};
  const CompiledFunction predict =
      jit([&](const TensorList& in) { return TensorList{ops::matmul(in[0], w.value())}; });
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int call = 0; call < 12; ++call) {
        const std::vector<float> x = random_floats(n * d, 100 * t + call, -1, 1);
        const std::vector<double> got = predict({on_device(x, {n, d})})[0].to_vector<double>();
        for (int64_t i = 0; i < n; ++i) {
          double want = 0;
          for (int64_t j = 0; j < d; ++j) want += double(x[i * d + j]) * wv[j];
          wrong[t] += std::abs(got[i] - want) > 1e-5 ? 1 : 0;
        }
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
  EXPECT_GT(predict.replay_count(), 0);
}

}  // namespace
}  // namespace keras

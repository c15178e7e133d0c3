// keras::jit on plain functions: replayed results against values computed on the host here
// (independent of keras-cpp's ops), the signature cache, variables updated in place, random
// draws continuing their generator, guards, the eager fallback, and what the passes remove.

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "compiler/fuse_elementwise.h"
#include "compiler/program.h"
#include "keras/keras.h"

namespace keras {
namespace {

Tensor vec(std::vector<float> v, Shape shape) { return Tensor::from_vector(v, shape); }

// relu(x @ w + b) on the host, row by row.
std::vector<float> dense_relu(const std::vector<float>& x, const std::vector<float>& w,
                              const std::vector<float>& b, int64_t n, int64_t k, int64_t m) {
  std::vector<float> out(n * m);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      float acc = b[j];
      for (int64_t t = 0; t < k; ++t) acc += x[i * k + t] * w[t * m + j];
      out[i * m + j] = std::max(acc, 0.0f);
    }
  return out;
}

TEST(Jit, ReplaysAPureFunctionAndTracesOncePerSignature) {
  const std::vector<float> w = {0.5f, -1.0f, 0.25f, 2.0f, -0.5f, 1.5f};  // (3, 2)
  const std::vector<float> b = {0.1f, -0.2f};
  Tensor wt = vec(w, {3, 2}), bt = vec(b, {2});
  auto f = jit([&](const TensorList& in) {
    return TensorList{ops::relu(ops::add(ops::matmul(in[0], wt), bt))};
  });
  for (int call = 0; call < 6; ++call) {
    std::vector<float> x = {float(call), 1.0f, -2.0f, 0.5f, float(-call), 3.0f};  // (2, 3)
    Tensor y = f({vec(x, {2, 3})})[0];
    EXPECT_EQ(y.to_vector<float>(), dense_relu(x, w, b, 2, 3, 2)) << "call " << call;
  }
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(f.replay_count(), 4);  // two traced calls, then replays
  f({vec(std::vector<float>(12, 1.0f), {4, 3})});
  EXPECT_EQ(f.tracing_count(), 2) << "a new shape is a new signature";
  f({vec(std::vector<float>(6, 1.0f), {2, 3})});
  EXPECT_EQ(f.tracing_count(), 2) << "the first signature is still compiled";
  EXPECT_TRUE(f.fallback_reason().empty());
}

TEST(Jit, ManySignaturesKeepABoundedCacheAndStayCorrect) {
  // A caller with ever new shapes (a server predicting any batch size): old programs are
  // dropped, least recently used first, and a dropped signature traces again.
  auto f = jit([](const TensorList& in) { return TensorList{ops::add(in[0], 1.0)}; });
  for (int round = 0; round < 2; ++round)
    for (int64_t n = 1; n <= 40; ++n)
      for (int call = 0; call < 3; ++call) {
        Tensor y = f({ops::ones({n})})[0];
        ASSERT_EQ(y.to_vector<float>(), std::vector<float>(n, 2.0f)) << n;
      }
  EXPECT_EQ(f.tracing_count(), 80);  // 40 signatures, each traced again in the second round
  EXPECT_EQ(f.replay_count(), 80);
}

TEST(Jit, ReplayedResultsAreFreshTensors) {
  auto f = jit([](const TensorList& in) { return TensorList{ops::multiply(in[0], 2.0)}; });
  std::vector<Tensor> kept;
  for (int call = 0; call < 5; ++call) kept.push_back(f({vec({float(call)}, {1})})[0]);
  for (int call = 0; call < 5; ++call)
    EXPECT_EQ(kept[call].to_vector<float>(), std::vector<float>{2.0f * call});
}

TEST(Jit, VariablesAreUpdatedInPlaceAcrossReplays) {
  Variable acc(ops::zeros({3}));
  auto f = jit([&](const TensorList& in) {
    acc.assign_add(ops::square(in[0]));
    return TensorList{ops::sum(acc.value())};
  });
  std::vector<float> expected(3, 0.0f);
  for (int call = 1; call <= 7; ++call) {
    std::vector<float> x = {float(call), -1.0f, 0.5f * call};
    for (int i = 0; i < 3; ++i) expected[i] += x[i] * x[i];
    Tensor total = f({vec(x, {3})})[0];
    EXPECT_FLOAT_EQ(total.item<float>(), expected[0] + expected[1] + expected[2]);
  }
  EXPECT_EQ(acc.value().to_vector<float>(), expected);
  EXPECT_EQ(f.replay_count(), 5);
}

TEST(Jit, AHeldValueKeepsItsNumbersAsEagerCopyOnWriteDoes) {
  Variable v(ops::zeros({2}));
  auto f = jit([&](const TensorList& in) {
    v.assign_add(in[0]);
    return TensorList{};
  });
  for (int i = 0; i < 3; ++i) f({vec({1.0f, 1.0f}, {2})});
  Tensor held = v.value();  // a user keeps the value across the next replay
  f({vec({1.0f, 1.0f}, {2})});
  EXPECT_EQ(held.to_vector<float>(), (std::vector<float>{3.0f, 3.0f}));
  EXPECT_EQ(v.value().to_vector<float>(), (std::vector<float>{4.0f, 4.0f}));
  f({vec({1.0f, 1.0f}, {2})});
  EXPECT_EQ(v.value().to_vector<float>(), (std::vector<float>{5.0f, 5.0f}));
}

TEST(Jit, InputsAreReadInPlaceOrCopiedAsTheirLayoutAllows) {
  // A replay reads a contiguous input where the caller keeps it; a strided view, or a
  // variable's own memory that the step assigns, is copied in first.
  Variable v(vec({1.0f, 2.0f}, {2}));
  auto f = jit([&](const TensorList& in) {
    v.assign_add(in[0]);
    return TensorList{ops::multiply(in[0], 10.0)};
  });
  std::vector<float> expected = {1.0f, 2.0f};
  for (int call = 0; call < 6; ++call) {
    Tensor x;
    if (call % 3 == 0) x = vec({float(call), 1.0f}, {2});
    if (call % 3 == 1) x = vec({float(call), 0.0f, 1.0f, 0.0f}, {4}).slice({{0, 4, 2}});  // strided
    if (call % 3 == 2) x = v.value();  // the memory the step writes
    const std::vector<float> xs = x.to_vector<float>();
    const std::vector<float> y = f({x})[0].to_vector<float>();
    EXPECT_EQ(y, (std::vector<float>{10 * xs[0], 10 * xs[1]})) << "call " << call;
    expected = {expected[0] + xs[0], expected[1] + xs[1]};
    EXPECT_EQ(v.value().to_vector<float>(), expected) << "call " << call;
  }
  EXPECT_EQ(f.replay_count(), 4);
}

TEST(Jit, AnEagerAssignBetweenReplaysIsSeen) {
  Variable v(ops::zeros({2}));
  auto f = jit([&](const TensorList& in) {
    v.assign_add(in[0]);
    return TensorList{v.value()};
  });
  for (int i = 0; i < 4; ++i) f({vec({1.0f, 2.0f}, {2})});
  v.assign(vec({10.0f, 20.0f}, {2}));
  EXPECT_EQ(f({vec({1.0f, 2.0f}, {2})})[0].to_vector<float>(), (std::vector<float>{11.0f, 22.0f}));
}

TEST(Jit, RandomDrawsContinueTheirGeneratorAsEagerCallsWould) {
  random::SeedGenerator compiled_gen(1234), eager_gen(1234);
  auto f = jit([&](const TensorList& in) {
    return TensorList{ops::add(in[0], random::uniform({4}, 0.0, 1.0, std::nullopt, compiled_gen))};
  });
  for (int call = 0; call < 6; ++call) {
    Tensor x = vec({1, 2, 3, 4}, {4});
    Tensor expected = ops::add(x, random::uniform({4}, 0.0, 1.0, std::nullopt, eager_gen));
    EXPECT_EQ(f({x})[0].to_vector<float>(), expected.to_vector<float>()) << "call " << call;
  }
  EXPECT_EQ(f.replay_count(), 4);
  EXPECT_EQ(compiled_gen.counter(), eager_gen.counter());
}

TEST(Jit, AHostBranchRunsEagerlyWithOneWarningNamingTheReason) {
  auto f = jit(
      [](const TensorList& in) {
        // Data-dependent control flow on the host: not replayable.
        const bool positive = ops::sum(in[0]).item<float>() > 0;
        return TensorList{positive ? ops::multiply(in[0], 2.0) : ops::negative(in[0])};
      },
      "branchy");
  testing::internal::CaptureStderr();
  std::vector<float> outs;
  for (float s : {1.0f, -1.0f, 2.0f, -3.0f}) outs.push_back(f({vec({s}, {1})})[0].item<float>());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(outs, (std::vector<float>{2.0f, 1.0f, 4.0f, 3.0f}));
  EXPECT_NE(err.find("'branchy' runs eagerly"), std::string::npos) << err;
  EXPECT_NE(f.fallback_reason().find("on the host"), std::string::npos) << f.fallback_reason();
  EXPECT_EQ(f.replay_count(), 0);
  // One warning, not one per call.
  EXPECT_EQ(err.find("runs eagerly"), err.rfind("runs eagerly"));
}

TEST(Jit, AGuardChecksEveryReplaysInputs) {
  auto embedding = layers::Embedding(5, 2);
  auto f = jit([&](const TensorList& in) { return TensorList{(*embedding)(in[0])}; });
  // The first call builds the layer (not traced), two traces, then replays.
  for (int i = 0; i < 5; ++i) f({Tensor::from_vector(std::vector<int32_t>{0, 4, 2}, {3})});
  EXPECT_EQ(f.replay_count(), 2);
  EXPECT_THROW(f({Tensor::from_vector(std::vector<int32_t>{0, 5, 2}, {3})}), ValueError);
  EXPECT_THROW(f({Tensor::from_vector(std::vector<int32_t>{-1, 1, 2}, {3})}), ValueError);
  EXPECT_TRUE(f.fallback_reason().empty());
}

TEST(Jit, InsideAnotherTraceTheFunctionIsPartOfTheOuterProgram) {
  auto inner = jit([](const TensorList& in) { return TensorList{ops::exp(in[0])}; });
  auto outer = jit([&](const TensorList& in) { return TensorList{ops::add(inner(in)[0], 1.0)}; });
  for (int i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(outer({vec({0.5f}, {1})})[0].item<float>(), std::exp(0.5f) + 1.0f);
  EXPECT_EQ(outer.replay_count(), 2);
  EXPECT_EQ(inner.tracing_count(), 0);
}

TEST(Jit, AnExceptionWhileTracingPropagatesAndLeavesNoTrace) {
  int calls = 0;
  auto f = jit([&](const TensorList& in) {
    if (++calls == 1) throw ValueError("first call fails");
    return TensorList{ops::add(in[0], 1.0)};
  });
  EXPECT_THROW(f({vec({1.0f}, {1})}), ValueError);
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(f({vec({1.0f}, {1})})[0].item<float>(), 2.0f);
  EXPECT_EQ(f.replay_count(), 1);
  EXPECT_EQ(backend::detail::active_traces.load(), 0);
}

TEST(Jit, AStatelessTrainingStepCompilesAndTrainsAsFitDoes) {
  // jax.jit's favourite shape: a pure step over (x, y, weights, optimizer state) that returns
  // the new weights and state. The variables it swaps values into are not its state.
  auto make = [] {
    utils::set_random_seed(21);
    return Sequential({Input({4}), layers::Dense(3, {.activation = "tanh"}), layers::Dense(1)});
  };
  Tensor x = random::normal({32, 4}, 0.0, 1.0, std::nullopt, random::Seed(1));
  Tensor y = random::normal({32, 1}, 0.0, 1.0, std::nullopt, random::Seed(2));
  auto fitted = make();
  fitted->compile({.optimizer = "adam", .loss = "mse", .jit_compile = "false"});
  fitted->fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0, .shuffle = false});

  auto model = make();
  auto opt = optimizers::get("adam");
  opt->build(model->trainable_weights());
  const size_t n_weights = model->trainable_weights().size();
  losses::MeanSquaredError mse;
  auto step = jit([&](const TensorList& in) {  // x, y, weights..., optimizer variables...
    TensorList weights(in.begin() + 2, in.begin() + 2 + static_cast<std::ptrdiff_t>(n_weights));
    TensorList state(in.begin() + 2 + static_cast<std::ptrdiff_t>(n_weights), in.end());
    auto [loss, grads] = value_and_grad(
        [&](const std::vector<Tensor>& tv) {
          return mse(in[1], model->stateless_call(tv, {}, {in[0]}).outputs[0]);
        },
        weights);
    auto [new_weights, new_state] = opt->stateless_apply(state, grads, weights);
    TensorList out = new_weights;
    out.insert(out.end(), new_state.begin(), new_state.end());
    return out;
  });
  TensorList weights = model->get_weights(), state;
  for (const Variable& v : opt->variables()) state.push_back(v.value());
  for (int epoch = 0; epoch < 2; ++epoch)
    for (int64_t s = 0; s < 32; s += 8) {
      TensorList in{x.slice({{s, s + 8}}), y.slice({{s, s + 8}})};
      in.insert(in.end(), weights.begin(), weights.end());
      in.insert(in.end(), state.begin(), state.end());
      TensorList out = step(in);
      weights.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n_weights));
      state.assign(out.begin() + static_cast<std::ptrdiff_t>(n_weights), out.end());
    }
  EXPECT_EQ(step.replay_count(), 6);
  auto expected = fitted->get_weights();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(weights[i].to_vector<float>(), expected[i].to_vector<float>()) << i;
  // The model's own variables were never its state: still the initial values.
  EXPECT_EQ(model->get_weights()[0].to_vector<float>(), make()->get_weights()[0].to_vector<float>());
}

TEST(JitPasses, ConstantsFoldDeadWorkGoesAndTheArenaReusesBuffers) {
  using compiler::detail::Program;
  using compiler::detail::Trace;
  // Without elementwise fusion, which would make the chain's temporaries vanish from the arena
  // (fusion_test.cpp checks that).
  compiler::detail::ElementwiseFusionOff no_fusion;
  Tensor x0 = vec({1, 2, 3, 4}, {4});
  auto trace = std::make_unique<Trace>(TensorList{x0});
  // A constant chain (folded), a dead branch (removed) and a chain of temporaries (planned).
  Tensor c = ops::exp(ops::full({4}, 0.5));
  Tensor unused = ops::sin(trace->inputs[0]);
  Tensor y = trace->inputs[0];
  for (int i = 0; i < 6; ++i) y = ops::add(ops::multiply(y, c), 1.0);
  trace->stop();
  trace->set_outputs({y});
  const std::vector<float> traced = y.to_vector<float>();
  unused = Tensor();
  y = Tensor();
  Program program(std::move(trace));
  EXPECT_GE(program.stats().folded_calls, 2u);
  EXPECT_GE(program.stats().dead_calls, 1u);
  EXPECT_LT(program.stats().arena_bytes, program.stats().traced_bytes);
  EXPECT_EQ(program.replay({x0})[0].to_vector<float>(), traced);
}

}  // namespace
}  // namespace keras

namespace keras {
namespace {

// jax.grad(jax.jit(f)): a compiled function called under value_and_grad gives its results'
// gradients (it runs eagerly there), before and after it has compiled; by hand: d/dw sum(
// (x w)^2) = 2 x^2 w.
TEST(Jit, AGradientThroughACompiledFunction) {
  Variable w(Tensor::from_vector(std::vector<float>{1.5f, -0.5f}, {2}));
  auto f = jit([&](const TensorList& in) {
    return TensorList{ops::sum(ops::square(ops::multiply(in[0], w.value())))};
  });
  const Tensor x = Tensor::from_vector(std::vector<float>{2.0f, 3.0f}, {2});
  for (int round = 0; round < 4; ++round) {
    auto [loss, grads] = value_and_grad([&] { return f({x})[0]; }, {w});
    EXPECT_FLOAT_EQ(loss.item<float>(), 4.0f * 1.5f * 1.5f + 9.0f * 0.25f);
    EXPECT_EQ(grads[0].to_vector<float>(), (std::vector<float>{2 * 4.0f * 1.5f, 2 * 9.0f * -0.5f}))
        << "round " << round;
    for (int i = 0; i < 3; ++i) f({x});  // compiled and replayed between the gradients
  }
  EXPECT_GE(f.replay_count(), 1);
}

}  // namespace
}  // namespace keras

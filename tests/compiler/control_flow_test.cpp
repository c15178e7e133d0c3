// ops::cond, switch_ and while_loop under keras::jit: recorded once as branches and loops, then
// replayed with the way taken chosen by each call's values. Every result is checked against the
// same computation written as a plain C++ loop over host values here, and every test checks
// that the calls really replayed (a silent eager fallback would also give right numbers).

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "keras/keras.h"

namespace keras {
namespace {

Tensor vec(std::vector<float> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::from_vector(v, {n});
}

Tensor scalar_i32(int32_t v) { return Tensor::from_vector(std::vector<int32_t>{v}, Shape{}); }

// A jitted function must have replayed at least `replays` calls and never given up.
void expect_compiled(const CompiledFunction& f, int64_t replays) {
  EXPECT_TRUE(f.fallback_reason().empty()) << f.fallback_reason();
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_GE(f.replay_count(), replays);
}

TEST(TracedControlFlow, CondTakesTheBranchEachCallsValuesSay) {
  auto f = jit([](const TensorList& in) {
    const Tensor& x = in[0];
    return TensorList{ops::cond(
        ops::greater(ops::sum(x), 0.0f), [&] { return ops::multiply(x, 2.0f); },
        [&] { return ops::subtract(ops::square(x), 1.0f); })};
  });
  // Alternate from the first call: the two traces see different branches taken.
  for (int call = 0; call < 8; ++call) {
    const float s = call % 2 == 0 ? 1.0f : -1.0f;
    const std::vector<float> x = {s * 1.5f, s * 0.25f, float(call)};
    const float sum = x[0] + x[1] + x[2];
    std::vector<float> expected;
    for (float v : x) expected.push_back(sum > 0 ? v * 2.0f : v * v - 1.0f);
    EXPECT_EQ(f({vec(x)})[0].to_vector<float>(), expected) << "call " << call;
  }
  expect_compiled(f, 6);
}

// The Collatz sequence: a trip count only the values know.
int32_t collatz_steps(int32_t n) {
  int32_t steps = 0;
  while (n > 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    ++steps;
  }
  return steps;
}

TEST(TracedControlFlow, WhileLoopRunsAsManyIterationsAsTheValuesSay) {
  auto f = jit([](const TensorList& in) {
    TensorList out = ops::while_loop(
        [](const TensorList& v) { return ops::greater(v[0], 1); },
        [](const TensorList& v) {
          const Tensor& n = v[0];
          Tensor even = ops::equal(ops::mod(n, 2), 0);
          Tensor next = ops::where(even, ops::floor_divide(n, 2), ops::add(ops::multiply(n, 3), 1));
          return TensorList{next, ops::add(v[1], 1)};
        },
        TensorList{in[0], scalar_i32(0)});
    return TensorList{out[1]};
  });
  // 1 takes no iteration at all: the first trace records a body it never ran.
  for (int32_t n : {1, 27, 6, 97, 2, 1, 871, 3}) {
    const Tensor steps = f({scalar_i32(n)})[0];
    EXPECT_EQ(steps.item<int32_t>(), collatz_steps(n)) << "n = " << n;
  }
  expect_compiled(f, 6);
}

TEST(TracedControlFlow, WhileLoopStopsAtMaximumIterations) {
  auto f = jit([](const TensorList& in) {
    return TensorList{ops::while_loop([](const Tensor& v) { return ops::less(v, 1000.0f); },
                                      [](const Tensor& v) { return ops::multiply(v, 1.5f); },
                                      in[0], /*maximum_iterations=*/5)};
  });
  for (float x0 : {1.0f, 400.0f, 2000.0f, 0.5f, 900.0f}) {
    float x = x0;
    for (int i = 0; i < 5 && x < 1000.0f; ++i) x *= 1.5f;
    EXPECT_EQ(f({vec({x0})})[0].to_vector<float>(), std::vector<float>{x}) << "x0 = " << x0;
  }
  expect_compiled(f, 3);
}

// Memory planning: buffers made before the loop and read in every iteration, and temporaries of
// the body, must survive the back edge (a planner that freed them after their last use in
// program order would hand their memory to the body's temporaries).
TEST(TracedControlFlow, BuffersReadInsideALoopLiveThroughIt) {
  auto f = jit([](const TensorList& in) {
    Tensor scale = ops::add(ops::multiply(in[0], 2.0f), 1.0f);  // read by every iteration
    Tensor offset = ops::subtract(in[0], 0.5f);
    TensorList out = ops::while_loop(
        [](const TensorList& v) { return ops::less(v[1], 4); },
        [&](const TensorList& v) {
          Tensor t = ops::multiply(ops::add(v[0], offset), 0.5f);  // a temporary per iteration
          return TensorList{ops::add(ops::multiply(t, scale), ops::sin(t)), ops::add(v[1], 1)};
        },
        TensorList{ops::zeros({3}), scalar_i32(0)});
    return TensorList{out[0]};
  });
  for (int call = 0; call < 5; ++call) {
    const std::vector<float> x = {0.25f * call, -1.0f, 2.0f};
    std::vector<float> expected(3);
    for (int i = 0; i < 3; ++i) {
      const float scale = x[i] * 2.0f + 1.0f, offset = x[i] - 0.5f;
      float acc = 0.0f;
      for (int k = 0; k < 4; ++k) {
        const float t = (acc + offset) * 0.5f;
        acc = t * scale + std::sin(t);
      }
      expected[i] = acc;
    }
    const std::vector<float> got = f({vec(x)})[0].to_vector<float>();
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], expected[i], 1e-5f * (1 + std::fabs(expected[i])));
  }
  expect_compiled(f, 3);
}

TEST(TracedControlFlow, NestedLoopsAndBranches) {
  // sum over i < n of (i odd ? i * i : -i), with the branch inside the loop and a loop inside
  // a branch.
  auto f = jit([](const TensorList& in) {
    const Tensor& n = in[0];
    Tensor total = ops::cond(
        ops::greater(n, 0),
        [&] {
          TensorList v = ops::while_loop(
              [&](const TensorList& s) { return ops::less(s[0], n); },
              [](const TensorList& s) {
                const Tensor& i = s[0];
                Tensor term = ops::cond(ops::equal(ops::mod(i, 2), 1),
                                        [&] { return ops::multiply(i, i); },
                                        [&] { return ops::negative(i); });
                return TensorList{ops::add(i, 1), ops::add(s[1], term)};
              },
              TensorList{scalar_i32(0), scalar_i32(0)});
          return v[1];
        },
        [&] { return ops::full({}, -1, DType::Int32); });
    return TensorList{total};
  });
  for (int32_t n : {3, 0, 10, 1, 7, -2, 25}) {
    int32_t expected = n > 0 ? 0 : -1;
    for (int32_t i = 0; i < n; ++i) expected += i % 2 == 1 ? i * i : -i;
    EXPECT_EQ(f({scalar_i32(n)})[0].item<int32_t>(), expected) << "n = " << n;
  }
  expect_compiled(f, 5);
}

TEST(TracedControlFlow, SwitchClampsItsIndexAsEagerly) {
  auto f = jit([](const TensorList& in) {
    std::vector<std::function<Tensor(const TensorList&)>> branches = {
        [](const TensorList& o) { return ops::add(o[0], 10.0f); },
        [](const TensorList& o) { return ops::multiply(o[0], 3.0f); },
        [](const TensorList& o) { return ops::negative(o[0]); }};
    return TensorList{ops::switch_(in[0], branches, {in[1]})};
  });
  for (int32_t index : {1, -3, 0, 2, 7, 1}) {
    const int32_t k = std::clamp(index, 0, 2);
    const float x = 1.25f;
    const float expected = k == 0 ? x + 10.0f : (k == 1 ? x * 3.0f : -x);
    EXPECT_EQ(f({scalar_i32(index), vec({x})})[0].to_vector<float>(), std::vector<float>{expected})
        << "index " << index;
  }
  expect_compiled(f, 4);
}

TEST(TracedControlFlow, ACondInsideATrainingStepGetsTheTakenBranchsGradient) {
  // loss = sum(w * w) when sum(w) > 0, else sum(3 w): gradient 2 w or 3, by hand.
  Variable w(vec({0.5f, 1.0f}));
  auto step = jit([&](const TensorList& in) {
    auto [loss, grads] = value_and_grad(
        [&] {
          Tensor v = ops::add(w.value(), in[0]);
          return ops::cond(ops::greater(ops::sum(v), 0.0f),
                           [&] { return ops::sum(ops::square(v)); },
                           [&] { return ops::sum(ops::multiply(v, 3.0f)); });
        },
        {w});
    w.assign_sub(ops::multiply(grads[0], 0.25f));
    return TensorList{loss};
  });
  std::vector<float> host = {0.5f, 1.0f};
  for (int call = 0; call < 8; ++call) {
    const std::vector<float> shift = {call % 3 == 2 ? -4.0f : 0.0f, 0.0f};
    const float v0 = host[0] + shift[0], v1 = host[1] + shift[1];
    const bool positive = v0 + v1 > 0;
    const float loss = positive ? v0 * v0 + v1 * v1 : 3 * v0 + 3 * v1;
    EXPECT_FLOAT_EQ(step({vec(shift)})[0].item<float>(), loss) << "call " << call;
    host[0] -= 0.25f * (positive ? 2 * v0 : 3.0f);
    host[1] -= 0.25f * (positive ? 2 * v1 : 3.0f);
    const std::vector<float> got = w.value().to_vector<float>();
    EXPECT_FLOAT_EQ(got[0], host[0]) << "call " << call;
    EXPECT_FLOAT_EQ(got[1], host[1]) << "call " << call;
  }
  expect_compiled(step, 6);
}

TEST(TracedControlFlow, SideEffectsInsideABranchFallBackToEagerWithTheReason) {
  Variable counter(vec({0.0f}));
  auto f = jit([&](const TensorList& in) {
    return TensorList{ops::cond(
        ops::greater(ops::sum(in[0]), 0.0f),
        [&] {
          counter.assign_add(vec({1.0f}));
          return in[0];
        },
        [&] { return ops::negative(in[0]); })};
  });
  for (float s : {1.0f, -1.0f, 2.0f, 3.0f}) EXPECT_EQ(f({vec({s})})[0].item<float>(), std::fabs(s));
  EXPECT_NE(f.fallback_reason().find("inside ops::cond or ops::while_loop"), std::string::npos)
      << f.fallback_reason();
  EXPECT_EQ(counter.value().item<float>(), 3.0f) << "eagerly, only the branch taken assigns";
  EXPECT_EQ(f.replay_count(), 0);
}

TEST(TracedControlFlow, BranchesOfDifferentShapesFallBackToEager) {
  auto f = jit([](const TensorList& in) {
    return TensorList{ops::cond(ops::greater(ops::sum(in[0]), 0.0f), [&] { return in[0]; },
                                [&] { return ops::concatenate({in[0], in[0]}); })};
  });
  EXPECT_EQ(f({vec({1.0f})})[0].size(), 1);
  EXPECT_EQ(f({vec({-1.0f})})[0].size(), 2);
  EXPECT_NE(f.fallback_reason().find("branches of ops::cond return output 0"), std::string::npos)
      << f.fallback_reason();
}

TEST(TracedControlFlow, AWhileLoopNeedingAGradientRunsEagerly) {
  Variable w(vec({2.0f}));
  auto step = jit([&](const TensorList& in) {
    auto [loss, grads] = value_and_grad(
        [&] {
          return ops::sum(ops::while_loop([](const Tensor& v) { return ops::less(ops::sum(v), 50.0f); },
                                          [&](const Tensor& v) { return ops::multiply(v, w.value()); },
                                          in[0]));
        },
        {w});
    return TensorList{loss, grads[0]};
  });
  // x = 1: 1 -> 2 -> 4 -> ... -> 64 (6 multiplications): loss w^6, gradient 6 w^5.
  const TensorList out = step({vec({1.0f})});
  EXPECT_EQ(out[0].item<float>(), 64.0f);
  EXPECT_EQ(out[1].item<float>(), 6.0f * 32.0f);
  EXPECT_NE(step.fallback_reason().find("gradient of ops::while_loop"), std::string::npos)
      << step.fallback_reason();
}

}  // namespace
}  // namespace keras

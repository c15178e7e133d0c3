// keras.ops control flow: gradients through branches and loops (finite differences in float64
// and closed forms), higher-order gradients, loop-state rules and bad inputs.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using keras::testing::gradcheck;
using test::make;

Tensor f64(const std::vector<double>& v, const Shape& shape) { return make(v, shape, DType::Float64); }

// The message of the ValueError `fn` throws (fails the test if it throws none).
template <typename Fn>
std::string value_error(Fn&& fn) {
  try {
    fn();
  } catch (const ValueError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ValueError";
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- cond and switch -------------------------------------------------------------------------

TEST(Cond, RunsOnlyTheSelectedBranch) {
  int true_calls = 0, false_calls = 0;
  auto t = [&] { ++true_calls; return Tensor(1.0); };
  auto f = [&] { ++false_calls; return Tensor(2.0); };
  EXPECT_EQ(ops::cond(true, t, f).item<double>(), 1.0);
  EXPECT_EQ(ops::cond(ops::less(3, 2), t, f).item<double>(), 2.0);
  EXPECT_EQ(true_calls, 1);
  EXPECT_EQ(false_calls, 1);
  // The list form.
  TensorList both = ops::cond(make({1}, {1}, DType::Bool), [] { return TensorList{1, 2}; },
                              [] { return TensorList{3, 4}; });
  EXPECT_EQ(both[1].item<int>(), 2);
}

TEST(Cond, GradientFlowsThroughTheTakenBranch) {
  auto fn = [](const TensorList& in) {
    const Tensor& x = in[0];
    return ops::cond(ops::greater(ops::sum(x), 0.0), [&] { return x * x * x; },
                     [&] { return ops::sin(x); });
  };
  for (auto values : {std::vector<double>{0.5, 1.5, -0.3}, std::vector<double>{-0.5, 0.2, -1.0}}) {
    auto r = gradcheck(fn, {f64(values, {3})});
    EXPECT_TRUE(r.ok) << r.message;
  }
  // Closed forms: 3 x^2 on the true branch, cos x on the false one.
  Tensor x = f64({0.5, 1.5, -0.3}, {3});
  EXPECT_TENSOR_NEAR(grad([&](const Tensor& t) { return ops::sum(fn({t})); }, x),
                     f64({0.75, 6.75, 0.27}, {3}), 1e-12, 0);
}

TEST(Cond, BadPredicates) {
  auto one = [] { return Tensor(1.0); };
  std::string m = value_error([&] { ops::cond(ops::ones({2}, DType::Bool), one, one); });
  EXPECT_TRUE(contains(m, "cond") && contains(m, "(2,)")) << m;
  EXPECT_THROW(ops::cond(Tensor(), one, one), ValueError);
  EXPECT_THROW(ops::cond(true, std::function<Tensor()>(), one), ValueError);
}

TEST(Switch, ClampsTheIndexAndDifferentiates) {
  std::vector<std::function<Tensor(const TensorList&)>> branches = {
      [](const TensorList& o) { return o[0] * o[1]; },
      [](const TensorList& o) { return ops::exp(o[0]) + o[1]; }};
  Tensor x = f64({0.3, -0.7}, {2}), y = f64({2, 3}, {2});
  EXPECT_TENSOR_NEAR(ops::switch_(-4, branches, {x, y}), f64({0.6, -2.1}, {2}), 1e-12, 0);
  EXPECT_TENSOR_NEAR(ops::switch_(make({9}, {}, DType::Int64), branches, {x, y}),
                     f64({std::exp(0.3) + 2, std::exp(-0.7) + 3}, {2}), 1e-12, 0);
  for (int index : {0, 1}) {
    auto r = gradcheck(
        [&](const TensorList& in) { return ops::switch_(index, branches, {in[0], in[1]}); },
        {x, y});
    EXPECT_TRUE(r.ok) << r.message;
  }
  // The list form.
  std::vector<ops::ListFn> list_branches = {[](const TensorList& o) { return o; }};
  EXPECT_EQ(ops::switch_(0, list_branches, {x, y}).size(), 2u);
}

TEST(Switch, BadIndices) {
  std::vector<std::function<Tensor(const TensorList&)>> branches = {
      [](const TensorList& o) { return o[0]; }};
  EXPECT_THROW(ops::switch_(1.5, branches, {Tensor(1.0)}), TypeError);
  std::string m = value_error([&] { ops::switch_(ops::zeros({3}, DType::Int32), branches, {}); });
  EXPECT_TRUE(contains(m, "(3,)")) << m;
  EXPECT_THROW(ops::switch_(0, std::vector<std::function<Tensor(const TensorList&)>>{}, {}),
               ValueError);
}

// ---- while_loop and fori_loop ----------------------------------------------------------------

TEST(WhileLoop, RunsUntilTheConditionFailsOrTheCap) {
  // Keras's docstring examples.
  Tensor i = ops::while_loop([](const Tensor& v) { return ops::less(v, 10); },
                             [](const Tensor& v) { return v + 1; }, 0);
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(i.item<int>(), 10);
  TensorList xy = ops::while_loop([](const TensorList& v) { return ops::less(v[0], 10); },
                                  [](const TensorList& v) { return TensorList{v[0] + 1, v[1] + 1}; },
                                  {0, 1});
  EXPECT_EQ(xy[0].item<int>(), 10);
  EXPECT_EQ(xy[1].item<int>(), 11);
  // maximum_iterations caps the loop; a false condition runs nothing.
  Tensor capped = ops::while_loop([](const Tensor&) { return Tensor(true); },
                                  [](const Tensor& v) { return v * 2; }, 1, 5);
  EXPECT_EQ(capped.item<int>(), 32);
  Tensor none = ops::while_loop([](const Tensor&) { return Tensor(false); },
                                [](const Tensor& v) { return v * 2; }, 3.5);
  EXPECT_EQ(none.dtype(), DType::Float32);
  EXPECT_EQ(none.item<double>(), 3.5);
  EXPECT_EQ(ops::while_loop([](const Tensor&) { return Tensor(true); },
                            [](const Tensor& v) { return v + 1; }, 0, 0)
                .item<int>(),
            0);
}

TEST(WhileLoop, GradientOfNewtonsSquareRoot) {
  // x <- (x + a / x) / 2 converges to sqrt(a); the gradient through the iterations run
  // converges to 1 / (2 sqrt(a)).
  auto newton = [](const TensorList& in) {
    const Tensor& a = in[0];
    return ops::while_loop([](const TensorList& v) { return ops::less(v[1], 30); },
                           [&](const TensorList& v) {
                             return TensorList{(v[0] + a / v[0]) * 0.5, v[1] + 1};
                           },
                           {a, 0})[0];
  };
  Tensor a = f64({0.5, 2.0, 9.0}, {3});
  Tensor g = grad([&](const Tensor& t) { return ops::sum(newton({t})); }, a);
  EXPECT_TENSOR_NEAR(g, f64({0.5 / std::sqrt(0.5), 0.5 / std::sqrt(2.0), 1.0 / 6}, {3}), 1e-10, 0);
  auto r = gradcheck(newton, {a});
  EXPECT_TRUE(r.ok) << r.message;
  // A data-dependent stopping rule (the values it stops at do not move under eps).
  auto r2 = gradcheck(
      [](const TensorList& in) {
        return ops::while_loop([](const Tensor& v) { return ops::less(ops::max(v), 10.0); },
                               [](const Tensor& v) { return v * 1.5 + 0.25; }, in[0]);
      },
      {f64({0.3, 1.2}, {2})});
  EXPECT_TRUE(r2.ok) << r2.message;
}

TEST(WhileLoop, LoopVariablesKeepTheirShapesAndDtypes) {
  std::string m = value_error([] {
    ops::while_loop([](const Tensor& v) { return ops::less(ops::sum(v), 10.0); },
                    [](const Tensor& v) { return ops::concatenate({v, v}); }, ops::ones({2}));
  });
  EXPECT_TRUE(contains(m, "while_loop") && contains(m, "(2,)") && contains(m, "(4,)") &&
              contains(m, "iteration 0"))
      << m;
  m = value_error([] {
    ops::while_loop([](const TensorList& v) { return ops::less(v[0], 3); },
                    [](const TensorList& v) { return TensorList{v[0] + 1, v[1] * 0.5}; },
                    {0, 1});
  });
  EXPECT_TRUE(contains(m, "loop variable 1") && contains(m, "int32") && contains(m, "float32"))
      << m;
  m = value_error([] {
    ops::while_loop([](const TensorList& v) { return ops::less(v[0], 3); },
                    [](const TensorList& v) { return TensorList{v[0] + 1}; }, {0, 1});
  });
  EXPECT_TRUE(contains(m, "returned 1")) << m;
}

TEST(WhileLoop, BadConditionsAndArguments) {
  std::string m = value_error([] {
    ops::while_loop([](const Tensor& v) { return ops::less(v, 3.0); },
                    [](const Tensor& v) { return v + 1.0; }, ops::zeros({2}));
  });
  EXPECT_TRUE(contains(m, "while_loop") && contains(m, "(2,)")) << m;
  EXPECT_THROW(ops::while_loop([](const Tensor&) { return Tensor(); },
                               [](const Tensor& v) { return v; }, 1),
               ValueError);
  EXPECT_THROW(ops::while_loop([](const Tensor&) { return Tensor(true); },
                               [](const Tensor& v) { return v; }, 1, -1),
               ValueError);
  EXPECT_THROW(ops::while_loop([](const Tensor&) { return Tensor(true); },
                               [](const Tensor& v) { return v; }, Tensor()),
               ValueError);
}

TEST(ForiLoop, PowerAndItsGradients) {
  // x^5 by repeated multiplication: gradient 5 x^4, second derivative 20 x^3.
  auto power5 = [](const TensorList& in) {
    Tensor x = in[0];
    return ops::fori_loop(0, 5, [&](int64_t, const Tensor& acc) { return acc * x; },
                          ops::ones_like(x));
  };
  Tensor x = f64({0.5, -1.25, 2.0}, {3});
  auto r = gradcheck(power5, {x});
  EXPECT_TRUE(r.ok) << r.message;
  GradientTape outer;
  Tensor xw = ops::stop_gradient(x);
  outer.watch(xw);
  Tensor dx;
  {
    GradientTape inner;
    inner.watch(xw);
    dx = inner.gradient(ops::sum(power5({xw})), xw);
  }
  EXPECT_TENSOR_NEAR(dx, f64({5 * 0.0625, 5 * 2.44140625, 80}, {3}), 1e-12, 0);
  Tensor d2x = outer.gradient(ops::sum(dx), xw);
  EXPECT_TENSOR_NEAR(d2x, f64({20 * 0.125, 20 * -1.953125, 160}, {3}), 1e-12, 0);
}

TEST(ForiLoop, IndexAndListForm) {
  // Keras's docstring: the sum of 0..9.
  EXPECT_EQ(ops::fori_loop(0, 10, [](int64_t i, const Tensor& s) { return s + i; }, 0).item<int>(),
            45);
  // lower >= upper runs nothing.
  EXPECT_EQ(ops::fori_loop(5, 2, [](int64_t, const Tensor& s) { return s + 1; }, 7).item<int>(), 7);
  TensorList fib = ops::fori_loop(
      0, 10, [](int64_t, const TensorList& v) { return TensorList{v[1], v[0] + v[1]}; }, {0, 1});
  EXPECT_EQ(fib[0].item<int>(), 55);
  std::string m = value_error([] {
    ops::fori_loop(0, 3, [](int64_t, const Tensor& s) { return ops::reshape(s, {1, 2}); },
                   ops::zeros({2}));
  });
  EXPECT_TRUE(contains(m, "fori_loop") && contains(m, "(1, 2)")) << m;
}

// ---- scan --------------------------------------------------------------------------------------

TEST(Scan, CumulativeProductGradients) {
  auto cumprod = [](bool reverse) {
    return [reverse](const TensorList& in) {
      auto [carry, ys] = ops::scan(
          [](const Tensor& c, const Tensor& x) { return ops::ScanStep{c * x, c * x}; },
          ops::ones({2}, DType::Float64), in[0], std::nullopt, reverse);
      return ops::concatenate({ops::expand_dims(carry, 0), ys});
    };
  };
  Tensor xs = f64({0.5, 1.5, -2, 0.75, 1.25, 3, -0.5, 2}, {4, 2});
  for (bool reverse : {false, true}) {
    auto r = gradcheck(cumprod(reverse), {xs});
    EXPECT_TRUE(r.ok) << "reverse " << reverse << ": " << r.message;
  }
  // d(prod x)/dx_i = prod / x_i for the final carry.
  Tensor g = grad(
      [](const Tensor& t) {
        return ops::sum(ops::scan([](const Tensor& c, const Tensor& x) { return ops::ScanStep{c * x, c}; },
                                  ops::ones({}, DType::Float64), t)
                            .first);
      },
      f64({2, 3, 4}, {3}));
  EXPECT_TENSOR_NEAR(g, f64({12, 8, 6}, {3}), 1e-12, 0);
}

TEST(Scan, RecurrenceGradientsInEveryInput) {
  // An RNN-like recurrence h = tanh(a h + x) over two xs and an initial carry.
  auto rnn = [](const TensorList& in) {
    auto [carry, ys] = ops::scan(
        [](const TensorList& h, const TensorList& ax) {
          Tensor next = ops::tanh(ax[0] * h[0] + ax[1]);
          return ops::ScanStepList{{next}, {next, ops::sum(next)}};
        },
        {in[2]}, {in[0], in[1]});
    return ops::concatenate({ops::ravel(ys[0]), ops::ravel(ys[1]), carry[0]});
  };
  Tensor a = f64({0.5, -0.3, 0.8, 0.1, -0.6, 0.9}, {3, 2});
  Tensor x = f64({0.2, 0.4, -0.1, 0.3, 0.7, -0.5}, {3, 2});
  Tensor h0 = f64({0.1, -0.2}, {2});
  auto r = gradcheck(rnn, {a, x, h0});
  EXPECT_TRUE(r.ok) << r.message;
}

TEST(Scan, LengthOnlyEmptyAndUndefinedOutputs) {
  // Keras's docstring example.
  Tensor xs = make({1, 2, 3, 4, 5}, {5}, DType::Int32);
  auto [total, running] = ops::scan(
      [](const Tensor& c, const Tensor& x) { return ops::ScanStep{c + x, c + x}; },
      make({0}, {}, DType::Int32), xs);
  EXPECT_EQ(total.item<int>(), 15);
  EXPECT_EQ(running.to_vector<int>(), (std::vector<int>{1, 3, 6, 10, 15}));
  // Zero steps: f learns the shape of y from zeros.
  int calls = 0;
  auto [c0, y0] = ops::scan(
      [&](const Tensor& c, const Tensor& x) {
        ++calls;
        return ops::ScanStep{c, ops::concatenate({x, x})};
      },
      ops::zeros({3}), ops::zeros({0, 3}));
  EXPECT_EQ(y0.shape(), (Shape{0, 6}));
  EXPECT_EQ(calls, 1);
  // A step may return no y.
  auto [c1, y1] = ops::scan(
      [](const Tensor& c, const Tensor&) { return ops::ScanStep{c + 1.0, Tensor()}; }, 0.0,
      Tensor(), 4);
  EXPECT_EQ(c1.item<double>(), 4.0);
  EXPECT_FALSE(y1.defined());
}

TEST(Scan, BadInputs) {
  auto step = [](const Tensor& c, const Tensor& x) { return ops::ScanStep{c + x, c}; };
  std::string m = value_error([&] {
    ops::scan([](const Tensor& c, const Tensor& x) { return ops::ScanStep{ops::concatenate({c, x}), c}; },
              ops::zeros({1}), ops::ones({3, 1}));
  });
  EXPECT_TRUE(contains(m, "scan") && contains(m, "carry 0") && contains(m, "(2,)")) << m;
  EXPECT_TRUE(contains(value_error([&] { ops::scan(step, 0.0); }), "length"));
  EXPECT_THROW(ops::scan(step, 0.0, ops::ones({3}), 4), ValueError);
  EXPECT_THROW(ops::scan(step, 0.0, ops::ones({3}), std::nullopt, false, -1), ValueError);
  EXPECT_THROW(ops::scan(step, 0.0, Tensor(1.0)), ValueError);
  m = value_error([] {
    ops::scan(
        [](const TensorList& c, const TensorList& x) { return ops::ScanStepList{c, {x[0]}}; },
        {0.0}, {ops::ones({3, 2}), ops::ones({4, 2})});
  });
  EXPECT_TRUE(contains(m, "(3, 2)") && contains(m, "(4, 2)")) << m;
  // ys that change shape across steps.
  m = value_error([] {
    int step = 0;
    ops::scan(
        [&](const Tensor& c, const Tensor&) {
          return ops::ScanStep{c, ops::zeros({++step})};
        },
        0.0, Tensor(), 3);
  });
  EXPECT_TRUE(contains(m, "output 0") && contains(m, "(1,)") && contains(m, "(2,)")) << m;
}

// ---- associative_scan ----------------------------------------------------------------------------

TEST(AssociativeScan, Gradients) {
  Tensor x = f64({0.5, 1.5, -2, 0.75, 1.25, 3, -0.5, 2, 0.9, 1.1}, {5, 2});
  for (int axis : {0, 1}) {
    for (bool reverse : {false, true}) {
      auto add = gradcheck(
          [&](const TensorList& in) {
            return ops::associative_scan(
                [](const Tensor& a, const Tensor& b) { return a + b; }, in[0], reverse, axis);
          },
          {x});
      EXPECT_TRUE(add.ok) << add.message;
      auto mul = gradcheck(
          [&](const TensorList& in) {
            return ops::associative_scan(
                [](const Tensor& a, const Tensor& b) { return a * b; }, in[0], reverse, axis);
          },
          {x});
      EXPECT_TRUE(mul.ok) << mul.message;
    }
  }
  // The affine composition (a tuple op) in both inputs.
  auto affine = gradcheck(
      [](const TensorList& in) {
        TensorList r = ops::associative_scan(
            [](const TensorList& p, const TensorList& q) {
              return TensorList{p[0] * q[0], q[0] * p[1] + q[1]};
            },
            {in[0], in[1]});
        return ops::concatenate({r[0], r[1]});
      },
      {f64({0.5, -0.4, 0.9, 0.3, -0.8, 0.6, 0.2}, {7}), f64({1, 2, -1, 0.5, 0.3, -0.2, 0.7}, {7})});
  EXPECT_TRUE(affine.ok) << affine.message;
}

TEST(AssociativeScan, BadInputs) {
  auto add = [](const Tensor& a, const Tensor& b) { return a + b; };
  EXPECT_THROW(ops::associative_scan(add, Tensor(1.0)), ValueError);
  EXPECT_THROW(ops::associative_scan(add, ops::ones({3}), false, 1), ValueError);
  std::string m = value_error([] {
    ops::associative_scan([](const Tensor& a, const Tensor&) { return ops::sum(a); },
                           ops::ones({4, 2}));
  });
  EXPECT_TRUE(contains(m, "associative_scan") && contains(m, "(2, 2)")) << m;
  m = value_error([] {
    ops::associative_scan([](const TensorList& a, const TensorList&) { return a; },
                          {ops::ones({4}), ops::ones({5})});
  });
  EXPECT_TRUE(contains(m, "(4,)") && contains(m, "(5,)")) << m;
}

// ---- map and vectorized_map --------------------------------------------------------------------

TEST(Map, GradientsAndShapes) {
  auto norms = [](const TensorList& in) {
    return ops::map([](const Tensor& row) { return ops::sqrt(ops::sum(ops::square(row))); },
                    in[0]);
  };
  Tensor xs = f64({0.5, 1.5, -2, 0.75, 1.25, 3}, {3, 2});
  auto r = gradcheck(norms, {xs});
  EXPECT_TRUE(r.ok) << r.message;
  auto v = gradcheck(
      [](const TensorList& in) {
        return ops::vectorized_map(
            [](const TensorList& e) { return TensorList{ops::matmul(e[0], e[1])}; },
            {in[0], in[1]})[0];
      },
      {f64({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}), f64({0.5, -1, 2, 0.25}, {2, 2, 1})});
  EXPECT_TRUE(v.ok) << v.message;
  // Keras's docstring example.
  Tensor squares = ops::map([](const Tensor& x) { return x * x; }, ops::arange(10));
  EXPECT_EQ(squares.to_vector<int>(), (std::vector<int>{0, 1, 4, 9, 16, 25, 36, 49, 64, 81}));
}

TEST(Map, BadInputs) {
  std::string m = value_error([] {
    ops::map([](const Tensor& x) { return ops::concatenate({x, x}).slice({{0, 1 + int64_t(x.item<float>())}}); },
             make({0, 1}, {2, 1}));
  });
  EXPECT_TRUE(contains(m, "map") && contains(m, "(1,)") && contains(m, "(2,)")) << m;
  EXPECT_THROW(ops::map([](const Tensor& x) { return x; }, Tensor(2.0)), ValueError);
  EXPECT_THROW(ops::vectorized_map(ops::ListFn([](const TensorList& x) { return x; }), TensorList{}),
               ValueError);
  m = value_error([] {
    ops::vectorized_map([](const TensorList& e) { return e; }, {ops::ones({2}), ops::ones({3})});
  });
  EXPECT_TRUE(contains(m, "vectorized_map")) << m;
}

TEST(ControlFlow, HeaderExamplesCompileAndRun) {
  Tensor x = make({1.5, -2}, {2}, DType::Float64);
  Tensor x4 = ops::fori_loop(0, 4, [&](int64_t, const Tensor& acc) { return acc * x; },
                             ops::ones_like(x));
  EXPECT_TENSOR_NEAR(x4, make({5.0625, 16}, {2}, DType::Float64), 1e-12, 0);
  Tensor xs = make({1, 2, 3}, {3}, DType::Float64);
  auto [total, running] = ops::scan(
      [](const Tensor& c, const Tensor& x) { return std::pair{c + x, c + x}; },
      ops::zeros_like(xs[0]), xs);
  EXPECT_EQ(total.item<double>(), 6.0);
  EXPECT_EQ(running.to_vector<double>(), (std::vector<double>{1, 3, 6}));
}

}  // namespace
}  // namespace keras

// The pass that computes an assigned value straight into its variable (assign_in_place.h):
// where it applies, the copies go and the variables take the values of the unrewritten program
// bit for bit, and of a host computation in double; where writing the variable early would
// change what a call reads (the old value read after the new one is computed, the variable read
// through another view, a product reading its own output, the value read after the variable
// changes again), the copy stays and the values are still the host's.

#include <gtest/gtest.h>

#include <cmath>

#include "compiler/assign_in_place.h"
#include "compiler/fuse_elementwise.h"
#include "program_helpers.h"

namespace keras {
namespace {

using compiler::detail::AssignInPlaceOff;
using compiler::detail::ElementwiseFusionOff;
using test_compiler::compile;
using test_compiler::random_floats;

std::vector<double> doubles(const Tensor& t) {
  return t.to_vector<double>();
}

void expect_near(const Tensor& got, const std::vector<double>& want) {
  const std::vector<double> g = doubles(got);
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << "element " << i;
}

// Adam's update as the optimizer writes it (assign_add/assign_sub), over one weight.
struct AdamStep {
  static constexpr int64_t n = 1003;
  Variable w{Tensor::from_vector(random_floats(n, 1, -1, 1), {n})};
  Variable m{ops::zeros({n})}, v{ops::zeros({n})};

  TensorList operator()(const TensorList& in) {
    const Tensor& g = in[0];
    m.assign_add(ops::multiply(ops::subtract(g, m.value()), 0.1));
    v.assign_add(ops::multiply(ops::subtract(ops::square(g), v.value()), 0.001));
    w.assign_sub(ops::divide(ops::multiply(m.value(), 0.01), ops::add(ops::sqrt(v.value()), 1e-7)));
    return {ops::sum(w.value())};
  }
};

TEST(AssignInPlace, AdamsSlotsAndWeightAreComputedInPlace) {
  ElementwiseFusionOff no_fusion;  // fusion folds these copies itself where a backend fuses
  AdamStep in_place_step, copying_step;
  const Tensor g0 = Tensor::from_vector(random_floats(AdamStep::n, 2, -1, 1), {AdamStep::n});
  auto in_place = compile(std::ref(in_place_step), {g0});
  std::unique_ptr<compiler::detail::Program> copying;
  {
    AssignInPlaceOff off;
    copying = compile(std::ref(copying_step), {g0});
  }
  EXPECT_EQ(in_place->stats().assigns_in_place, 3u);
  EXPECT_EQ(copying->stats().assigns_in_place, 0u);
  EXPECT_EQ(in_place->stats().replayed_calls + 3, copying->stats().replayed_calls);
  EXPECT_LE(in_place->stats().arena_bytes, copying->stats().arena_bytes);

  std::vector<double> w = doubles(in_place_step.w.value()), m = doubles(in_place_step.m.value()),
                      v = doubles(in_place_step.v.value());
  for (int call = 0; call < 4; ++call) {
    const std::vector<float> gv = random_floats(AdamStep::n, 10 + call, -2, 2);
    const Tensor g = Tensor::from_vector(gv, {AdamStep::n});
    in_place->replay({g});
    copying->replay({g});
    for (int64_t i = 0; i < AdamStep::n; ++i) {
      m[i] += (gv[i] - m[i]) * 0.1;
      v[i] += (double(gv[i]) * gv[i] - v[i]) * 0.001;
      w[i] -= m[i] * 0.01 / (std::sqrt(v[i]) + 1e-7);
    }
  }
  EXPECT_EQ(in_place_step.m.value().to_vector<float>(), copying_step.m.value().to_vector<float>());
  EXPECT_EQ(in_place_step.v.value().to_vector<float>(), copying_step.v.value().to_vector<float>());
  EXPECT_EQ(in_place_step.w.value().to_vector<float>(), copying_step.w.value().to_vector<float>());
  expect_near(in_place_step.m.value(), m);
  expect_near(in_place_step.w.value(), w);
}

// nv = v + g is computed, then v is read for r: v must still hold its old value there.
TEST(AssignInPlace, TheOldValueReadAfterTheNewOneIsComputedKeepsTheCopy) {
  ElementwiseFusionOff no_fusion;
  const int64_t n = 257;
  Variable var{Tensor::from_vector(random_floats(n, 3, -1, 1), {n})};
  auto step = [&](const TensorList& in) {
    Tensor next = ops::add(var.value(), in[0]);
    Tensor twice_old = ops::multiply(var.value(), 2.0);
    var.assign(next);
    return TensorList{twice_old};
  };
  const Tensor g = Tensor::from_vector(random_floats(n, 4, -1, 1), {n});
  auto program = compile(step, {g});
  EXPECT_EQ(program->stats().assigns_in_place, 0u);
  const std::vector<double> before = doubles(var.value()), gd = doubles(g);
  const TensorList out = program->replay({g});
  std::vector<double> want_out(n), want_var(n);
  for (int64_t i = 0; i < n; ++i) want_out[i] = 2 * before[i], want_var[i] = before[i] + gd[i];
  expect_near(out[0], want_out);
  expect_near(var.value(), want_var);
}

// v = transpose(v) + g: an elementwise call reading v through another view may not write v.
TEST(AssignInPlace, TheVariableReadThroughAnotherViewKeepsTheCopy) {
  ElementwiseFusionOff no_fusion;
  const int64_t n = 33;
  Variable var{Tensor::from_vector(random_floats(n * n, 5, -1, 1), {n, n})};
  auto step = [&](const TensorList& in) {
    var.assign(ops::add(ops::transpose(var.value()), in[0]));
    return TensorList{ops::sum(var.value())};
  };
  const Tensor g = Tensor::from_vector(random_floats(n * n, 6, -1, 1), {n, n});
  auto program = compile(step, {g});
  for (int call = 0; call < 2; ++call) {
    const std::vector<double> before = doubles(var.value()), gd = doubles(g);
    program->replay({g});
    std::vector<double> want(n * n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) want[i * n + j] = before[j * n + i] + gd[i * n + j];
    expect_near(var.value(), want);
  }
}

// w = x @ w reads w while it writes: the product keeps its own buffer; w = x @ y does not.
TEST(AssignInPlace, AProductGoesStraightIntoItsVariableUnlessItReadsIt) {
  ElementwiseFusionOff no_fusion;
  const int64_t n = 24;
  Variable fed{Tensor::from_vector(random_floats(n * n, 7, -1, 1), {n, n})};
  Variable fresh{ops::zeros({n, n})};
  auto step = [&](const TensorList& in) {
    fed.assign(ops::matmul(in[0], fed.value()));
    fresh.assign(ops::matmul(in[0], in[1]));
    return TensorList{ops::sum(fed.value())};
  };
  const Tensor x = Tensor::from_vector(random_floats(n * n, 8, -0.5, 0.5), {n, n});
  const Tensor y = Tensor::from_vector(random_floats(n * n, 9, -1, 1), {n, n});
  auto program = compile(step, {x, y});
  EXPECT_EQ(program->stats().assigns_in_place, 1u);
  const std::vector<double> xd = doubles(x), yd = doubles(y);
  auto product = [&](const std::vector<double>& b) {
    std::vector<double> c(n * n, 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < n; ++k)
        for (int64_t j = 0; j < n; ++j) c[i * n + j] += xd[i * n + k] * b[k * n + j];
    return c;
  };
  for (int call = 0; call < 2; ++call) {
    const std::vector<double> before = doubles(fed.value());
    program->replay({x, y});
    expect_near(fed.value(), product(before));
    expect_near(fresh.value(), product(yd));
  }
}

// nv is read after v is assigned again: v's memory no longer holds nv there, so nv keeps its
// own buffer; the second assign (3 * v) is computed in place.
TEST(AssignInPlace, AValueReadAfterItsVariableChangesAgainKeepsItsBuffer) {
  ElementwiseFusionOff no_fusion;
  const int64_t n = 129;
  Variable var{Tensor::from_vector(random_floats(n, 10, -1, 1), {n})};
  auto step = [&](const TensorList& in) {
    Tensor next = ops::add(var.value(), in[0]);
    var.assign(next);
    var.assign(ops::multiply(var.value(), 3.0));
    return TensorList{ops::multiply(next, 1.0)};
  };
  const Tensor g = Tensor::from_vector(random_floats(n, 11, -1, 1), {n});
  auto program = compile(step, {g});
  EXPECT_EQ(program->stats().assigns_in_place, 1u);
  for (int call = 0; call < 2; ++call) {
    const std::vector<double> before = doubles(var.value()), gd = doubles(g);
    const TensorList out = program->replay({g});
    std::vector<double> sum(n), tripled(n);
    for (int64_t i = 0; i < n; ++i) sum[i] = before[i] + gd[i], tripled[i] = 3 * sum[i];
    expect_near(out[0], sum);
    expect_near(var.value(), tripled);
  }
}

}  // namespace
}  // namespace keras

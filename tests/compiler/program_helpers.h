#pragma once
// What the pattern-pass tests share: a Program traced from one call of a step, random inputs,
// and the relative difference the passes' documented bounds are stated in.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "compiler/program.h"
#include "keras/keras.h"

namespace keras::test_compiler {

using Step = std::function<TensorList(const TensorList&)>;

/// The program of `step` traced once on `inputs` (the trace must not give up).
inline std::unique_ptr<compiler::detail::Program> compile(const Step& step,
                                                          const TensorList& inputs) {
  auto trace = std::make_unique<compiler::detail::Trace>(inputs);
  TensorList out = step(trace->inputs);
  trace->stop();
  trace->set_outputs(out);
  EXPECT_EQ(trace->problem, "");
  return std::make_unique<compiler::detail::Program>(std::move(trace));
}

/// n floats drawn uniformly from [lo, hi) with `seed`.
inline std::vector<float> random_floats(int64_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

/// max |a - e| over the tensor, relative to e's largest magnitude.
inline double relative_difference(const Tensor& a, const Tensor& e) {
  const std::vector<double> x = a.to_vector<double>(), y = e.to_vector<double>();
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

}  // namespace keras::test_compiler

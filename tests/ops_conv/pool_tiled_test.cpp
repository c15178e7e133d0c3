// Max pooling's backward pass on the cpu backend's tiled path (windows that tile the input,
// channels innermost: each input element written once) and next to it the cases that must
// fall back to the general path, all against the decomposition into primitives.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "assertions.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"

namespace keras {
namespace {

// Integer-valued inputs so that windows hold ties (the first maximum takes the gradient), and
// a NaN (which wins its window).
Tensor input(const Shape& shape, DType dtype) {
  Tensor x = ops::floor(ops::multiply(random::uniform(shape, 0.0, 1.0, DType::Float64, 3), 4.0));
  std::vector<double> v = x.to_vector<double>();
  v[v.size() / 3] = std::numeric_limits<double>::quiet_NaN();
  return ops::cast(ops::convert_to_tensor(v, shape), dtype);
}

TEST(MaxPoolTiled, BackwardMatchesDecomposition) {
  struct Case {
    Shape x;
    int64_t pool;
    ops::PoolOptions options;
  };
  std::vector<Case> cases = {
      {{3, 26, 26, 8}, 2, {}},                                  // tiles exactly
      {{2, 11, 11, 16}, 2, {}},                                 // a row and a column left over
      {{2, 11, 11, 4}, 2, {.padding = "same"}},                 // padding after: general path
      {{2, 9, 9, 3}, 3, {}},                                    // 3x3 windows
      {{2, 4, 10, 12}, 2, {.data_format = "channels_first"}},  // channels outer: general path
      {{2, 10, 5}, 2, {}},                                      // 1-d
      {{2, 4, 6, 6, 3}, 2, {}},                                 // 3-d
  };
  for (DType dt : {DType::Float32, DType::Float64}) {
    for (const Case& c : cases) {
      Tensor x = input(c.x, dt);
      Tensor r = ops::cast(random::normal(ops::max_pool(x, c.pool, c.options).shape(), 0.0, 1.0,
                                          DType::Float64, 4),
                           dt);
      auto run = [&](bool decomposed) {
        std::optional<backend::DecomposeScope> scope;
        if (decomposed) scope.emplace();
        std::vector<Tensor> v{x};
        GradientTape tape;
        tape.watch(v);
        Tensor y = ops::max_pool(v[0], c.pool, c.options);
        return tape.gradient(ops::sum(ops::multiply(y, r)), v)[0];
      };
      Tensor fused = run(false), decomposed = run(true);
      EXPECT_TENSOR_NEAR(fused, decomposed, 0, 0) << "x " << c.x << " pool " << c.pool;
    }
  }
}

}  // namespace
}  // namespace keras

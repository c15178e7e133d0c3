// where() on the cpu backend's fast paths (dense mask and output, each value dense or a
// broadcast scalar) and on its strided path, against a loop over the same values.

#include <gtest/gtest.h>

#include <random>

#include "keras/keras.h"

namespace keras {
namespace {

template <typename T>
void check_paths(DType dtype) {
  const int64_t n = 100003;  // above the parallel grain, odd so chunks end mid-vector
  std::mt19937 gen(5);
  std::vector<uint8_t> mask(n);
  std::vector<double> xs(n), ys(n);
  for (int64_t i = 0; i < n; ++i) {
    mask[i] = gen() % 2;
    xs[i] = static_cast<double>(gen() % 1000) - 500;
    ys[i] = static_cast<double>(gen() % 1000) - 500;
  }
  std::vector<bool> mask_b(mask.begin(), mask.end());
  Tensor c = ops::convert_to_tensor(std::vector<int32_t>(mask.begin(), mask.end()), {n});
  c = ops::cast(c, DType::Bool);
  Tensor x = ops::cast(ops::convert_to_tensor(xs, {n}), dtype);
  Tensor y = ops::cast(ops::convert_to_tensor(ys, {n}), dtype);
  Tensor sx = ops::cast(ops::full({}, 7.0), dtype);
  Tensor sy = ops::cast(ops::full({}, -3.0), dtype);
  auto expect = [&](const Tensor& got, bool x_scalar, bool y_scalar) {
    std::vector<T> v = ops::cast(got, dtype).template to_vector<T>();
    ASSERT_EQ(static_cast<int64_t>(v.size()), n);
    for (int64_t i = 0; i < n; ++i) {
      double want = mask[i] ? (x_scalar ? 7.0 : xs[i]) : (y_scalar ? -3.0 : ys[i]);
      ASSERT_EQ(static_cast<double>(v[i]), want) << "element " << i;
    }
  };
  expect(ops::where(c, x, y), false, false);
  expect(ops::where(c, x, sy), false, true);
  expect(ops::where(c, sx, y), true, false);
  expect(ops::where(c, sx, sy), true, true);
  // A strided view of the mask (every other element of a longer one) takes the general path.
  std::vector<int32_t> doubled(2 * n);
  for (int64_t i = 0; i < n; ++i) doubled[2 * i] = mask[i];
  Tensor c2 = ops::cast(ops::convert_to_tensor(doubled, {n, 2}), DType::Bool);
  Tensor c_view = c2.slice({{}, {0, 1}}).squeeze(1);
  EXPECT_FALSE(c_view.is_contiguous());
  Tensor strided = ops::where(c_view, x, y);
  expect(strided, false, false);
}

TEST(WherePaths, Float32) { check_paths<float>(DType::Float32); }
TEST(WherePaths, Int64) { check_paths<int64_t>(DType::Int64); }
TEST(WherePaths, Float64) { check_paths<double>(DType::Float64); }

}  // namespace
}  // namespace keras

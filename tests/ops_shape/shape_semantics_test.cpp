// What the fixtures cannot show: which results are views, the C++ spellings of indexing, the
// uninitialized creators, and the cpu gather/scatter paths on sizes large enough to split over
// threads (checked against plain host loops).

#include <gtest/gtest.h>

#include <numeric>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

Tensor iota(const Shape& shape, DType dtype = DType::Float32) {
  std::vector<double> v(static_cast<size_t>(shape.numel()));
  std::iota(v.begin(), v.end(), 0.0);
  return ops::cast(Tensor::from_vector(v, shape), dtype);
}

bool shares(const Tensor& a, const Tensor& b) {
  return a.array().storage.get() == b.array().storage.get();
}

TEST(ShapeSemantics, ViewsShareStorage) {
  Tensor x = iota({3, 4, 5});
  EXPECT_TRUE(shares(ops::flip(x, {0, 2}), x));
  EXPECT_TRUE(shares(ops::rot90(x, 1, {1, 2}), x));
  EXPECT_TRUE(shares(ops::moveaxis(x, 0, -1), x));
  EXPECT_TRUE(shares(ops::swapaxes(x, 0, 1), x));
  EXPECT_TRUE(shares(ops::diagonal(x, 1, 1, 2), x));
  EXPECT_TRUE(shares(ops::diag(ops::reshape(x, {6, 10})), x));
  for (const Tensor& p : ops::split(x, {1, 2}, 1)) EXPECT_TRUE(shares(p, x));
  for (const Tensor& p : ops::unstack(x, std::nullopt, -1)) EXPECT_TRUE(shares(p, x));
  EXPECT_TRUE(shares(ops::slice(x, {1, 0, 2}, {2, 4, -1}), x));
  EXPECT_TRUE(shares(x.index({1, Slice(None, None, -1), NewAxis, Ellipsis}), x));
  EXPECT_TRUE(shares(ops::view(x, DType::Int32), x));
  Tensor a = iota({3}), b = iota({4});
  TensorList grid = ops::meshgrid({a, b});
  EXPECT_TRUE(shares(grid[0], a));
  EXPECT_TRUE(shares(grid[1], b));
  // Advanced indexing and the copying ops do not alias their input.
  EXPECT_FALSE(shares(x.index({Tensor::from_vector(std::vector<int32_t>{0}, {1})}), x));
  EXPECT_FALSE(shares(ops::copy(x), x));
  EXPECT_FALSE(shares(ops::pad(x, 1), x));
}

TEST(ShapeSemantics, FlipViewValues) {
  Tensor x = iota({2, 3});
  Tensor f = ops::flip(x);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{5, 4, 3, 2, 1, 0}));
  EXPECT_LT(f.strides()[0], 0);
  // A view of a view, and a contiguous copy of it.
  EXPECT_EQ(ops::flip(f, 1).contiguous().to_vector<float>(), (std::vector<float>{3, 4, 5, 0, 1, 2}));
}

TEST(ShapeSemantics, IndexSpellings) {
  Tensor x = iota({3, 4});
  Tensor idx = Tensor::from_vector(std::vector<int64_t>{2, 0}, {2});
  EXPECT_EQ(x.index({idx, Slice(1, 3)}).to_vector<float>(), (std::vector<float>{9, 10, 1, 2}));
  EXPECT_EQ(ops::get_item(x, {-1, Slice(None, None, 2)}).to_vector<float>(), (std::vector<float>{8, 10}));
  std::vector<ops::Index> key{Ellipsis, idx};
  EXPECT_EQ(ops::get_item(x, key).shape(), Shape({3, 2}));
  Tensor mask = ops::greater(x, 9.0);
  EXPECT_EQ(x.index({mask}).to_vector<float>(), (std::vector<float>{10, 11}));
  EXPECT_EQ(x.index({}).shape(), x.shape());
  // A 0-d integer tensor indexes like an integer.
  EXPECT_EQ(x.index({ops::convert_to_tensor(Scalar(1), DType::Int32)}).shape(), Shape({4}));
}

TEST(ShapeSemantics, UninitializedAndCopies) {
  Tensor e = ops::empty({2, 3});
  EXPECT_EQ(e.shape(), Shape({2, 3}));
  EXPECT_EQ(e.dtype(), DType::Float32);
  Tensor el = ops::empty_like(iota({4}, DType::Int8), DType::Float16);
  EXPECT_EQ(el.shape(), Shape({4}));
  EXPECT_EQ(el.dtype(), DType::Float16);
  EXPECT_EQ(ops::empty({0, 5}, DType::Int64).size(), 0);
  Tensor c = ops::copy(ops::transpose(iota({2, 3})));
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(ops::ndim(c), 2);
  EXPECT_EQ(ops::size(c), 6);
}

TEST(ShapeSemantics, LargeTakeMatchesHostLoop) {
  // (outer 3) x (axis 50) x (inner 40): the row path with several outer positions; and the same
  // on a transposed input, which takes the general line path.
  const int64_t A = 3, N = 50, I = 40, K = 70;
  Tensor x = iota({A, N, I});
  std::vector<int32_t> idx(K);
  for (int64_t k = 0; k < K; ++k) idx[k] = static_cast<int32_t>((k * 37) % N) - (k % 3 == 0 ? N : 0);
  Tensor t = Tensor::from_vector(idx, {K});
  std::vector<float> expected;
  for (int64_t a = 0; a < A; ++a)
    for (int64_t k = 0; k < K; ++k) {
      int64_t j = idx[k] < 0 ? idx[k] + N : idx[k];
      for (int64_t i = 0; i < I; ++i) expected.push_back(static_cast<float>((a * N + j) * I + i));
    }
  EXPECT_EQ(ops::take(x, t, 1).to_vector<float>(), expected);
  Tensor xt = ops::transpose(ops::transpose(x, {2, 1, 0}).contiguous(), {2, 1, 0});
  EXPECT_EQ(ops::take(xt, t, 1).to_vector<float>(), expected);
}

TEST(ShapeSemantics, LargeScatterAddMatchesHostLoop) {
  // Many duplicate rows and rows wide enough to split into column blocks across threads.
  const int64_t slots = 7, rows = 300, inner = 5000;
  std::vector<int32_t> index(rows);
  for (int64_t r = 0; r < rows; ++r) index[r] = static_cast<int32_t>((r * r) % slots);
  std::vector<double> values(static_cast<size_t>(rows * inner));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>((i * 13) % 17) - 8.0;
  Tensor out = ops::scatter(Tensor::from_vector(index, {rows, 1}),
                            Tensor::from_vector(values, {rows, inner}), {slots, inner});
  std::vector<double> expected(static_cast<size_t>(slots * inner), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < inner; ++i) expected[index[r] * inner + i] += values[r * inner + i];
  EXPECT_EQ(out.to_vector<double>(), expected);
}

TEST(ShapeSemantics, TakeGradientSumsDuplicates) {
  Tensor x = iota({4, 3}, DType::Float64);
  Tensor idx = Tensor::from_vector(std::vector<int32_t>{1, 1, 3, 1}, {4});
  Tensor g = grad([&](const Tensor& y) { return ops::sum(ops::take(y, idx, 0)); }, x);
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{0, 0, 0, 3, 3, 3, 0, 0, 0, 1, 1, 1}));
}

TEST(ShapeSemantics, ScatterUpdateLastDuplicateWins) {
  Tensor x = ops::zeros({3});
  Tensor idx = Tensor::from_vector(std::vector<int32_t>{1, 2, 1}, {3, 1});
  Tensor u = Tensor::from_vector(std::vector<float>{5, 6, 7}, {3});
  EXPECT_EQ(ops::scatter_update(x, idx, u).to_vector<float>(), (std::vector<float>{0, 7, 6}));
}

}  // namespace
}  // namespace keras

// Inputs too large for fixtures, which take the cpu kernels' parallel and vectorized paths,
// against references computed on the host here.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

std::vector<float> wave(size_t n, double scale = 1.0) {
  std::vector<float> v(n);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(scale * std::sin(static_cast<double>(i) * 0.7 + 0.3));
  return v;
}

TEST(ReductionsLarge, FullReductionsSplitOverThreads) {
  const size_t n = 300007;  // not a multiple of the chunking
  std::vector<float> v = wave(n);
  Tensor x = Tensor::from_vector(v, {static_cast<int64_t>(n)});
  double sum = std::accumulate(v.begin(), v.end(), 0.0);
  EXPECT_NEAR(ops::sum(x).item<double>(), static_cast<float>(sum), 1e-6 * std::abs(sum) + 1e-3);
  EXPECT_NEAR(ops::mean(x).item<double>(), static_cast<float>(sum / n), 1e-6);
  EXPECT_EQ(ops::max(x).item<float>(), *std::max_element(v.begin(), v.end()));
  EXPECT_EQ(ops::min(x).item<float>(), *std::min_element(v.begin(), v.end()));
  ASSERT_EQ(std::count(v.begin(), v.end(), 0.0f), 0);
  EXPECT_TRUE(ops::all(x).item<bool>());
  std::vector<float> zeros(n, 0.0f);
  EXPECT_FALSE(ops::any(Tensor::from_vector(zeros, {static_cast<int64_t>(n)})).item<bool>());
  zeros[n - 2] = 0.5f;
  EXPECT_TRUE(ops::any(Tensor::from_vector(zeros, {static_cast<int64_t>(n)})).item<bool>());
  v[n / 3] = 0.0f;
  EXPECT_FALSE(ops::all(Tensor::from_vector(v, {static_cast<int64_t>(n)})).item<bool>());
  v[n / 3] = 0.25f;
  std::vector<float> near_one(n);
  double prod = 1;
  for (size_t i = 0; i < n; ++i) {
    near_one[i] = 1.0f + v[i] * 1e-4f;
    prod *= near_one[i];
  }
  EXPECT_NEAR(ops::prod(Tensor::from_vector(near_one, {static_cast<int64_t>(n)})).item<double>(),
              prod, 1e-6 * prod);
  // A NaN anywhere wins, in any chunk or lane.
  for (size_t at : {size_t{5}, n / 2 + 3, n - 1}) {
    std::vector<float> w = v;
    w[at] = std::numeric_limits<float>::quiet_NaN();
    Tensor xn = Tensor::from_vector(w, {static_cast<int64_t>(n)});
    EXPECT_TRUE(std::isnan(ops::max(xn).item<float>())) << at;
    EXPECT_TRUE(std::isnan(ops::min(xn).item<float>())) << at;
    EXPECT_EQ(ops::nanmax(xn).item<float>(), *std::max_element(v.begin(), v.end()));
  }
}

TEST(ReductionsLarge, SortsLongLines) {
  const size_t n = 200003;
  std::vector<float> v = wave(n, 100.0);
  for (size_t i = 0; i < n; i += 97) v[i] = std::round(v[i]);  // ties
  v[1234] = std::numeric_limits<float>::quiet_NaN();
  Tensor x = Tensor::from_vector(v, {static_cast<int64_t>(n)});
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (std::isnan(v[a])) return false;
    if (std::isnan(v[b])) return true;
    return v[a] < v[b];
  });
  std::vector<int32_t> got = ops::argsort(x).to_vector<int32_t>();
  ASSERT_EQ(got.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], order[i]) << i;
  std::vector<float> sorted = ops::sort(x).to_vector<float>();
  for (size_t i = 0; i + 1 < n; ++i) ASSERT_EQ(sorted[i], v[order[i]]) << i;
  EXPECT_TRUE(std::isnan(sorted.back()));
  // Descending (top_k): NaN first, then largest, ties by lower index.
  auto [values, indices] = ops::top_k(x, 5);
  std::vector<int64_t> desc(n);
  std::iota(desc.begin(), desc.end(), 0);
  std::stable_sort(desc.begin(), desc.end(), [&](int64_t a, int64_t b) {
    if (std::isnan(v[b])) return false;
    if (std::isnan(v[a])) return true;
    return v[a] > v[b];
  });
  std::vector<int32_t> top = indices.to_vector<int32_t>();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(top[i], desc[i]) << i;
}

TEST(ReductionsLarge, ScansAndSearches) {
  const int64_t rows = 300, cols = 257;
  std::vector<float> v = wave(static_cast<size_t>(rows * cols));
  Tensor x = Tensor::from_vector(v, {rows, cols});
  std::vector<float> down = ops::cumsum(x, 0).to_vector<float>();
  std::vector<double> acc(static_cast<size_t>(cols), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      acc[j] += v[i * cols + j];
      ASSERT_NEAR(down[i * cols + j], acc[j], 1e-4) << i << "," << j;
    }
  // searchsorted on a long sequence against std::lower_bound / upper_bound.
  std::vector<float> seq = wave(100000, 10.0);
  std::sort(seq.begin(), seq.end());
  std::vector<float> queries = wave(5000, 12.0);
  Tensor s = Tensor::from_vector(seq, {100000}), q = Tensor::from_vector(queries, {5000});
  std::vector<int32_t> left = ops::searchsorted(s, q).to_vector<int32_t>();
  std::vector<int32_t> right = ops::searchsorted(s, q, "right").to_vector<int32_t>();
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_EQ(left[i], std::lower_bound(seq.begin(), seq.end(), queries[i]) - seq.begin()) << i;
    ASSERT_EQ(right[i], std::upper_bound(seq.begin(), seq.end(), queries[i]) - seq.begin()) << i;
  }
}

}  // namespace
}  // namespace keras

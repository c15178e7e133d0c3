// Bad inputs: each raises the right error type with a message naming the op and the shapes
// or values that were passed.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

template <typename E, typename F>
void expect_error(F&& f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "expected an error mentioning " << fragments.front();
  } catch (const E& e) {
    const std::string what = e.what();
    for (const auto& frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << "'" << frag << "' not in: " << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong error type: " << e.what();
  }
}

Tensor f32(const Shape& shape) {
  return ops::zeros(shape, DType::Float32);
}
Tensor i32(const std::vector<int32_t>& v, const Shape& shape) {
  return Tensor::from_vector(v, shape);
}

TEST(ReductionsErrors, Reductions) {
  expect_error<ValueError>([] { ops::amax(f32({0, 3}), 0); }, {"amax", "(0, 3)"});
  expect_error<ValueError>([] { ops::ptp(f32({2, 0})); }, {"ptp", "(2, 0)"});
  expect_error<ValueError>([] { ops::sum(f32({2, 3, 4}), 3); }, {"sum", "axis 3", "rank 3"});
  expect_error<ValueError>([] { ops::prod(f32({2, 3}), {1, -1}); }, {"prod", "repeated"});
  expect_error<ValueError>([] { ops::argmax(f32({0, 3}), 0); }, {"argmax", "(0, 3)"});
  expect_error<ValueError>([] { ops::nanargmin(f32({4}), 1); }, {"nanargmin", "axis 1"});
  expect_error<ValueError>([] { ops::cumsum(f32({2, 3}), 2); }, {"cumsum", "axis 2"});
  expect_error<ValueError>([] { ops::logsumexp(f32({2}), {0, 1}); }, {"logsumexp", "axis 1"});
  expect_error<ValueError>(
      [] {
        ops::trapezoid(f32({3, 6}), f32({5}));
      },
      {"trapezoid", "(5,)", "(3, 6)"});
}

TEST(ReductionsErrors, Statistics) {
  expect_error<ValueError>(
      [] {
        ops::average(f32({3, 4}), {}, f32({4}));
      },
      {"average", "(3, 4)", "(4,)"});
  expect_error<ValueError>(
      [] {
        ops::average(f32({3, 4}), 1, f32({3}));
      },
      {"average", "(3, 4)", "length 3"});
  expect_error<ValueError>([] { ops::corrcoef(f32({2, 3, 4})); }, {"corrcoef", "(2, 3, 4)"});
  expect_error<ValueError>([] { ops::quantile(f32({5}), f32({2, 2})); }, {"quantile", "(2, 2)"});
  expect_error<ValueError>([] { ops::quantile(f32({5}), 1.5); }, {"quantile", "[0, 1]"});
  expect_error<ValueError>([] { ops::percentile(f32({5}), -3.0); }, {"percentile", "[0, 100]"});
  expect_error<ValueError>([] { ops::median(f32({5}), 2); }, {"median", "axis 2"});
  expect_error<ValueError>([] { ops::nanquantile(f32({5}), 0.5, {}, "closest"); },
                           {"nanquantile", "'closest'"});
  expect_error<ValueError>([] { ops::histogram(f32({2, 3})); }, {"histogram", "(2, 3)"});
  expect_error<ValueError>([] { ops::histogram(f32({4}), -1); }, {"histogram", "-1"});
  expect_error<ValueError>([] { ops::histogram(f32({4}), 3, std::pair(2.0, 1.0)); },
                           {"histogram", "(2, 1)"});
  expect_error<ValueError>([] { ops::bincount(i32({1, -2}, {2})); }, {"bincount", "-2"});
  expect_error<TypeError>([] { ops::bincount(f32({3})); }, {"bincount", "float32"});
  expect_error<ValueError>(
      [] {
        ops::bincount(i32({1, 2, 3}, {3}), f32({2}));
      },
      {"bincount", "(3,)", "(2,)"});
  expect_error<ValueError>([] { ops::bincount(i32({1}, {1}), Tensor(), -1); },
                           {"bincount", "minlength"});
}

TEST(ReductionsErrors, SortingAndSearching) {
  expect_error<ValueError>([] { ops::sort(f32({2, 3}), 2); }, {"sort", "axis 2"});
  expect_error<ValueError>([] { ops::argsort(f32({2, 3}), -3); }, {"argsort", "axis -3"});
  expect_error<ValueError>(
      [] {
        ops::argpartition(f32({2, 8}), 8);
      },
      {"argpartition", "kth=8", "(2, 8)"});
  expect_error<ValueError>(
      [] {
        ops::searchsorted(f32({2, 3}), f32({2}));
      },
      {"searchsorted", "(2, 3)"});
  expect_error<ValueError>([] { ops::searchsorted(f32({3}), f32({2}), "middle"); },
                           {"searchsorted", "'middle'"});
  expect_error<ValueError>([] { ops::digitize(f32({3}), f32({2, 2})); }, {"digitize", "(2, 2)"});
  Tensor unordered = Tensor::from_vector(std::vector<float>{0, 2, 1}, {3});
  expect_error<ValueError>([&] { ops::digitize(f32({3}), unordered); }, {"digitize", "monoton"});
  expect_error<ValueError>([] { ops::nonzero(f32({})); }, {"nonzero", "0-d"});
  expect_error<ValueError>([] { ops::unique(f32({2, 3}), {.axis = 2}); }, {"unique", "axis 2"});
  expect_error<ValueError>([] { ops::unique(f32({2}), {.size = -1}); }, {"unique", "-1"});
}

TEST(ReductionsErrors, MathReductions) {
  expect_error<ValueError>([] { ops::top_k(f32({2, 6}), 7); }, {"top_k", "k=7", "(2, 6)"});
  expect_error<ValueError>([] { ops::top_k(f32({}), 1); }, {"top_k", "0-d"});
  expect_error<ValueError>(
      [] {
        ops::in_top_k(i32({0, 1}, {2}), f32({4, 4}), 1);
      },
      {"in_top_k", "(2,)", "(4, 4)"});
  expect_error<TypeError>([] { ops::in_top_k(f32({4}), f32({4, 4}), 1); }, {"in_top_k", "float32"});
  expect_error<ValueError>(
      [] {
        ops::segment_sum(f32({7, 3}), i32({0, 1, 0, 1, 0, 1, 0}, {7, 1}), 2);
      },
      {"segment_sum", "(7, 1)"});
  expect_error<ValueError>(
      [] {
        ops::segment_max(f32({7, 3}), i32({0, 1, 0, 1, 0}, {5}), 2);
      },
      {"segment_max", "(5,)", "(7, 3)"});
  expect_error<TypeError>([] { ops::segment_min(f32({3}), f32({3}), 2); },
                          {"segment_min", "float32"});
  expect_error<ValueError>(
      [] {
        ops::segment_prod(f32({3}), i32({0, 0, 1}, {3}), -2);
      },
      {"segment_prod", "-2"});
}

TEST(ReductionsErrors, IndicesNeverLeaveTheirRange) {
  // Out-of-range ids and targets are dropped or answered false, never read or written.
  Tensor data = Tensor::from_vector(std::vector<float>{1, 2, 3, 4}, {4});
  Tensor ids = i32({-5, 100, 1, 1}, {4});
  EXPECT_TENSOR_EQ(ops::segment_sum(data, ids, 2), test::make({0, 7}, {2}));
  Tensor inferred = ops::segment_sum(data, ids);  // max id + 1 segments; -5 is dropped
  EXPECT_EQ(inferred.shape(), Shape{101});
  EXPECT_EQ(ops::sum(inferred).item<float>(), 9.0f);
  Tensor pred = Tensor::from_vector(std::vector<float>{0.1f, 0.9f, 0.5f, 0.2f}, {2, 2});
  Tensor got = ops::in_top_k(i32({-1, 9}, {2}), pred, 2);
  EXPECT_EQ(got.to_vector<bool>(), (std::vector<bool>{false, false}));
}

}  // namespace
}  // namespace keras

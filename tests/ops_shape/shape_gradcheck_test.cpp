// Every differentiable op of the shape family against central differences in float64.

#include <gtest/gtest.h>

#include <cmath>

#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;
using test::sin_values;

using Fn = test::GradFn;

Tensor ints(const std::vector<int64_t>& v, const Shape& shape) {
  return Tensor::from_vector(v, shape);
}

TEST(ShapeGradcheck, Views) {
  Tensor a = randn({2, 3, 4}, 1);
  expect_gradcheck("reshape", [](auto& x) { return ops::reshape(x[0], {6, -1}); }, {a});
  expect_gradcheck("ravel", [](auto& x) { return ops::ravel(ops::transpose(x[0])); }, {a});
  expect_gradcheck("transpose", [](auto& x) { return ops::transpose(x[0], {1, 2, 0}); }, {a});
  expect_gradcheck("expand_dims", [](auto& x) { return ops::expand_dims(x[0], {0, -1}); }, {a});
  expect_gradcheck("squeeze", [](auto& x) { return ops::squeeze(ops::reshape(x[0], {1, 6, 1, 4}), 2); }, {a});
  expect_gradcheck("broadcast_to", [](auto& x) { return ops::broadcast_to(x[0], {2, 2, 3, 4}); }, {a});
  expect_gradcheck("flip", [](auto& x) { return ops::flip(x[0], {0, 2}); }, {a});
  expect_gradcheck("flip_all", [](auto& x) { return ops::flip(x[0]); }, {a});
  expect_gradcheck("fliplr", [](auto& x) { return ops::fliplr(x[0]); }, {a});
  expect_gradcheck("flipud", [](auto& x) { return ops::flipud(x[0]); }, {a});
  expect_gradcheck("moveaxis", [](auto& x) { return ops::moveaxis(x[0], {0, 1}, {2, 0}); }, {a});
  expect_gradcheck("swapaxes", [](auto& x) { return ops::swapaxes(x[0], 0, -1); }, {a});
  for (int k : {1, 2, 3})
    expect_gradcheck("rot90_" + std::to_string(k),
                     [k](auto& x) { return ops::rot90(x[0], k, {2, 0}); }, {a});
  expect_gradcheck("diagonal", [](auto& x) { return ops::diagonal(x[0], 1, 2, 1); }, {a});
  expect_gradcheck("diagonal_neg", [](auto& x) { return ops::diagonal(x[0], -1); }, {a});
  expect_gradcheck("core_slice", [](auto& x) { return ops::slice(x[0], {1, 0, 1}, {1, -1, 2}); }, {a});
  expect_gradcheck("array", [](auto& x) { return ops::array(x[0]); }, {a});
  expect_gradcheck("copy", [](auto& x) { return ops::copy(ops::transpose(x[0])); }, {a});
}

TEST(ShapeGradcheck, JoinsAndSplits) {
  Tensor a = randn({2, 3}, 2), b = randn({2, 3}, 3), v = randn({3}, 4), w = randn({3}, 5);
  expect_gradcheck("concatenate", [](auto& x) { return ops::concatenate({x[0], x[1], x[0]}, -1); }, {a, b});
  expect_gradcheck("stack", [](auto& x) { return ops::stack({x[0], x[1]}, 1); }, {a, b});
  expect_gradcheck("append_flat", [](auto& x) { return ops::append(x[0], x[1]); }, {a, v});
  expect_gradcheck("append_axis", [](auto& x) { return ops::append(x[0], x[1], 0); }, {a, b});
  expect_gradcheck("hstack", [](auto& x) { return ops::hstack({x[0], x[1]}); }, {a, b});
  expect_gradcheck("vstack", [](auto& x) { return ops::vstack({x[0], x[1]}); }, {v, a});
  expect_gradcheck("dstack", [](auto& x) { return ops::dstack({x[0], x[1]}); }, {a, b});
  expect_gradcheck("column_stack", [](auto& x) { return ops::column_stack({x[0], x[1]}); }, {v, w});
  Tensor c = randn({6, 4}, 6);
  auto join = [](const TensorList& parts) {
    // Reversed, so each piece lands somewhere else than where it came from.
    return ops::concatenate(TensorList(parts.rbegin(), parts.rend()), 0);
  };
  expect_gradcheck("split", [join](auto& x) { return join(ops::split(x[0], {1, 4})); }, {c});
  expect_gradcheck("array_split", [join](auto& x) { return join(ops::array_split(x[0], 4)); }, {c});
  expect_gradcheck("hsplit", [](auto& x) {
    TensorList p = ops::hsplit(x[0], 2);
    return ops::subtract(p[0], ops::multiply(p[1], 3.0));
  }, {c});
  expect_gradcheck("vsplit", [join](auto& x) { return join(ops::vsplit(x[0], 3)); }, {c});
  Tensor d = randn({2, 3, 4}, 7);
  expect_gradcheck("dsplit", [](auto& x) {
    TensorList p = ops::dsplit(x[0], {1});
    return ops::concatenate({p[1], ops::square(p[0])}, 2);
  }, {d});
  expect_gradcheck("unstack", [](auto& x) {
    TensorList p = ops::unstack(x[0], std::nullopt, 1);
    return ops::stack({p[2], ops::square(p[0]), p[1]});
  }, {d});
}

TEST(ShapeGradcheck, Rearrangements) {
  Tensor a = randn({3, 4}, 8);
  expect_gradcheck("tile", [](auto& x) { return ops::tile(x[0], {2, 1, 3}); }, {a});
  expect_gradcheck("repeat", [](auto& x) { return ops::repeat(x[0], 3, 1); }, {a});
  expect_gradcheck("repeat_flat", [](auto& x) { return ops::repeat(x[0], 2); }, {a});
  expect_gradcheck("repeat_counts", [](auto& x) { return ops::repeat(x[0], {2, 0, 3}, 0); }, {a});
  expect_gradcheck("roll_flat", [](auto& x) { return ops::roll(x[0], 5); }, {a});
  expect_gradcheck("roll_axes", [](auto& x) { return ops::roll(x[0], {-1, 6}, {0, 1}); }, {a});
  expect_gradcheck("diff", [](auto& x) { return ops::diff(x[0], 2, 1); }, {a});
  expect_gradcheck("diff_axis0", [](auto& x) { return ops::diff(x[0], 1, 0); }, {a});
  expect_gradcheck("pad_constant", [](auto& x) { return ops::pad(x[0], {{1, 2}, {0, 3}}, "constant", 2.5); }, {a});
  for (const char* mode : {"edge", "reflect", "symmetric", "wrap"})
    expect_gradcheck(std::string("pad_") + mode,
                     [mode](auto& x) { return ops::pad(x[0], {{2, 1}, {5, 4}}, mode); }, {a});
}

TEST(ShapeGradcheck, Matrices) {
  Tensor a = randn({2, 4, 5}, 9), v = randn({4}, 10);
  expect_gradcheck("tril", [](auto& x) { return ops::tril(x[0], 1); }, {a});
  expect_gradcheck("triu", [](auto& x) { return ops::triu(x[0], -1); }, {a});
  expect_gradcheck("diag_1d", [](auto& x) { return ops::diag(x[0], -2); }, {v});
  expect_gradcheck("diag_2d", [](auto& x) { return ops::diag(x[0], 1); }, {randn({4, 5}, 11)});
  expect_gradcheck("diagflat", [](auto& x) { return ops::diagflat(x[0], 1); }, {randn({2, 2}, 12)});
  expect_gradcheck("trace", [](auto& x) { return ops::trace(x[0], 1, 1, 2); }, {a});
  expect_gradcheck("vander", [](auto& x) { return ops::vander(x[0], 4); }, {v});
  expect_gradcheck("vander_increasing", [](auto& x) { return ops::vander(x[0], 3, true); }, {v});
  expect_gradcheck("meshgrid", [](auto& x) {
    TensorList g = ops::meshgrid({x[0], x[1], x[2]});
    return ops::stack({g[0], ops::square(g[1]), ops::multiply(g[2], 2.0)});
  }, {randn({3}, 13), randn({2}, 14), randn({4}, 15)});
}

TEST(ShapeGradcheck, Ranges) {
  Tensor s = randn({2}, 16), e = randn({3, 2}, 17), pos = randn({2}, 18, 0.5, 2.0);
  expect_gradcheck("linspace", [](auto& x) { return ops::linspace(x[0], x[1], 5); }, {s, e});
  expect_gradcheck("linspace_axis", [](auto& x) {
    return ops::linspace(x[0], x[1], 4, {.endpoint = false, .axis = -1});
  }, {s, e});
  expect_gradcheck("logspace", [](auto& x) {
    return ops::logspace(x[0], x[1], 4, {.base = 2.0});
  }, {s, randn({2}, 19)});
  expect_gradcheck("geomspace", [](auto& x) { return ops::geomspace(x[0], x[1], 6); },
                   {pos, randn({2}, 20, 0.3, 3.0)});
}

TEST(ShapeGradcheck, Indexing) {
  Tensor a = randn({4, 5}, 21), b = randn({3, 4, 5}, 22);
  Tensor idx = ints({1, -1, 1, 0, 3, 3}, {2, 3});
  expect_gradcheck("take_flat", [idx](auto& x) { return ops::take(x[0], idx); }, {a});
  expect_gradcheck("take_axis0", [idx](auto& x) { return ops::take(x[0], idx, 0); }, {a});
  expect_gradcheck("take_axis1", [idx](auto& x) { return ops::take(x[0], idx, 1); }, {b});
  expect_gradcheck("take_scalar", [](auto& x) { return ops::take(x[0], -2, -1); }, {b});
  Tensor along = ints({0, 4, 4, 1, 2, -1, 3, 3}, {4, 2});
  expect_gradcheck("take_along_axis", [along](auto& x) { return ops::take_along_axis(x[0], along, 1); }, {a});
  Tensor bcast = ints({2, 0, 2}, {1, 3});
  expect_gradcheck("take_along_axis_broadcast",
                   [bcast](auto& x) { return ops::take_along_axis(x[0], bcast, -1); }, {a});
  expect_gradcheck("take_along_axis_broadcast_x",
                   [](auto& x) { return ops::take_along_axis(x[0], ints({1, 1, 0, 4}, {2, 2}), 1); },
                   {randn({1, 5}, 23)});
  Tensor c1 = ops::greater(randn({4, 5}, 24), 0.5), c2 = ops::less(randn({5}, 25), 0.0);
  expect_gradcheck("select", [c1, c2](auto& x) { return ops::select({c1, c2}, {x[0], x[1]}, x[2]); },
                   {a, randn({5}, 26), randn({1, 5}, 27)});
}

TEST(ShapeGradcheck, GetItem) {
  Tensor x = randn({3, 4, 5}, 28);
  Tensor i2 = ints({2, 0}, {2}), j2 = ints({1, 3}, {2, 1});
  Tensor mask = ops::greater(randn({3, 4}, 29), 0.0);
  std::vector<std::pair<std::string, std::vector<ops::Index>>> keys = {
      {"basic", {1, Slice(None, None, -2), Ellipsis}},
      {"newaxis", {NewAxis, Slice(1, 3), NewAxis, -1}},
      {"advanced", {i2}},
      {"advanced_repeated", {Ellipsis, ints({4, 4, 0}, {3})}},
      {"advanced_pair", {Slice(), i2, j2}},
      {"advanced_separated", {i2, Slice(), j2}},
      {"advanced_int", {0, Slice(1, None), i2}},
      {"mask", {mask}},
      {"mask_with_slice", {mask, Slice(None, None, 2)}},
      {"bool_0d", {ops::convert_to_tensor(Scalar(true))}},
  };
  for (auto& [name, key] : keys) {
    expect_gradcheck("get_item_" + name, [key](auto& t) { return ops::get_item(t[0], key); }, {x});
  }
  expect_gradcheck("tensor_index", [i2](auto& t) { return t[0].index({Slice(), 2, i2}); },
                   {randn({2, 3, 4}, 30)});
}

TEST(ShapeGradcheck, CoreUpdates) {
  Tensor base = randn({4, 3}, 31);
  Tensor rows = ints({1, 3, 1}, {3, 1});
  Tensor points = ints({0, 0, 2, 1, 0, 0}, {3, 2});
  expect_gradcheck("scatter", [rows](auto& x) { return ops::scatter(rows, x[0], {5, 3}); },
                   {randn({3, 3}, 32)});
  expect_gradcheck("scatter_points", [points](auto& x) { return ops::scatter(points, x[0], {4, 3}); },
                   {randn({3}, 33)});
  Tensor unique_rows = ints({3, 0}, {2, 1});
  expect_gradcheck("scatter_update_assign",
                   [unique_rows](auto& x) { return ops::scatter_update(x[0], unique_rows, x[1]); },
                   {base, randn({2, 3}, 34)});
  expect_gradcheck("scatter_update_assign_dupes",
                   [points](auto& x) { return ops::scatter_update(x[0], points, x[1]); },
                   {base, randn({3}, 35)});
  for (const char* red : {"add", "max", "min", "mul"})
    expect_gradcheck(std::string("scatter_update_") + red,
                     [points, red](auto& x) { return ops::scatter_update(x[0], points, x[1], red); },
                     {base, randn({3}, 36, 1.0, 0.2)});
  expect_gradcheck("slice_update", [](auto& x) { return ops::slice_update(x[0], {1, 1}, x[1]); },
                   {base, randn({2, 2}, 37)});
  // float16 holds multiples of 1/4 exactly in this range: steps of 1/4 stay exact, and 70000
  // saturates (gradient 0). The analytic side sees the cotangent rounded to float16 by the
  // casts' own rules (measured error 2.2e-4), hence the float16 tolerance.
  Tensor halfs = Tensor::from_vector(std::vector<double>{0.5, -3.25, 7.0, 70000.0, -80000.0}, {5});
  expect_gradcheck("saturate_cast", [](auto& x) {
    return ops::cast(ops::saturate_cast(x[0], DType::Float16), DType::Float64);
  }, {halfs}, {.eps = 0.25, .atol = 1e-3, .rtol = 1e-3});
}

TEST(ShapeGradcheck, SecondOrder) {
  // The gradient rules are themselves differentiable: gather <-> scatter-add, slice <-> embed,
  // diagonal <-> diagonal embed.
  Tensor idx = ints({2, 0, 2}, {3});
  // An inner tape on the checked input (keras::grad watches a fresh alias, which would cut the
  // outer tape off).
  auto second = [](std::function<Tensor(const Tensor&)> f) {
    return [f](const std::vector<Tensor>& x) {
      Tensor y = x[0];
      GradientTape tape;
      tape.watch(y);
      return tape.gradient(ops::sum(ops::square(f(y))), y);
    };
  };
  Tensor a = randn({3, 4}, 38);
  expect_gradcheck("take_2nd", second([idx](const Tensor& y) { return ops::take(y, idx, 1); }), {a});
  expect_gradcheck("get_item_2nd",
                   second([idx](const Tensor& y) { return ops::multiply(y.index({idx}), y.index({idx})); }),
                   {a});
  expect_gradcheck("pad_2nd", second([](const Tensor& y) { return ops::pad(ops::exp(y), 1); }), {a});
  expect_gradcheck("diagonal_2nd", second([](const Tensor& y) { return ops::exp(ops::diagonal(y)); }), {a});
}

}  // namespace
}  // namespace keras

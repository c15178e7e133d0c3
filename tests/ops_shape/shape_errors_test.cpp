// Bad inputs: the error type, and a message that names the op and the values passed.

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "keras/keras.h"

namespace keras {
namespace {

// Runs fn, expecting an E whose message contains every fragment.
template <typename E>
void expect_error(const std::function<void()>& fn, const std::vector<std::string>& fragments) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected a message with '" << fragments.front() << "'";
  } catch (const E& e) {
    const std::string message = e.what();
    for (const std::string& f : fragments)
      EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong error type: " << e.what();
  }
}

Tensor f32(const Shape& shape) { return ops::zeros(shape); }
Tensor i32(const std::vector<int32_t>& v, const Shape& shape) { return Tensor::from_vector(v, shape); }

TEST(ShapeErrors, Views) {
  expect_error<ValueError>([] { ops::broadcast_to(f32({3}), {4}); }, {"broadcast_to", "(3,)", "(4,)"});
  expect_error<ValueError>([] { ops::flip(f32({2, 3}), 2); }, {"flip", "axis 2", "rank 2"});
  expect_error<ValueError>([] { ops::fliplr(f32({3})); }, {"fliplr", "(3,)"});
  expect_error<ValueError>([] { ops::flipud(f32({})); }, {"flipud", "()"});
  expect_error<ValueError>([] { ops::moveaxis(f32({2, 3, 4}), {0, 0}, {1, 2}); }, {"moveaxis", "repeated"});
  expect_error<ValueError>([] { ops::moveaxis(f32({2, 3, 4}), {0, 1}, {1}); },
                           {"moveaxis", "(2, 3, 4)"});
  expect_error<ValueError>([] { ops::swapaxes(f32({2, 3}), 0, 5); }, {"swapaxes", "axis 5"});
  expect_error<ValueError>([] { ops::rot90(f32({2, 3}), 1, {1, -1}); }, {"rot90", "(2, 3)"});
  expect_error<ValueError>([] { ops::view(f32({}), DType::Float16); }, {"view", "0-d", "float32"});
  expect_error<ValueError>([] { ops::view(ops::zeros({3}, DType::UInt8), DType::Int16); },
                           {"view", "(3,)", "uint8", "int16"});
  expect_error<ValueError>([] { ops::diagonal(f32({3}), 0); }, {"diagonal", "(3,)"});
  expect_error<ValueError>([] { ops::diagonal(f32({2, 3}), 0, 1, -1); }, {"diagonal", "axis1", "(2, 3)"});
  expect_error<ValueError>([] { ops::trace(f32({2, 3}), 0, 0, 3); }, {"diagonal", "axis 3"});
}

TEST(ShapeErrors, JoinsAndSplits) {
  expect_error<ValueError>([] { ops::concatenate({f32({2, 3}), f32({3})}); },
                           {"concatenate", "(2, 3)", "(3,)"});
  expect_error<ValueError>([] { ops::append(f32({2, 3}), f32({2, 4}), 0); },
                           {"concatenate", "(2, 3)", "(2, 4)"});
  expect_error<ValueError>([] { ops::vstack({f32({2, 3}), f32({2, 4})}); }, {"(2, 3)", "(2, 4)"});
  expect_error<ValueError>([] { ops::hstack({}); }, {"hstack"});
  expect_error<ValueError>([] { ops::split(f32({6, 4}), 4); }, {"split", "(6, 4)", "4 equal"});
  expect_error<ValueError>([] { ops::split(f32({6, 4}), 0); }, {"split", "positive"});
  expect_error<ValueError>([] { ops::split(f32({}), 1); }, {"split", "0-d"});
  expect_error<ValueError>([] { ops::array_split(f32({6}), -1); }, {"array_split", "-1"});
  expect_error<ValueError>([] { ops::vsplit(f32({4}), 2); }, {"vsplit", "(4,)"});
  expect_error<ValueError>([] { ops::dsplit(f32({2, 2}), 2); }, {"dsplit", "(2, 2)"});
  expect_error<ValueError>([] { ops::hsplit(f32({}), 2); }, {"hsplit", "()"});
  expect_error<ValueError>([] { ops::unstack(f32({2, 3}), 2, 1); }, {"unstack", "num=2", "(2, 3)"});
  expect_error<ValueError>([] { ops::unstack(f32({})); }, {"unstack", "0-d"});
}

TEST(ShapeErrors, Rearrangements) {
  expect_error<ValueError>([] { ops::tile(f32({2}), {-1}); }, {"tile", "[-1]"});
  expect_error<ValueError>([] { ops::repeat(f32({2, 3}), -1); }, {"repeat", "-1"});
  expect_error<ValueError>([] { ops::repeat(f32({2, 3}), {1, 2}, 1); }, {"repeat", "(2, 3)", "2 repeat counts"});
  expect_error<ValueError>([] { ops::repeat(f32({3}), {1, -2, 1}, 0); }, {"repeat", "[1, -2, 1]"});
  expect_error<ValueError>([] { ops::roll(f32({3, 4}), {1, 2, 3}, {0, 1}); }, {"roll", "[1, 2, 3]"});
  expect_error<ValueError>([] { ops::roll(f32({3, 4}), {1, 2}, {}); }, {"roll", "axis None"});
  expect_error<ValueError>([] { ops::roll(f32({3, 4}), 1, 2); }, {"roll", "axis 2"});
  expect_error<ValueError>([] { ops::diff(f32({}), 1); }, {"diff", "0-d"});
  expect_error<ValueError>([] { ops::diff(f32({3}), -1); }, {"diff", "-1"});
  expect_error<ValueError>([] { ops::pad(f32({3, 4}), {{1, 1}, {1, 1}, {1, 1}}); },
                           {"pad", "(3, 4)", "((1, 1), (1, 1), (1, 1))"});
  expect_error<ValueError>([] { ops::pad(f32({3, 4}), {{-1, 1}}); }, {"pad", "non-negative", "(-1, 1)"});
  expect_error<ValueError>([] { ops::pad(f32({3, 4}), 1, "edge", 1.0); }, {"pad", "constant_values", "edge"});
  expect_error<ValueError>([] { ops::pad(f32({3, 4}), 1, "median"); }, {"pad", "median", "reflect"});
  expect_error<ValueError>([] { ops::pad(f32({0, 2}), 1, "wrap"); }, {"pad", "(0, 2)", "extent 0"});
}

TEST(ShapeErrors, Creation) {
  expect_error<ValueError>([] { ops::linspace(0, 1, -1); }, {"linspace", "-1"});
  expect_error<ValueError>([] { ops::linspace(f32({2}), f32({3}), 4); }, {"linspace", "(2,)", "(3,)"});
  expect_error<ValueError>([] { ops::linspace(f32({2}), 1, 4, {.axis = 2}); }, {"linspace", "axis 2"});
  expect_error<ValueError>([] { ops::geomspace(-1, 10, 3); }, {"geomspace", "same sign"});
  expect_error<ValueError>([] { ops::geomspace(0.0, 10, 3); }, {"geomspace", "nonzero"});
  expect_error<ValueError>([] { ops::eye(-1); }, {"eye", "N", "-1"});
  expect_error<ValueError>([] { ops::tri(2, -3); }, {"tri", "M", "-3"});
  expect_error<ValueError>([] { ops::tril(f32({3})); }, {"tril", "(3,)"});
  expect_error<ValueError>([] { ops::triu(f32({})); }, {"triu", "()"});
  expect_error<ValueError>([] { ops::diag(f32({2, 2, 2})); }, {"diag", "(2, 2, 2)"});
  expect_error<ValueError>([] { ops::vander(f32({2, 2})); }, {"vander", "(2, 2)"});
  expect_error<ValueError>([] { ops::vander(f32({2}), -1); }, {"vander", "N", "-1"});
  expect_error<TypeError>([] { ops::vander(ops::zeros({2}, DType::Bool)); }, {"vander", "bool"});
  expect_error<ValueError>([] { ops::meshgrid({f32({2})}, "xz"); }, {"meshgrid", "xz"});
  expect_error<ValueError>([] { ops::meshgrid({f32({2}), f32({2, 2})}); }, {"meshgrid", "input 1", "(2, 2)"});
}

TEST(ShapeErrors, Indexing) {
  Tensor x = f32({4, 5});
  expect_error<IndexError>([&] { ops::take(x, i32({5}, {1}), 0); }, {"take", "index 5", "axis 0", "size 4"});
  expect_error<IndexError>([&] { ops::take(x, i32({-6}, {1}), 1); }, {"take", "-6", "size 5"});
  expect_error<IndexError>([&] { ops::take(x, ops::ones({1}), 0); }, {"take", "float32"});
  expect_error<ValueError>([&] { ops::take(x, i32({0}, {1}), 2); }, {"take", "axis 2"});
  expect_error<ValueError>([&] { ops::take_along_axis(x, i32({1}, {1}), 1); },
                           {"take_along_axis", "(4, 5)", "(1,)"});
  expect_error<ValueError>([&] { ops::take_along_axis(x, i32({0, 0, 0}, {3, 1}), 1); },
                           {"take_along_axis", "(4, 5)", "(3, 1)", "broadcast"});
  expect_error<IndexError>([&] { ops::take_along_axis(x, i32({5}, {1, 1}), 1); }, {"take_along_axis", "index 5"});
  expect_error<ValueError>([] { ops::select({}, {}); }, {"select", "empty"});
  expect_error<ValueError>([] { ops::select({ops::ones({1}, DType::Bool)}, {f32({1}), f32({1})}); },
                           {"select", "1 entries", "2"});
  expect_error<TypeError>([] { ops::select({i32({1}, {1})}, {f32({1})}); }, {"select", "int32"});
  expect_error<IndexError>([] { ops::unravel_index(i32({12}, {1}), {3, 4}); }, {"unravel_index", "12"});
  expect_error<TypeError>([] { ops::unravel_index(ops::ones({1}), {3, 4}); }, {"unravel_index", "float32"});
}

TEST(ShapeErrors, GetItem) {
  Tensor x = f32({3, 4, 5});
  expect_error<IndexError>([&] { x.index({0, 0, 0, 0}); }, {"get_item", "too many", "(3, 4, 5)"});
  expect_error<IndexError>([&] { x.index({3}); }, {"index 3", "axis 0", "size 3"});
  expect_error<IndexError>([&] { x.index({Slice(), -5}); }, {"index -5", "axis 1"});
  expect_error<IndexError>([&] { x.index({Ellipsis, Ellipsis}); }, {"single Ellipsis"});
  expect_error<IndexError>([&] { x.index({i32({0, 3}, {2})}); }, {"get_item", "index 3", "size 3"});
  expect_error<IndexError>([&] { x.index({ops::ones({2}, DType::Bool)}); },
                           {"boolean index", "(2,)", "(3, 4, 5)"});
  expect_error<IndexError>([&] { x.index({ops::ones({1})}); }, {"integer or bool", "float32"});
  expect_error<IndexError>([&] { x.index({i32({0, 1}, {2}), i32({0, 1, 2}, {3})}); },
                           {"cannot be broadcast", "tensor(2,) int32", "tensor(3,) int32"});
  expect_error<ValueError>([&] { x.index({Slice(None, None, 0)}); }, {"step", "zero"});
  expect_error<ValueError>([] { Tensor().index({0}); }, {"undefined"});
}

TEST(ShapeErrors, CoreUpdates) {
  expect_error<IndexError>([] { ops::scatter(i32({3}, {1, 1}), ops::ones({1}), {3}); },
                           {"scatter", "index 3", "size 3"});
  expect_error<TypeError>([] { ops::scatter(ops::ones({1, 1}), ops::ones({1}), {3}); }, {"scatter", "float32"});
  expect_error<ValueError>([] { ops::scatter(i32({1, 1, 1}, {1, 3}), ops::ones({1}), {3, 3}); },
                           {"scatter", "(1, 3)", "(3, 3)"});
  expect_error<ValueError>([] { ops::scatter(i32({1}, {1, 1}), ops::ones({2, 5}), {3, 4}); },
                           {"scatter", "(2, 5)", "(1, 1)", "(1, 4)"});
  expect_error<ValueError>([] { ops::scatter_update(ops::ones({3}), i32({1}, {1, 1}), ops::ones({1}), "avg"); },
                           {"scatter_update", "avg"});
  expect_error<IndexError>([] { ops::slice(f32({4, 5}), {3, 0}, {2, 5}); }, {"slice", "(2, 5)", "[3, 0]", "(4, 5)"});
  expect_error<ValueError>([] { ops::slice(f32({4, 5}), {0}, {1, 1}); }, {"slice", "[0]", "(4, 5)"});
  expect_error<ValueError>([] { ops::slice(f32({4, 5}), {0, 0}, {-2, 1}); }, {"slice", "(-2, 1)"});
  expect_error<IndexError>([] { ops::slice_update(f32({4, 5}), {3, 4}, f32({2, 2})); },
                           {"slice_update", "(2, 2)", "[3, 4]"});
  expect_error<ValueError>([] { ops::slice_update(f32({4, 5}), {0, 0}, f32({2})); },
                           {"slice_update", "(2,)", "(4, 5)"});
}

}  // namespace
}  // namespace keras

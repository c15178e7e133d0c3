// tape.gradient(loss, {x}) must give a list: a braced list of one source once picked the
// single-tensor overload and returned one tensor, which several tests tripped over.

#include <gtest/gtest.h>

#include <type_traits>

#include "keras/keras.h"

namespace keras {
namespace {

TEST(GradientOverloads, BracedListsGiveLists) {
  Tensor x = ops::convert_to_tensor(std::vector<double>{1, 2}, Shape{2});
  Variable w(ops::ones({2}, DType::Float64));
  GradientTape tape(true);
  tape.watch(x);
  Tensor loss = ops::sum(x * w.value() * x);
  static_assert(std::is_same_v<decltype(tape.gradient(loss, {x})), std::vector<Tensor>>);
  static_assert(std::is_same_v<decltype(tape.gradient(loss, {w})), std::vector<Tensor>>);
  static_assert(std::is_same_v<decltype(tape.gradient(loss, x)), Tensor>);
  auto gx = tape.gradient(loss, {x});
  ASSERT_EQ(gx.size(), 1u);
  EXPECT_EQ(gx[0].to_vector<double>(), (std::vector<double>{2, 4}));  // 2 w x
  auto gw = tape.gradient(loss, {w});
  ASSERT_EQ(gw.size(), 1u);
  EXPECT_EQ(gw[0].to_vector<double>(), (std::vector<double>{1, 4}));  // x^2
}

}  // namespace
}  // namespace keras

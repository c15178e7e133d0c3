// Bad inputs to elementwise ops: the error type, and a message that names the op and what was
// passed.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

// Runs fn, expecting an E whose message contains every one of `parts`.
template <typename E>
void expect_error(const std::function<void()>& fn, std::initializer_list<std::string> parts) {
  try {
    fn();
    ADD_FAILURE() << "no error thrown (expected one mentioning " << *parts.begin() << ")";
  } catch (const E& e) {
    std::string message = e.what();
    for (const std::string& p : parts)
      EXPECT_NE(message.find(p), std::string::npos) << "'" << p << "' not in: " << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong error type: " << e.what();
  }
}

Tensor ints(std::vector<int32_t> v) {
  return Tensor::from_vector(v, Shape{int64_t(v.size())});
}
Tensor bools(std::vector<bool> v) {
  return Tensor::from_vector(v, Shape{int64_t(v.size())});
}

TEST(ElementwiseErrors, ShapeMismatchNamesOpAndShapes) {
  Tensor a = make({1, 2, 3}, {3}), b = make({1, 2, 3, 4}, {2, 2});
  for (auto [name, fn] : std::vector<std::pair<std::string, std::function<Tensor()>>>{
           {"add", [&] { return ops::add(a, b); }},
           {"arctan2", [&] { return ops::arctan2(a, b); }},
           {"hypot", [&] { return ops::hypot(a, b); }},
           {"divide_no_nan", [&] { return ops::divide_no_nan(a, b); }},
           {"mod", [&] { return a % b; }},
           {"logaddexp", [&] { return ops::logaddexp(a, b); }},
           {"isclose", [&] { return ops::isclose(a, b); }},
           {"allclose", [&] { return ops::allclose(a, b); }},
           {"less", [&] { return ops::less(a, b); }},
           {"logical_xor", [&] { return ops::logical_xor(a, b); }},
           {"nextafter", [&] { return ops::nextafter(a, b); }},
           {"ldexp",
            [&] {
              return ops::ldexp(a, ints({1, 2, 3, 4}).reshape({2, 2}));
            }},
       })
    expect_error<ValueError>([&] { fn(); }, {name + ":", "(3,)", "(2, 2)"});
  expect_error<ValueError>(
      [&] {
        ops::bitwise_and(ints({1, 2}), ints({1, 2, 3}));
      },
      {"bitwise_and:", "(2,)", "(3,)"});
}

TEST(ElementwiseErrors, IntegerOnlyOpsRejectFloats) {
  Tensor f = make({1.5, 2.5}, {2}), i = ints({1, 2});
  expect_error<TypeError>([&] { ops::bitwise_and(f, i); },
                          {"bitwise_and", "integer or bool", "float32 of shape (2,)", "int32"});
  expect_error<TypeError>([&] { ops::bitwise_or(i, f); }, {"bitwise_or", "float32"});
  expect_error<TypeError>([&] { ops::bitwise_xor(i, 1.5); }, {"bitwise_xor", "a float literal"});
  expect_error<TypeError>([&] { ops::bitwise_invert(f); }, {"bitwise_invert", "float32"});
  expect_error<TypeError>([&] { ops::bitwise_not(f); }, {"bitwise_invert", "float32"});
  expect_error<TypeError>([&] { ops::left_shift(f, i); }, {"bitwise_left_shift", "float32"});
  expect_error<TypeError>([&] { ops::right_shift(i, f); }, {"bitwise_right_shift", "float32"});
  expect_error<TypeError>([&] { ops::gcd(f, i); }, {"gcd", "expected integer inputs"});
  expect_error<TypeError>([&] { ops::lcm(bools({true}), bools({false})); }, {"lcm", "bool"});
  expect_error<TypeError>([&] { ops::ldexp(f, f); }, {"ldexp", "integer", "float32"});
  expect_error<TypeError>([&] { ops::ldexp(f, bools({true, false})); }, {"ldexp", "bool"});
  expect_error<TypeError>([&] { (void)(f & i); }, {"bitwise_and"});
  expect_error<TypeError>([&] { (void)(f | f); }, {"bitwise_or"});
  expect_error<TypeError>([&] { (void)(f ^ i); }, {"bitwise_xor"});
  expect_error<TypeError>([&] { (void)(~f); }, {"bitwise_invert"});
}

TEST(ElementwiseErrors, BoolRejectedWhereNumPyRejectsIt) {
  Tensor t = bools({true, false});
  expect_error<TypeError>([&] { ops::subtract(t, t); }, {"subtract", "bool", "logical_xor"});
  expect_error<TypeError>([&] { (void)(t - t); }, {"subtract"});
  expect_error<TypeError>([&] { ops::negative(t); }, {"negative", "bool", "logical_not"});
  expect_error<TypeError>([&] { (void)(-t); }, {"negative"});
  expect_error<TypeError>([&] { ops::sign(t); }, {"sign", "bool"});
  // A bool mixed with a number promotes to the number: fine.
  EXPECT_TENSOR_EQ(ops::subtract(t, ints({1, 1})), ints({0, -1}));
}

TEST(ElementwiseErrors, ClipOfIntegersRejectsNaNBounds) {
  expect_error<ValueError>([] { ops::clip(ints({1, 2}), NAN, 3); }, {"clip", "int32", "NaN"});
}

TEST(ElementwiseErrors, UndefinedInputsNameTheOp) {
  Tensor u, x = make({1, 2}, {2});
  for (auto [name, fn] : std::vector<std::pair<std::string, std::function<Tensor()>>>{
           {"sinc", [&] { return ops::sinc(u); }},
           {"round", [&] { return ops::round(u, 2); }},
           {"clip", [&] { return ops::clip(u, 0, 1); }},
           {"nan_to_num", [&] { return ops::nan_to_num(u); }},
           {"trunc", [&] { return ops::trunc(u); }},
           {"real", [&] { return ops::real(u); }},
           {"imag", [&] { return ops::imag(u); }},
           {"isreal", [&] { return ops::isreal(u); }},
           {"deg2rad", [&] { return ops::deg2rad(u); }},
           {"erfinv", [&] { return ops::erfinv(u); }},
           {"hypot", [&] { return ops::hypot(x, u); }},
           {"divide_no_nan", [&] { return ops::divide_no_nan(u, x); }},
           {"isclose", [&] { return ops::isclose(u, x); }},
           {"ldexp",
            [&] {
              return ops::ldexp(u, ints({1, 2}));
            }},
           {"gcd",
            [&] {
              return ops::gcd(u, ints({1, 2}));
            }},
       })
    expect_error<ValueError>([&] { fn(); }, {name + ":", "undefined"});
}

}  // namespace
}  // namespace keras

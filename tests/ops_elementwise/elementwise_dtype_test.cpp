// Result dtypes (Keras's rules, which follow JAX), weak literals, floatx, the Tensor operators,
// and how the composite ops record gradients.

#include <gtest/gtest.h>

#include "assertions.h"
#include "keras/autograd/node.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

Tensor typed(DType t) {
  return ops::cast(make({1, 2}, {2}), t);
}

TEST(ElementwiseDtypes, FloatFunctionsOfIntegers) {
  // result_type(x, float): every integer becomes floatx, int64 included.
  for (DType t : {int8, int16, int32, int64, uint8, bool_}) {
    Tensor x = typed(t);
    for (const Tensor& y :
         {ops::sqrt(x), ops::exp(x), ops::sin(x), ops::floor(x), ops::ceil(x), ops::fabs(x),
          ops::sinc(x), ops::angle(x), ops::log1p(x), ops::erf(x), ops::rsqrt(x),
          ops::divide_no_nan(x, x), ops::logaddexp(x, x), ops::arctan2(x, x), ops::nextafter(x, x)})
      EXPECT_EQ(y.dtype(), float32) << t;
    // JAX's to_inexact: int64 keeps 64 bits.
    DType wide = t == int64 ? float64 : float32;
    for (const Tensor& y : {ops::cbrt(x), ops::deg2rad(x), ops::rad2deg(x), ops::i0(x),
                            ops::reciprocal(x), ops::hypot(x, x), ops::heaviside(x, x)})
      EXPECT_EQ(y.dtype(), wide) << t;
  }
  for (DType t : {float16, bfloat16, float64}) {
    Tensor x = typed(t);
    for (const Tensor& y :
         {ops::sqrt(x), ops::cbrt(x), ops::i0(x), ops::sinc(x), ops::deg2rad(x), ops::hypot(x, x),
          ops::round(x, 1), ops::erfinv(x), ops::nan_to_num(x), ops::ldexp(x, typed(int8))})
      EXPECT_EQ(y.dtype(), t);
  }
}

TEST(ElementwiseDtypes, FloatxDecidesIntegerResults) {
  config::set_floatx(float64);
  EXPECT_EQ(ops::exp(typed(int32)).dtype(), float64);
  EXPECT_EQ(ops::cbrt(typed(int32)).dtype(), float64);
  config::set_floatx(float16);
  EXPECT_EQ(ops::sin(typed(uint8)).dtype(), float16);
  config::set_floatx(float32);
}

TEST(ElementwiseDtypes, IntegerResults) {
  Tensor b = typed(bool_), i8 = typed(int8);
  // JAX's promote_dtypes_numeric: bool computes as int32.
  for (const Tensor& y :
       {ops::square(b), ops::power(b, b), ops::floor_divide(b, b), ops::mod(b, b), ops::fmod(b, b),
        ops::clip(b, 0, 1), ops::left_shift(b, b), ops::right_shift(b, b)})
    EXPECT_EQ(y.dtype(), int32);
  for (const Tensor& y : {ops::bitwise_and(b, b), ops::bitwise_invert(b), ops::add(b, b),
                          ops::absolute(b), ops::round(b), ops::trunc(b)})
    EXPECT_EQ(y.dtype(), bool_);
  // Integers stay integers, and weak literals adapt to them.
  for (const Tensor& y : {ops::trunc(i8), ops::round(i8, -1), ops::clip(i8, -1.5, 300),
                          ops::mod(i8, 3), ops::gcd(i8, 4), ops::left_shift(i8, 2),
                          ops::bitwise_xor(i8, 1), i8 % 2, i8 & 1, ~i8, ops::sign(i8)})
    EXPECT_EQ(y.dtype(), int8);
  EXPECT_EQ(ops::bitwise_or(typed(uint8), typed(int8)).dtype(), int16);
  EXPECT_EQ(ops::mod(typed(int32), typed(float16)).dtype(), float16);
}

TEST(ElementwiseDtypes, NoOpsReturnTheirInput) {
  Tensor i = typed(int32), f = typed(float32);
  EXPECT_TRUE(ops::trunc(i).is_same(i));
  EXPECT_TRUE(ops::round(i, 3).is_same(i));
  EXPECT_TRUE(ops::nan_to_num(i).is_same(i));
  EXPECT_TRUE(ops::real(f).is_same(f));
  EXPECT_TRUE(ops::conj(f).is_same(f));
  EXPECT_FALSE(ops::imag(f).is_same(f));
  // A literal comes back as a strong tensor of its default dtype, as Keras converts it.
  for (const Tensor& y : {ops::trunc(3), ops::round(3, 1), ops::real(3), ops::nan_to_num(3)}) {
    EXPECT_FALSE(y.is_weak());
    EXPECT_EQ(y.dtype(), int32);
    EXPECT_EQ(y.item<int>(), 3);
  }
  EXPECT_FALSE(ops::conj(2.5).is_weak());
  EXPECT_EQ(ops::conj(2.5).dtype(), float32);
}

TEST(ElementwiseDtypes, ClipBoundsForIntegers) {
  // Integer x meets real bounds: the integers inside them, within the dtype's range.
  Tensor u = ops::cast(make({0, 7, 255}, {3}), uint8);
  EXPECT_TENSOR_EQ(ops::clip(u, -5, 300), u);
  EXPECT_TENSOR_EQ(ops::clip(u, 6.5, 200.9), ops::cast(make({7, 7, 200}, {3}), uint8));
  Tensor big = Tensor::from_vector(std::vector<int64_t>{INT64_MIN, 0, INT64_MAX}, Shape{3});
  EXPECT_TENSOR_EQ(
      ops::clip(big, -1e300, 1e300),
      Tensor::from_vector(std::vector<int64_t>{INT64_MIN, 0, 9223372036854774784}, Shape{3}));
}

TEST(ElementwiseOperators, MatchTheirOps) {
  Tensor a = Tensor::from_vector(std::vector<int32_t>{7, -7, 12}, Shape{3});
  Tensor b = Tensor::from_vector(std::vector<int32_t>{3, 3, 10}, Shape{3});
  EXPECT_TENSOR_EQ(a % b, Tensor::from_vector(std::vector<int32_t>{1, 2, 2}, Shape{3}));
  EXPECT_TENSOR_EQ(a & b, Tensor::from_vector(std::vector<int32_t>{3, 1, 8}, Shape{3}));
  EXPECT_TENSOR_EQ(a | b, Tensor::from_vector(std::vector<int32_t>{7, -5, 14}, Shape{3}));
  EXPECT_TENSOR_EQ(a ^ b, Tensor::from_vector(std::vector<int32_t>{4, -6, 6}, Shape{3}));
  EXPECT_TENSOR_EQ(~a, Tensor::from_vector(std::vector<int32_t>{-8, 6, -13}, Shape{3}));
  // With literals, and on masks.
  EXPECT_TENSOR_EQ(a % 5, Tensor::from_vector(std::vector<int32_t>{2, 3, 2}, Shape{3}));
  Tensor x = make({-1, 0.5, 2}, {3});
  Tensor mask = (x > 0.0) & (x < 1.0);
  EXPECT_TENSOR_EQ(mask, Tensor::from_vector(std::vector<bool>{false, true, false}, Shape{3}));
  EXPECT_TENSOR_EQ(~mask | (x < 0.0),
                   Tensor::from_vector(std::vector<bool>{true, false, true}, Shape{3}));
  EXPECT_TENSOR_NEAR(x % 0.75, make({0.5, 0.5, 0.5}, {3}), 1e-6, 1e-7);
}

TEST(ElementwiseAutograd, CompositeOpsRecordOneNode) {
  Tensor x = make({0.0, 0.5, 1.5}, {3});
  GradientTape tape;
  tape.watch(x);
  for (auto [name, y] : std::vector<std::pair<std::string, Tensor>>{
           {"sinc", ops::sinc(x)},
           {"nan_to_num", ops::nan_to_num(x)},
           {"divide_no_nan", ops::divide_no_nan(x, x)},
           {"round", ops::round(x, 2)},
           {"angle", ops::angle(x)},
           {"ldexp", ops::ldexp(x, 3)},
       }) {
    ASSERT_TRUE(y.requires_grad()) << name;
    autograd::Node* node = y.impl()->grad_fn.get();
    EXPECT_EQ(node->name(), name);
    // The node reads x itself (through no hidden intermediate of the composition).
    ASSERT_EQ(node->inputs.size(), name == "divide_no_nan" ? 2u : 1u);
    EXPECT_TRUE(node->inputs[0].node.get() == x.impl()->grad_fn.get()) << name;
  }
}

}  // namespace
}  // namespace keras

namespace keras {
namespace {

TEST(ElementwiseKernels, WhereWithScalarOperands) {
  // Every combination of dense and broadcast-scalar operands, long enough to be split across
  // threads; the expected values come from a plain loop on the host.
  const int64_t n = 100003;
  std::vector<bool> mask(n);
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) {
    mask[i] = (i * 7919) % 3 == 0;
    x[i] = static_cast<float>(i % 101) - 50.0f;
  }
  Tensor m = Tensor::from_vector(mask, Shape{n}), xt = Tensor::from_vector(x, Shape{n});
  std::vector<float> e1(n), e2(n), e3(n);
  for (int64_t i = 0; i < n; ++i) {
    e1[i] = mask[i] ? x[i] : 0.0f;
    e2[i] = mask[i] ? 1.5f : x[i];
    e3[i] = mask[i] ? 2.0f : 3.0f;
  }
  EXPECT_TENSOR_EQ(ops::where(m, xt, 0.0), Tensor::from_vector(e1, Shape{n}));
  EXPECT_TENSOR_EQ(ops::where(m, 1.5, xt), Tensor::from_vector(e2, Shape{n}));
  EXPECT_TENSOR_EQ(ops::where(m, ops::full({}, 2.0f), ops::full({n}, 3.0f)),
                   Tensor::from_vector(e3, Shape{n}));
  EXPECT_TENSOR_EQ(ops::where(m, ops::full({}, 2.0f), ops::full({}, 3.0f)),
                   Tensor::from_vector(e3, Shape{n}));
  // A strided (reversed) mask takes the general path.
  Tensor reversed = m.slice({{None, None, -1}});
  std::vector<float> e4(n);
  for (int64_t i = 0; i < n; ++i) e4[i] = mask[n - 1 - i] ? x[i] : -1.0f;
  EXPECT_TENSOR_EQ(ops::where(reversed, xt, -1.0), Tensor::from_vector(e4, Shape{n}));
}

}  // namespace
}  // namespace keras

// The branchless float functions of backend/float_math.h against double-precision libm (the
// error bounds their header states) and their special values; the cpu backend's vector rows
// (float_unary_rows: those functions plus relu, leaky_relu, clip and the exact ops, each
// instruction set this CPU runs) against elementwise_math.h's scalar definitions bit for bit,
// through the unary primitives and the fused bias-and-activation epilogue too: a fused layer must
// give the same bits as its ops; float_binary_rows against the IEEE operations, alone and through
// the binary primitives.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../../backends/cpu/src/epilogue.h"
#include "../../backends/cpu/src/float_binary.h"
#include "../../backends/cpu/src/float_unary.h"
#include "../../backends/cpu/src/isa.h"
#include "backend/elementwise_math.h"
#include "backend/float_math.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace fm = backend::fmath;
using backend::UnaryOp;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

double sigmoid_ref(double x) {
  return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x));
}

// |got - ref| in units of the float spacing at ref (the smallest subnormal below FLT_MIN); a
// result that should overflow (or should not) counts as a huge error.
double ulp_error(float got, double ref) {
  const float rf = static_cast<float>(ref);
  if (std::isinf(rf) || std::isinf(got)) return got == rf ? 0 : 1e30;
  const float a = std::fabs(rf);
  const double spacing = a < std::numeric_limits<float>::min()
                             ? std::numeric_limits<float>::denorm_min()
                             : std::nextafter(a, kInf) - a;
  return std::fabs(got - ref) / spacing;
}

// The argument of gelu_tanh's sigmoid, as the formula computes it in float32.
float gelu_tanh_argument(float x) {
  return 2.0f * 0.79788456080286535588f * (x + 0.044715f * x * x * x);
}

struct Case {
  std::string name;
  float (*f)(float);
  double (*ref)(float);
  double bound_ulp;
  // The argument of the sigmoid a product takes (silu's x, gelu_tanh's u), or none: below
  // log(FLT_MIN) that factor is subnormal and keeps few digits however it is computed.
  float (*sigmoid_argument)(float) = nullptr;
};

std::vector<Case> cases() {
  return {
      {"exp", [](float x) { return fm::exp(x); }, [](float x) { return std::exp(double(x)); }, 1.0},
      {"sigmoid", [](float x) { return fm::sigmoid(x); }, [](float x) { return sigmoid_ref(x); },
       2.5},
      {"tanh", [](float x) { return fm::tanh(x); }, [](float x) { return std::tanh(double(x)); },
       1.5},
      {"silu", [](float x) { return fm::silu(x); },
       [](float x) { return double(x) * sigmoid_ref(x); }, 3.5, [](float x) { return x; }},
      // From the float32 argument the formula computes (its own rounding is the formula's).
      {"gelu_tanh", [](float x) { return fm::gelu_tanh(x); },
       [](float x) { return double(x) * sigmoid_ref(gelu_tanh_argument(x)); }, 3.5,
       gelu_tanh_argument},
  };
}

float from_bits(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

TEST(FloatMath, WithinTheStatedUlpOfDoublePrecisionOverTheFloatRange) {
  for (const Case& c : cases()) {
    double worst = 0;
    float worst_at = 0;
    auto check = [&](float x) {
      if (std::isnan(x)) return;
      const double ref = c.ref(x);
      if (c.sigmoid_argument && c.sigmoid_argument(x) < -87.33f) return;
      const double e = ulp_error(c.f(x), ref);
      if (e > worst) worst = e, worst_at = x;
    };
    // Every 4093rd float of both signs, then densely over [-20, 20] where the functions bend.
    for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4093) check(from_bits(uint32_t(b)));
    for (uint32_t b = 0; b <= 0x41A00000u; b += 1021) {
      check(from_bits(b));
      check(from_bits(b | 0x80000000u));
    }
    std::cout << "[ measured ] " << c.name << ": " << worst << " ulp at " << worst_at << "\n";
    EXPECT_LE(worst, c.bound_ulp) << c.name << " at x = " << worst_at;
  }
}

TEST(FloatMath, SpecialValues) {
  EXPECT_EQ(fm::exp(0.0f), 1.0f);
  EXPECT_EQ(fm::exp(-kInf), 0.0f);
  EXPECT_EQ(fm::exp(kInf), kInf);
  EXPECT_EQ(fm::exp(88.72283935546875f), static_cast<float>(std::exp(88.72283935546875)));
  EXPECT_EQ(fm::exp(88.7229f), kInf);
  EXPECT_EQ(fm::exp(-104.0f), 0.0f);
  // Subnormal results round once, as the exact value does.
  for (float x : {-87.5f, -90.0f, -95.25f, -100.0f, -103.0f})
    EXPECT_EQ(fm::exp(x), static_cast<float>(std::exp(double(x)))) << x;
  EXPECT_EQ(fm::sigmoid(kInf), 1.0f);
  EXPECT_EQ(fm::sigmoid(-kInf), 0.0f);
  EXPECT_EQ(fm::sigmoid(0.0f), 0.5f);
  EXPECT_EQ(fm::tanh(kInf), 1.0f);
  EXPECT_EQ(fm::tanh(-kInf), -1.0f);
  EXPECT_EQ(fm::tanh(100.0f), 1.0f);
  EXPECT_TRUE(std::signbit(fm::tanh(-0.0f)) && fm::tanh(-0.0f) == 0.0f);
  EXPECT_EQ(fm::silu(kInf), kInf);
  for (float (*f)(float) :
       {+[](float x) { return fm::exp(x); }, +[](float x) { return fm::sigmoid(x); },
        +[](float x) { return fm::tanh(x); }, +[](float x) { return fm::silu(x); },
        +[](float x) { return fm::gelu_tanh(x); }})
    EXPECT_TRUE(std::isnan(f(kNaN)));
}

bool same_bits(float a, float b) {
  return std::isnan(a) ? std::isnan(b) : std::memcmp(&a, &b, sizeof a) == 0;
}

std::vector<float> random_inputs(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 6.0f);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  for (float special : {0.0f, -0.0f, kInf, -kInf, kNaN, 95.0f, -120.0f, 1e-30f})
    v[rng() % n] = special;
  return v;
}

// An op of float_unary_rows with its parameters, and the primitive that runs it.
struct RowsOp {
  UnaryOp op;
  float a = 0, b = 0;
  Tensor (*primitive)(const Tensor&);
};

const RowsOp kRowsOps[] = {
    {UnaryOp::Sigmoid, 0, 0, [](const Tensor& t) { return ops::sigmoid(t); }},
    {UnaryOp::Tanh, 0, 0, [](const Tensor& t) { return ops::tanh(t); }},
    {UnaryOp::Silu, 0, 0, [](const Tensor& t) { return ops::silu(t); }},
    {UnaryOp::GeluTanh, 0, 0, [](const Tensor& t) { return ops::gelu(t, /*approximate=*/true); }},
    {UnaryOp::Relu, 0, 0, [](const Tensor& t) { return ops::relu(t); }},
    {UnaryOp::LeakyRelu, 0.25f, 0, [](const Tensor& t) { return ops::leaky_relu(t, 0.25); }},
    {UnaryOp::Clip, 0, 6, [](const Tensor& t) { return ops::relu6(t); }},
    {UnaryOp::Clip, -1.5f, 0.5f, [](const Tensor& t) { return ops::clip(t, -1.5, 0.5); }},
    {UnaryOp::Neg, 0, 0, [](const Tensor& t) { return ops::negative(t); }},
    {UnaryOp::Abs, 0, 0, [](const Tensor& t) { return ops::abs(t); }},
    {UnaryOp::Square, 0, 0, [](const Tensor& t) { return ops::square(t); }},
    {UnaryOp::Sqrt, 0, 0, [](const Tensor& t) { return ops::sqrt(t); }},
    {UnaryOp::Reciprocal, 0, 0, [](const Tensor& t) { return ops::reciprocal(t); }},
};

// The exact ops are one IEEE operation each: the C++ expression is the definition too.
float ieee_of(UnaryOp op, float x) {
  switch (op) {
    case UnaryOp::Neg:
      return -x;
    case UnaryOp::Abs:
      return std::fabs(x);
    case UnaryOp::Square:
      return x * x;
    case UnaryOp::Sqrt:
      return std::sqrt(x);
    case UnaryOp::Reciprocal:
      return 1.0f / x;
    default:
      return std::numeric_limits<float>::quiet_NaN();
  }
}

// The value every backend computes with (backend/elementwise_math.h).
float scalar_of(const RowsOp& r, float x) {
  float y = 0;
  backend::math::visit(r.op, [&](auto tag) {
    constexpr UnaryOp kOp = decltype(tag)::value;
    if constexpr (backend::math::defined_for_floats(kOp)) {
      if constexpr (std::is_same_v<decltype(backend::math::unary_float<kOp>(x, x, x)), float>)
        y = backend::math::unary_float<kOp>(x, r.a, r.b);
    }
  });
  return y;
}

std::string name_of(const RowsOp& r) {
  return std::string(backend::name_of(r.op)) + "(" + std::to_string(r.a) + ", " +
         std::to_string(r.b) + ")";
}

// Every vector width, the tail and in-place calls: each element as elementwise_math.h's scalar
// definition (the branchless functions for sigmoid, tanh, silu and gelu_tanh; NaN-propagating
// selects for relu, leaky_relu and clip).
TEST(FloatUnaryRows, EveryInstructionSetEqualsTheScalarDefinitionsBitForBit) {
  const std::vector<float> in = random_inputs(1037, 1);
  for (cpu::Isa level : {cpu::Isa::Baseline, cpu::Isa::Avx2, cpu::Isa::Avx512}) {
    if (level > cpu::supported_isa()) continue;
    cpu::detail::IsaOverride scope(level);
    for (const RowsOp& r : kRowsOps) {
      ASSERT_TRUE(cpu::has_float_unary_rows(r.op, r.a, r.b)) << name_of(r);
      std::vector<float> out(in.size()), in_place = in;
      cpu::float_unary_rows(r.op, out.data(), in.data(), int64_t(in.size()), r.a, r.b);
      cpu::float_unary_rows(r.op, in_place.data(), in_place.data(), int64_t(in.size()), r.a, r.b);
      for (size_t i = 0; i < in.size(); ++i) {
        ASSERT_TRUE(same_bits(out[i], scalar_of(r, in[i])))
            << cpu::name_of(level) << " " << name_of(r) << " x = " << in[i];
        ASSERT_TRUE(same_bits(in_place[i], out[i])) << name_of(r);
        const bool exact = r.op == UnaryOp::Neg || r.op == UnaryOp::Abs ||
                           r.op == UnaryOp::Square || r.op == UnaryOp::Sqrt ||
                           r.op == UnaryOp::Reciprocal;
        if (exact) {
          ASSERT_TRUE(same_bits(out[i], ieee_of(r.op, in[i]))) << name_of(r) << " x = " << in[i];
        }
      }
    }
  }
  EXPECT_FALSE(cpu::has_float_unary_rows(UnaryOp::Clip, kNaN, 1.0f));
  EXPECT_FALSE(cpu::has_float_unary_rows(UnaryOp::Exp));
}

// The primitives on float32 (contiguous and strided), float16 and bfloat16 take their values
// from the same functions (float16 and bfloat16 computed in float, then rounded).
TEST(FloatUnaryRows, UnaryPrimitivesOfEveryFloatTypeAndLayout) {
  const std::vector<float> values = random_inputs(2 * 300, 2);
  const Tensor x = Tensor::from_vector(values, {300, 2});
  for (const RowsOp& r : kRowsOps) {
    const std::vector<float> dense = r.primitive(x).to_vector<float>();
    const std::vector<float> strided =
        r.primitive(ops::transpose(x, {1, 0})).contiguous().to_vector<float>();
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_TRUE(same_bits(dense[i], scalar_of(r, values[i])))
          << name_of(r) << " x = " << values[i];
      const size_t row = i / 2, col = i % 2;
      ASSERT_TRUE(same_bits(strided[col * 300 + row], dense[i])) << name_of(r);
    }
    for (DType t : {DType::Float16, DType::BFloat16}) {
      const Tensor xt = x.astype(t);
      const std::vector<float> got = r.primitive(xt).astype(DType::Float32).to_vector<float>();
      const std::vector<float> rounded_in = xt.astype(DType::Float32).to_vector<float>();
      for (size_t i = 0; i < values.size(); ++i) {
        const float want = Tensor::from_vector(std::vector<float>{scalar_of(r, rounded_in[i])}, {1})
                               .astype(t)
                               .astype(DType::Float32)
                               .to_vector<float>()[0];
        ASSERT_TRUE(same_bits(got[i], want))
            << name_of(r) << " " << dtype_name(t) << " x = " << rounded_in[i];
      }
    }
  }
}

// The binary ops of float_binary_rows, each a C++ expression on floats: add, subtract,
// multiply and divide are one IEEE operation each; maximum and minimum propagate NaN (the first
// operand's when both are), as backend/scalar_math.h's nan_max and nan_min.
using backend::BinaryOp;
const BinaryOp kBinaryRowsOps[] = {BinaryOp::Add, BinaryOp::Sub,     BinaryOp::Mul,
                                   BinaryOp::Div, BinaryOp::Maximum, BinaryOp::Minimum};

float ieee_of(BinaryOp op, float x, float y) {
  switch (op) {
    case BinaryOp::Add:
      return x + y;
    case BinaryOp::Sub:
      return x - y;
    case BinaryOp::Mul:
      return x * y;
    case BinaryOp::Div:
      return x / y;
    case BinaryOp::Maximum:
      return std::isnan(x) ? x : std::isnan(y) ? y : (x > y ? x : y);
    case BinaryOp::Minimum:
      return std::isnan(x) ? x : std::isnan(y) ? y : (x < y ? x : y);
    default:
      return std::numeric_limits<float>::quiet_NaN();
  }
}

Tensor binary_primitive(BinaryOp op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case BinaryOp::Add:
      return ops::add(a, b);
    case BinaryOp::Sub:
      return ops::subtract(a, b);
    case BinaryOp::Mul:
      return ops::multiply(a, b);
    case BinaryOp::Div:
      return ops::divide(a, b);
    case BinaryOp::Maximum:
      return ops::maximum(a, b);
    default:
      return ops::minimum(a, b);
  }
}

// Every vector width and the tail; both operands dense, either one a broadcast scalar (a NaN,
// a zero of either sign among them), both scalars; in place on either operand.
TEST(FloatBinaryRows, EveryInstructionSetEqualsTheIeeeOperationBitForBit) {
  const size_t n = 1037;
  const std::vector<float> a = random_inputs(n, 5), b = random_inputs(n, 6);
  for (cpu::Isa level : {cpu::Isa::Baseline, cpu::Isa::Avx2, cpu::Isa::Avx512}) {
    if (level > cpu::supported_isa()) continue;
    cpu::detail::IsaOverride scope(level);
    for (BinaryOp op : kBinaryRowsOps) {
      ASSERT_TRUE(cpu::has_float_binary_rows(op));
      const std::string what =
          std::string(cpu::name_of(level)) + " " + std::string(backend::name_of(op));
      std::vector<float> out(n);
      cpu::float_binary_rows(op, out.data(), a.data(), 1, b.data(), 1, int64_t(n));
      for (size_t i = 0; i < n; ++i)
        ASSERT_TRUE(same_bits(out[i], ieee_of(op, a[i], b[i])))
            << what << " " << a[i] << ", " << b[i];
      for (float s : {2.5f, -0.0f, 0.0f, kNaN, -kInf}) {
        cpu::float_binary_rows(op, out.data(), a.data(), 1, &s, 0, int64_t(n));
        for (size_t i = 0; i < n; ++i)
          ASSERT_TRUE(same_bits(out[i], ieee_of(op, a[i], s))) << what << " " << a[i] << ", " << s;
        cpu::float_binary_rows(op, out.data(), &s, 0, b.data(), 1, int64_t(n));
        for (size_t i = 0; i < n; ++i)
          ASSERT_TRUE(same_bits(out[i], ieee_of(op, s, b[i]))) << what << " " << s << ", " << b[i];
        cpu::float_binary_rows(op, out.data(), &s, 0, &b[3], 0, 5);
        for (size_t i = 0; i < 5; ++i) ASSERT_TRUE(same_bits(out[i], ieee_of(op, s, b[3]))) << what;
      }
      std::vector<float> on_a = a, on_b = b;
      cpu::float_binary_rows(op, on_a.data(), on_a.data(), 1, b.data(), 1, int64_t(n));
      cpu::float_binary_rows(op, on_b.data(), a.data(), 1, on_b.data(), 1, int64_t(n));
      for (size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(same_bits(on_a[i], ieee_of(op, a[i], b[i]))) << what;
        ASSERT_TRUE(same_bits(on_b[i], ieee_of(op, a[i], b[i]))) << what;
      }
    }
  }
  EXPECT_FALSE(cpu::has_float_binary_rows(BinaryOp::Pow));
}

// The float32 binary primitives on every layout take these values: dense, a broadcast scalar
// and row, a transposed (strided) operand, and an output that is one of its inputs.
TEST(FloatBinaryRows, BinaryPrimitivesOnEveryLayout) {
  const int64_t rows = 37, cols = 29;
  const std::vector<float> av = random_inputs(rows * cols, 7), bv = random_inputs(rows * cols, 8);
  const Tensor a = Tensor::from_vector(av, {rows, cols}), b = Tensor::from_vector(bv, {rows, cols});
  const Tensor b_row =
      Tensor::from_vector(std::vector<float>(bv.begin(), bv.begin() + cols), {cols});
  const Tensor b_t = Tensor::from_vector(bv, {cols, rows});  // read transposed: strided
  for (BinaryOp op : kBinaryRowsOps) {
    const std::string what(backend::name_of(op));
    const std::vector<float> dense = binary_primitive(op, a, b).to_vector<float>();
    const std::vector<float> scalar =
        binary_primitive(op, a, Tensor::from_vector(std::vector<float>{bv[4]}, {}))
            .to_vector<float>();
    const std::vector<float> row = binary_primitive(op, a, b_row).to_vector<float>();
    const std::vector<float> strided =
        binary_primitive(op, a, ops::transpose(b_t, {1, 0})).to_vector<float>();
    for (int64_t i = 0; i < rows * cols; ++i) {
      const int64_t r = i / cols, c = i % cols;
      ASSERT_TRUE(same_bits(dense[i], ieee_of(op, av[i], bv[i]))) << what << " at " << i;
      ASSERT_TRUE(same_bits(scalar[i], ieee_of(op, av[i], bv[4]))) << what << " at " << i;
      ASSERT_TRUE(same_bits(row[i], ieee_of(op, av[i], bv[c]))) << what << " at " << i;
      ASSERT_TRUE(same_bits(strided[i], ieee_of(op, av[i], bv[c * rows + r])))
          << what << " at " << i;
    }
  }
  Variable v(a);
  v.assign_add(b);
  const std::vector<float> added = v.value().to_vector<float>();
  for (int64_t i = 0; i < rows * cols; ++i)
    ASSERT_TRUE(same_bits(added[i], av[i] + bv[i])) << "assign_add at " << i;
}

// Dense and convolution layers fused with an activation (the epilogue) give the bits of the bias
// add followed by the unary primitive.
TEST(FloatUnaryRows, FusedEpilogueEqualsBiasAddThenTheUnaryOp) {
  const int64_t rows = 7, n = 301;
  const std::vector<float> z = random_inputs(rows * n, 3), b = random_inputs(n, 4);
  const Tensor zt = Tensor::from_vector(z, {rows, n}), bt = Tensor::from_vector(b, {n});
  const std::pair<backend::Activation, Tensor (*)(const Tensor&)> acts[] = {
      {backend::Activation::None, +[](const Tensor& t) { return t; }},
      {backend::Activation::Relu, +[](const Tensor& t) { return ops::relu(t); }},
      {backend::Activation::Sigmoid, +[](const Tensor& t) { return ops::sigmoid(t); }},
      {backend::Activation::Tanh, +[](const Tensor& t) { return ops::tanh(t); }},
      {backend::Activation::Silu, +[](const Tensor& t) { return ops::silu(t); }}};
  for (const auto& [act, op] : acts) {
    std::vector<float> fused = z;
    cpu::apply_epilogue<float>(
        fused.data(), rows, n,
        cpu::EpilogueBias{reinterpret_cast<const char*>(b.data()), sizeof(float)}, act);
    const std::vector<float> want = op(ops::add(zt, bt)).to_vector<float>();
    for (size_t i = 0; i < fused.size(); ++i)
      ASSERT_TRUE(same_bits(fused[i], want[i])) << int(act) << " at " << i;
  }
}

}  // namespace
}  // namespace keras

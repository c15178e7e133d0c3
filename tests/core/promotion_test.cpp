// keras::result_type against JAX's published binary promotion table
// (https://docs.jax.dev/en/latest/type_promotion.html), which Keras 3 follows.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/core/promotion.h"

namespace keras {
namespace {

// The rows and columns of the published table restricted to keras-cpp's dtypes plus the weak
// Python types i* and f*. Weak results (i*, f*) resolve to int32/float32 under floatx=float32.
const char* kJaxTable = R"(
    b1 u1 i1 i2 i4 i8 bf f2 f4 f8 i* f*
b1  b1 u1 i1 i2 i4 i8 bf f2 f4 f8 i* f*
u1  u1 u1 i2 i2 i4 i8 bf f2 f4 f8 u1 f*
i1  i1 i2 i1 i2 i4 i8 bf f2 f4 f8 i1 f*
i2  i2 i2 i2 i2 i4 i8 bf f2 f4 f8 i2 f*
i4  i4 i4 i4 i4 i4 i8 bf f2 f4 f8 i4 f*
i8  i8 i8 i8 i8 i8 i8 bf f2 f4 f8 i8 f*
bf  bf bf bf bf bf bf bf f4 f4 f8 bf bf
f2  f2 f2 f2 f2 f2 f2 f4 f2 f4 f8 f2 f2
f4  f4 f4 f4 f4 f4 f4 f4 f4 f4 f8 f4 f4
f8  f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8
i*  i* u1 i1 i2 i4 i8 bf f2 f4 f8 i* f*
f*  f* f* f* f* f* f* bf f2 f4 f8 f* f*
)";

DTypeLike parse(const std::string& s) {
  static const std::map<std::string, DTypeLike> names = {
      {"b1", DType::Bool},     {"u1", DType::UInt8},   {"i1", DType::Int8},
      {"i2", DType::Int16},    {"i4", DType::Int32},   {"i8", DType::Int64},
      {"bf", DType::BFloat16}, {"f2", DType::Float16}, {"f4", DType::Float32},
      {"f8", DType::Float64},  {"i*", weak_int},       {"f*", weak_float}};
  return names.at(s);
}

TEST(Promotion, MatchesJaxTable) {
  std::istringstream in(kJaxTable);
  std::string line;
  std::vector<std::string> columns;
  int checked = 0;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::vector<std::string> cells;
    for (std::string c; row >> c;) cells.push_back(c);
    if (cells.empty()) continue;
    if (columns.empty()) {
      columns = cells;
      continue;
    }
    DTypeLike a = parse(cells[0]);
    for (size_t j = 0; j < columns.size(); ++j) {
      DTypeLike b = parse(columns[j]);
      DType expected = parse(cells[j + 1]).dtype;  // i* -> int32, f* -> float32
      EXPECT_EQ(result_type({a, b}), expected) << cells[0] << " + " << columns[j];
      ++checked;
    }
  }
  EXPECT_EQ(checked, 144);
}

TEST(Promotion, KerasDocExamples) {
  // From keras.backend.result_type's docstring.
  EXPECT_EQ(result_type({DType::BFloat16, weak_int}), DType::BFloat16);
  EXPECT_EQ(result_type({DType::Int32, DType::Float32}), DType::Float32);
  EXPECT_EQ(result_type({}), config::floatx());
}

TEST(Promotion, KeepsSixtyFourBits) {
  // Documented difference from Keras's JAX-mode narrowing.
  EXPECT_EQ(result_type({DType::Float64, DType::Float64}), DType::Float64);
  EXPECT_EQ(result_type({DType::Int64, DType::Int64}), DType::Int64);
}

TEST(Promotion, WeakResultFollowsFloatx) {
  config::set_floatx(DType::Float64);
  EXPECT_EQ(result_type({weak_float}), DType::Float64);
  EXPECT_EQ(result_type({weak_int, weak_int}), DType::Int64);
  EXPECT_EQ(result_type({DType::Int8, weak_float}), DType::Float64);
  config::set_floatx(DType::Float32);
  EXPECT_EQ(float_result_type(DType::Int32), DType::Float32);
  EXPECT_EQ(float_result_type(DType::Float16), DType::Float16);
}

TEST(Promotion, ThreeWay) {
  EXPECT_EQ(result_type({DType::UInt8, DType::Int8, DType::Float16}), DType::Float16);
  EXPECT_EQ(result_type({DType::BFloat16, DType::Float16, DType::Int8}), DType::Float32);
}

}  // namespace
}  // namespace keras

// keras::result_type against keras.backend.result_type of Keras 3.15 (JAX backend, x64) for every
// ordered pair of keras-cpp's dtypes and each dtype with a Python int / float / bool literal
// (tools/keras_oracle/result_type.py writes tests/oracle/fixtures/result_type.json). Keras's one
// 64-to-32-bit map (BIT64_TO_BIT32_DTYPE) is a documented difference: see promotion.h.

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "keras/core/promotion.h"

namespace keras {
namespace {

using json = nlohmann::json;

// A dtype name, or a Python literal as keras-cpp spells it (a C++ literal is weakly typed).
DTypeLike operand(const std::string& name) {
  if (name == "python_int") return weak_int;
  if (name == "python_float") return weak_float;
  if (name == "python_bool") return DTypeLike(DType::Bool);  // bool literals are not weak
  return DTypeLike(dtype_from_string(name));
}

TEST(ResultTypeOracle, MatchesKeras) {
  std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/result_type.json");
  ASSERT_TRUE(in) << "missing tests/oracle/fixtures/result_type.json";
  const json fixture = json::parse(in);
  // {"a,b": [reason, Keras's lattice answer without its 64-to-32-bit map]}: keras-cpp keeps
  // 64 bits on purpose (promotion.h), so those pairs compare with the unmapped answer.
  const json& differs = fixture["keras_cpp_differs"];
  int compared = 0, sixty_four = 0;
  for (const auto& [pair, keras] : fixture["pairs"].items()) {
    const size_t comma = pair.find(',');
    const std::string a = pair.substr(0, comma), b = pair.substr(comma + 1);
    std::string expected = keras.get<std::string>();
    if (differs.contains(pair)) {
      std::cout << "[differs] result_type(" << pair << "): Keras " << expected << ", keras-cpp "
                << differs[pair][1].get<std::string>() << ": "
                << differs[pair][0].get<std::string>() << "\n";
      expected = differs[pair][1].get<std::string>();
      ++sixty_four;
    }
    const DType got = result_type({operand(a), operand(b)});
    EXPECT_EQ(std::string(dtype_name(got)), expected) << "result_type(" << a << ", " << b << ")";
    ++compared;
  }
  std::cout << "[oracle] result_type: " << compared << " pairs compared (" << sixty_four
            << " against Keras's lattice without the 64-to-32-bit map)\n";
  EXPECT_EQ(compared, 216);
}

}  // namespace
}  // namespace keras

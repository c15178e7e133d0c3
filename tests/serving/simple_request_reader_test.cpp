// The simple-form predict reader (tools/serve/simple_request_reader) against the JSON document
// reader (nlohmann::json, parse_predict_document): the same shapes and the same bits wherever
// it accepts a body, and every other body left to the document reader.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "serve/rest_api.h"
#include "serve/simple_request_reader.h"

namespace keras {
namespace {

using serving::PredictRequest;
using serving::Signature;

Signature one_input(DType dtype, Shape shape) {
  return {{{"x", dtype, std::move(shape)}}, {{"y", DType::Float32, Shape({-1, 1})}}};
}

void expect_same(const std::string& body, const Signature& sig) {
  SCOPED_TRACE(body.substr(0, 200));
  auto simple = serving::read_simple_predict_request(body, sig);
  ASSERT_TRUE(simple.has_value()) << "the simple reader refused it";
  PredictRequest doc = serving::parse_predict_document(body, sig);
  EXPECT_EQ(simple->format, doc.format);
  ASSERT_EQ(simple->inputs.size(), 1u);
  EXPECT_EQ(simple->inputs[0].shape, doc.inputs[0].shape);
  EXPECT_EQ(simple->inputs[0].dtype, doc.inputs[0].dtype);
  ASSERT_EQ(simple->inputs[0].data.size(), doc.inputs[0].data.size());
  EXPECT_EQ(std::memcmp(simple->inputs[0].data.data(), doc.inputs[0].data.data(),
                        doc.inputs[0].data.size()),
            0);
}

TEST(SimpleRequestReader, SameBitsAsTheDocumentReader) {
  const Signature f32 = one_input(DType::Float32, Shape({-1, 3})),
                  f64 = one_input(DType::Float64, Shape({-1, 3}));
  for (const Signature* sig : {&f32, &f64}) {
    expect_same(R"({"instances": [[1, 2, 3]]})", *sig);
    expect_same(R"( { "inputs" : [ [ -0 , 0.0 , -0.0 ] , [1e-320, 1e-400, 3.4028236e38] ] } )", *sig);
    expect_same(R"({"signature_name": "serving_default", "instances": [[9007199254740993, -9223372036854775808, 18446744073709551615]]})", *sig);
    expect_same(R"({"instances": [[123456789012345678901234567890, 0.1, 1E+2]], "signature_name": ""})", *sig);
    expect_same("{\"instances\":\n\t[[1.5e-45, 1.4e-45, 7e-46]]\r}", *sig);
  }
  // Random values with every digit count, in both formats and nested shapes.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-50, 50), precision(1, 19);
  const Signature image = one_input(DType::Float32, Shape({-1, 2, 3, 1}));
  for (int trial = 0; trial < 200; ++trial) {
    std::string rows;
    for (int r = 0; r < 3; ++r) {
      rows += r ? ",[" : "[";
      for (int i = 0; i < 2; ++i) {
        rows += i ? ",[" : "[";
        for (int j = 0; j < 3; ++j) {
          char text[64];
          std::snprintf(text, sizeof text, "%s[%.*g]", j ? "," : "", precision(rng),
                        mantissa(rng) * std::pow(10.0, exponent(rng)));
          rows += text;
        }
        rows += "]";
      }
      rows += "]";
    }
    expect_same("{\"instances\": [" + rows + "]}", image);
    expect_same("{\"inputs\": [" + rows + "]}", image);
  }
  // Integers of every digit count, both signs (the reader sums digits up to 18 of them and
  // leaves longer ones to from_chars).
  std::uniform_int_distribution<int> digit_count(1, 21), digit(0, 9), sign(0, 1);
  for (const Signature* sig : {&f32, &f64}) {
    for (int trial = 0; trial < 300; ++trial) {
      std::string rows;
      for (int r = 0; r < 2; ++r) {
        rows += r ? ",[" : "[";
        for (int j = 0; j < 3; ++j) {
          std::string number = sign(rng) ? "-" : "";
          const int n = digit_count(rng);
          for (int k = 0; k < n; ++k)
            number += static_cast<char>('0' + (k ? digit(rng) : 1 + digit(rng) % 9));
          rows += (j ? "," : "") + number;
        }
        rows += "]";
      }
      expect_same("{\"instances\": [" + rows + "]}", *sig);
    }
  }
  // Decimals around the fast path's edges (up to 19 significant digits, 2^53, 10^+-22):
  // random digit strings with a point anywhere, leading zeros and an optional exponent.
  std::uniform_int_distribution<int> zeros(0, 4), exponent_of(-30, 30);
  for (const Signature* sig : {&f32, &f64}) {
    for (int trial = 0; trial < 300; ++trial) {
      std::string row = "[";
      for (int j = 0; j < 3; ++j) {
        std::string digits(static_cast<size_t>(digit_count(rng)), '0');
        for (char& c : digits) c = static_cast<char>('0' + digit(rng));
        const size_t point = std::uniform_int_distribution<size_t>(0, digits.size())(rng);
        std::string whole = digits.substr(0, point);
        if (whole.empty() || whole[0] == '0') whole = "0";
        std::string number = (sign(rng) ? "-" : "") + whole + "." +
                             std::string(static_cast<size_t>(zeros(rng)), '0') +
                             digits.substr(point) + "1";
        if (sign(rng)) number += "e" + std::to_string(exponent_of(rng));
        row += (j ? "," : "") + number;
      }
      row += "]";
      expect_same("{\"instances\": [" + row + "]}", *sig);
    }
  }
}

TEST(SimpleRequestReader, LeavesEveryOtherBodyToTheDocumentReader) {
  const Signature sig = one_input(DType::Float32, Shape({-1, 2}));
  for (const char* body : {
           R"({"instances": [[1, 2], [3]]})",            // ragged
           R"({"instances": [[1, [2]], [3, 4]]})",       // a list beside numbers
           R"({"instances": [{"x": [1, 2]}]})",          // an instance by input name
           R"({"instances": [[1, 2]], "inputs": [[1, 2]]})",
           R"({"instances": [[1, 2]], "other": 1})",
           R"({"signature_name": "other", "instances": [[1, 2]]})",
           R"({"instances": [[1, 2]]} x)",
           R"({"instances": [[1, 2,]]})",
           R"({"instances": [[01, 2]]})",
           R"({"instances": [[+1, 2]]})",
           R"({"instances": [[.5, 2]]})",
           R"({"instances": [[5., 2]]})",
           R"({"instances": [[NaN, 2]]})",
           R"({"instances": [[1e999, 2]]})",
           R"({"instances": [[true, 2]]})",
           R"({"instances": [[1, 2, 3]]})",  // the wrong width
           R"({"instances": [1, 2]})",       // the wrong rank
           R"({"instances": []})",
           R"({"inst\u0061nces": [[1, 2]]})",
           R"([[1, 2]])",
           "{\"instances\": [[1, 2]]",
       }) {
    EXPECT_FALSE(serving::read_simple_predict_request(body, sig).has_value()) << body;
  }
  // Models with several inputs or integer inputs are the document reader's.
  Signature two = sig;
  two.inputs.push_back({"z", DType::Float32, Shape({-1, 2})});
  EXPECT_FALSE(serving::read_simple_predict_request(R"({"instances": [[1, 2]]})", two));
  EXPECT_FALSE(serving::read_simple_predict_request(R"({"instances": [[1, 2]]})",
                                                    one_input(DType::Int32, Shape({-1, 2}))));
  // Deep nesting is refused at the input's rank, not followed.
  EXPECT_FALSE(serving::read_simple_predict_request(
      "{\"instances\": " + std::string(100000, '[') + "}", sig));
}

}  // namespace
}  // namespace keras

// TensorProto to host arrays (serve/tensor_proto.h): TensorFlow's encodings read as TensorFlow
// reads them (IEEE half and bfloat16 bit patterns, one-value fills, each integer width), and
// arbitrary bytes either read or refused with ValueError, never more.

#include <random>

#include "grpc_test_helpers.h"
#include "serve/tensor_proto.h"

namespace keras::grpc_test {
namespace {

using serving::host_array_from_proto;
using serving::TensorSpec;

std::vector<float> floats(const serving::HostArray& a) {
  std::vector<float> v(a.data.size() / sizeof(float));
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

tensorflow::TensorProto proto(tensorflow::DataType dtype, std::vector<int64_t> shape) {
  tensorflow::TensorProto t;
  t.set_dtype(dtype);
  for (int64_t d : shape) t.mutable_tensor_shape()->add_dim()->set_size(d);
  return t;
}

TEST(TensorProto, HalfAndBfloat16BitPatterns) {
  const TensorSpec spec{"x", DType::Float32, Shape({-1, 6})};
  // IEEE 754 binary16: 1, -2, 65504 (the largest), 2^-24 (the smallest subnormal), 2^-14 (the
  // smallest normal), +inf.
  tensorflow::TensorProto half = proto(tensorflow::DT_HALF, {1, 6});
  for (int bits : {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x0400, 0x7C00}) half.add_half_val(bits);
  EXPECT_EQ(floats(host_array_from_proto(half, spec, 1 << 20)),
            (std::vector<float>{1.0f, -2.0f, 65504.0f, 0x1p-24f, 0x1p-14f, INFINITY}));
  // bfloat16: float32's top 16 bits.
  tensorflow::TensorProto bf = proto(tensorflow::DT_BFLOAT16, {1, 6});
  for (int bits : {0x3F80, 0xC000, 0x4049, 0x0000, 0x8000, 0xFF80}) bf.add_half_val(bits);
  EXPECT_EQ(floats(host_array_from_proto(bf, spec, 1 << 20)),
            (std::vector<float>{1.0f, -2.0f, 3.140625f, 0.0f, -0.0f, -INFINITY}));
}

TEST(TensorProto, IntegerWidthsFillsAndRanges) {
  const TensorSpec ints{"ids", DType::Int32, Shape({-1, 3})};
  tensorflow::TensorProto u8 = proto(tensorflow::DT_UINT8, {1, 3});
  u8.set_tensor_content(std::string("\x01\xff\x80", 3));
  serving::HostArray a = host_array_from_proto(u8, ints, 1 << 20);
  std::vector<int64_t> v(3);
  std::memcpy(v.data(), a.data.data(), 3 * sizeof(int64_t));
  EXPECT_EQ(v, (std::vector<int64_t>{1, 255, 128}));
  tensorflow::TensorProto fill = proto(tensorflow::DT_INT32, {2, 3});
  fill.add_int_val(7);
  fill.add_int_val(-4);  // the last value repeats
  a = host_array_from_proto(fill, ints, 1 << 20);
  v.resize(6);
  std::memcpy(v.data(), a.data.data(), 6 * sizeof(int64_t));
  EXPECT_EQ(v, (std::vector<int64_t>{7, -4, -4, -4, -4, -4}));
  tensorflow::TensorProto big = proto(tensorflow::DT_UINT64, {1, 3});
  for (uint64_t x : {uint64_t{1}, uint64_t{1} << 63, uint64_t{2}}) big.add_uint64_val(x);
  EXPECT_THROW(host_array_from_proto(big, ints, 1 << 20), ValueError);
  tensorflow::TensorProto floats_for_ints = proto(tensorflow::DT_FLOAT, {1, 3});
  EXPECT_THROW(host_array_from_proto(floats_for_ints, ints, 1 << 20), ValueError);
  const TensorSpec flags{"flags", DType::Bool, Shape({-1, 3})};
  tensorflow::TensorProto bools = proto(tensorflow::DT_BOOL, {1, 3});
  bools.set_tensor_content(std::string("\x00\x02\x01", 3));
  EXPECT_EQ(host_array_from_proto(bools, flags, 1 << 20).data,
            (std::vector<unsigned char>{0, 1, 1}));
}

TEST(TensorProto, ArbitraryBytesAreReadOrRefused) {
  const TensorSpec specs[] = {{"x", DType::Float32, Shape({-1, 4})},
                              {"ids", DType::Int64, Shape({-1, 2, 2})},
                              {"s", DType::String, Shape({-1})},
                              {"b", DType::Bool, Shape({-1, 3})}};
  tensorflow::TensorProto seed = proto(tensorflow::DT_FLOAT, {2, 4});
  for (int i = 0; i < 8; ++i) seed.add_float_val(static_cast<float>(i));
  seed.add_string_val("abc");
  seed.add_int64_val(5);
  const std::string base = seed.SerializeAsString();
  // protobuf logs each string field of invalid UTF-8 it parses; thousands here, and expected.
  google::protobuf::LogSilencer quiet;
  std::mt19937 rng(1);
  int read = 0, refused = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string bytes = base;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 3) {
        case 0:
          bytes[at] = static_cast<char>(rng());
          break;
        case 1:
          bytes.erase(at, 1 + rng() % 4);
          break;
        default:
          bytes.insert(at, 1, static_cast<char>(rng()));
      }
      if (bytes.empty()) bytes = base;
    }
    tensorflow::TensorProto t;
    if (!t.ParseFromString(bytes)) continue;
    for (const TensorSpec& spec : specs) {
      try {
        host_array_from_proto(t, spec, 1 << 16);
        ++read;
      } catch (const ValueError&) {
        ++refused;
      }
    }
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace keras::grpc_test

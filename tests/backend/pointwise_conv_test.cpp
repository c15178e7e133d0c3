// 1x1 convolutions of stride 1 (backends/cpu/src/conv.cpp multiplies a contiguous
// channels-last input's rows in place, without gathering patches) against a host loop in double
// precision: float32 and float64, tile-sized and chunk-sized products (few and many channels),
// and the same values as a non-contiguous view (the gathering path), which must give the same
// bits.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <keras/keras.h>

namespace keras {
namespace {

struct Case {
  int64_t n, h, w, c, o;
};

TEST(PointwiseConv, RowsInPlaceMatchDoublePrecisionAndTheGatheredPath) {
  const Case cases[] = {{3, 5, 7, 19, 13}, {2, 16, 16, 64, 32}, {1, 9, 11, 700, 24}};
  for (const Case& t : cases)
    for (DType dtype : {DType::Float32, DType::Float64}) {
      std::mt19937 rng(static_cast<uint32_t>(t.c));
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      std::vector<double> xv(static_cast<size_t>(t.n * t.h * t.w * t.c)),
          kv(static_cast<size_t>(t.c * t.o));
      for (double& v : xv) v = u(rng);
      for (double& v : kv) v = u(rng);
      // Rounded to the dtype first, so the reference sums exactly the values the kernel reads.
      const Tensor x = ops::cast(Tensor::from_vector(xv, {t.n, t.h, t.w, t.c}), dtype);
      const Tensor k = ops::cast(Tensor::from_vector(kv, {1, 1, t.c, t.o}), dtype);
      xv = ops::cast(x, DType::Float64).to_vector<double>();
      kv = ops::cast(k, DType::Float64).to_vector<double>();
      const int64_t positions = t.n * t.h * t.w;
      const std::string at = "c = " + std::to_string(t.c) + ", " + std::string(dtype_name(dtype));
      const auto got = ops::cast(ops::conv(x, k), DType::Float64).to_vector<double>();
      ASSERT_EQ(got.size(), static_cast<size_t>(positions * t.o)) << at;
      const double unit = dtype == DType::Float32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
      for (int64_t p = 0; p < positions; ++p)
        for (int64_t o = 0; o < t.o; ++o) {
          double sum = 0, magnitude = 0;
          for (int64_t c = 0; c < t.c; ++c) {
            const double term =
                xv[static_cast<size_t>(p * t.c + c)] * kv[static_cast<size_t>(c * t.o + o)];
            sum += term, magnitude += std::abs(term);
          }
          ASSERT_LE(std::abs(got[static_cast<size_t>(p * t.o + o)] - sum),
                    2.0 * static_cast<double>(t.c + 1) * unit * magnitude)
              << at << ", position " << p << ", output " << o;
        }
      // The same values in every other column of a wider array: patches gathered by im2col.
      const Tensor wide = ops::repeat(x, 2, 2);
      const Tensor strided = wide.slice({{0, t.n}, {0, t.h}, {0, 2 * t.w, 2}});
      EXPECT_EQ(ops::cast(ops::conv(strided, k), DType::Float64).to_vector<double>(), got) << at;
    }
}

}  // namespace
}  // namespace keras

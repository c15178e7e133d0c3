// Bad inputs to the conv and pooling ops: the error type, and a message naming the op and the
// shapes or values passed. Also dtype rules and inputs the fixtures do not reach (several
// GEMM chunks, strided views).

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"

namespace keras {
namespace {

template <typename E, typename F>
void expect_error(F fn, std::initializer_list<std::string> fragments) {
  try {
    fn();
    ADD_FAILURE() << "no error thrown";
  } catch (const E& e) {
    std::string m = e.what();
    for (const std::string& f : fragments)
      EXPECT_NE(m.find(f), std::string::npos) << "message '" << m << "' lacks '" << f << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong error type: " << e.what();
  }
}

Tensor zeros(const Shape& s, DType t = DType::Float32) {
  return ops::zeros(s, t);
}

TEST(ConvErrors, Conv) {
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 2, 4}));
      },
      {"conv", "(1, 5, 5, 3)", "(3, 3, 2, 4)", "multiple"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 4}), zeros({3, 3, 2, 3}));
      },
      {"conv", "2 groups", "(3, 3, 2, 3)"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({5, 3}), zeros({3, 3}));
      },
      {"conv", "rank 3, 4 or 5", "(5, 3)"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 4}));
      },
      {"conv", "same rank", "(1, 5, 5, 3)", "(3, 3, 4)"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({6, 3, 3, 4}));
      },
      {"conv", "zero or negative", "(1, 5, 5, 3)", "(6, 3, 3, 4)"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 4}), {.strides = 0});
      },
      {"conv", "strides", ">= 1"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 4}), {.strides = {1, 1, 1}});
      },
      {"conv", "strides", "2 ints", "(1, 1, 1)"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 4}), {.padding = "full"});
      },
      {"conv", "'valid' or 'same'", "full"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 4}), {.data_format = "NHWC"});
      },
      {"conv", "data_format", "NHWC"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({0, 3, 3, 4}));
      },
      {"conv", "positive", "(0, 3, 3, 4)"});
  expect_error<ValueError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 0}));
      },
      {"conv", "empty output"});
  expect_error<TypeError>(
      [] {
        ops::conv(zeros({1, 5, 5, 3}, DType::Int32), zeros({3, 3, 3, 4}, DType::Int32));
      },
      {"conv", "int32", "floating"});
}

TEST(ConvErrors, ConvTransposeDepthwiseSeparable) {
  expect_error<ValueError>(
      [] {
        ops::conv_transpose(zeros({1, 4, 4, 3}), zeros({3, 3, 3, 2}));
      },
      {"conv_transpose", "(1, 4, 4, 3)", "(3, 3, 3, 2)", "kernel.shape[-1]"});
  expect_error<ValueError>(
      [] {
        ops::conv_transpose(zeros({1, 4, 4, 3}), zeros({3, 3, 2, 3}), {.output_padding = -1});
      },
      {"conv_transpose", "output_padding", ">= 0"});
  expect_error<ValueError>(
      [] {
        ops::depthwise_conv(zeros({1, 5, 5, 3}), zeros({3, 3, 2, 2}));
      },
      {"depthwise_conv", "(1, 5, 5, 3)", "(3, 3, 2, 2)"});
  expect_error<ValueError>(
      [] {
        ops::separable_conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 2}), zeros({1, 1, 5, 4}));
      },
      {"separable_conv", "(1, 1, 6, filters)", "(1, 1, 5, 4)"});
  expect_error<ValueError>(
      [] {
        ops::separable_conv(zeros({1, 5, 5, 3}), zeros({3, 3, 3, 2}), Tensor());
      },
      {"separable_conv", "undefined"});
}

TEST(ConvErrors, Pooling) {
  expect_error<ValueError>(
      [] {
        ops::max_pool(zeros({1, 3, 3, 1}), 4);
      },
      {"max_pool", "zero or negative", "(1, 3, 3, 1)", "(4, 4)"});
  expect_error<ValueError>(
      [] {
        ops::average_pool(zeros({3, 3}), 2);
      },
      {"average_pool", "rank 3, 4 or 5", "(3, 3)"});
  expect_error<ValueError>(
      [] {
        ops::max_pool(zeros({1, 3, 3, 1}), {2, 0});
      },
      {"max_pool", "pool_size", "(2, 0)"});
  expect_error<ValueError>(
      [] {
        ops::average_pool(zeros({1, 3, 3, 1}), 2, {.strides = 0});
      },
      {"average_pool", "strides"});
  expect_error<ValueError>(
      [] {
        ops::max_pool(zeros({1, 3, 3, 1}), 2, {.padding = "causal"});
      },
      {"max_pool", "causal"});
  expect_error<TypeError>(
      [] {
        ops::max_pool(zeros({1, 3, 3, 1}, DType::Bool), 2);
      },
      {"max_pool", "bool"});
  expect_error<ValueError>(
      [] {
        ops::adaptive_average_pool(zeros({1, 4, 4, 2}), 0);
      },
      {"adaptive_average_pool", "output_size", ">= 1"});
  expect_error<ValueError>(
      [] {
        ops::adaptive_max_pool(zeros({1, 4, 4, 2}), {2, 2, 2});
      },
      {"adaptive_max_pool", "output_size", "(2, 2, 2)"});
  expect_error<ValueError>(
      [] {
        ops::adaptive_max_pool(zeros({4, 4}), 2);
      },
      {"adaptive_max_pool", "(4, 4)"});
}

TEST(ConvErrors, Rearrangements) {
  expect_error<ValueError>(
      [] {
        ops::depth_to_space(zeros({1, 2, 2, 8}), 1);
      },
      {"depth_to_space", "block_size", "1"});
  expect_error<ValueError>(
      [] {
        ops::depth_to_space(zeros({1, 2, 2, 6}), 2);
      },
      {"depth_to_space", "(1, 2, 2, 6)", "divisible"});
  expect_error<ValueError>(
      [] {
        ops::space_to_depth(zeros({1, 3, 4, 2}), 2);
      },
      {"space_to_depth", "(1, 3, 4, 2)", "divisible"});
  expect_error<ValueError>(
      [] {
        ops::space_to_depth(zeros({2, 4, 4}), 2);
      },
      {"space_to_depth", "4D", "(2, 4, 4)"});
  expect_error<ValueError>([] { ops::unfold(zeros({2, 4, 4}), 2); }, {"unfold", "4D", "(2, 4, 4)"});
  expect_error<ValueError>(
      [] {
        ops::unfold(zeros({1, 1, 2, 2}), 3);
      },
      {"unfold", "(3, 3)", "(1, 1, 2, 2)"});
  expect_error<ValueError>(
      [] {
        ops::fold(zeros({1, 8, 5}), 4, 2, 1, 0, 2);
      },
      {"fold", "(1, 8, 5)", "5 blocks", "2 x 2"});
  expect_error<ValueError>(
      [] {
        ops::fold(zeros({1, 7, 4}), 4, 2, 1, 0, 2);
      },
      {"fold", "(1, 7, 4)", "divisible"});
}

TEST(ConvDtypes, IntegersAndPromotion) {
  Tensor xi = ops::reshape(ops::arange(0, 32), {1, 4, 4, 2});
  Tensor m = ops::max_pool(xi, 2);
  EXPECT_EQ(m.dtype(), DType::Int32);
  EXPECT_EQ(m.to_vector<int32_t>(), (std::vector<int32_t>{10, 11, 14, 15, 26, 27, 30, 31}));
  Tensor a = ops::average_pool(xi, 2);  // the mean of integers is floatx
  EXPECT_EQ(a.dtype(), DType::Float32);
  EXPECT_EQ(a.to_vector<float>()[0], 5.0f);
  // float16 inputs with a float32 kernel compute in float32 (Keras's result_type).
  Tensor y = ops::conv(ops::ones({1, 3, 3, 1}, DType::Float16), ops::ones({3, 3, 1, 1}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(y.item<float>(), 9.0f);
  // bfloat16 computes in float32 on both paths and rounds once.
  for (bool decomposed : {false, true}) {
    std::optional<backend::DecomposeScope> scope;
    if (decomposed) scope.emplace();
    Tensor b = ops::conv(ops::ones({1, 4, 4, 2}, DType::BFloat16),
                         ops::ones({3, 3, 2, 1}, DType::BFloat16));
    EXPECT_EQ(b.dtype(), DType::BFloat16);
    EXPECT_EQ(ops::cast(b, DType::Float32).to_vector<float>(), std::vector<float>(4, 18.0f));
    Tensor p = ops::max_pool(ops::ones({1, 4, 4, 2}, DType::BFloat16), 2, {.padding = "same"});
    EXPECT_EQ(p.dtype(), DType::BFloat16);
  }
}

// Keras lowercases padding and data_format.
TEST(ConvArguments, CaseInsensitiveStrings) {
  Tensor x = ops::ones({1, 5, 5, 2}), k = ops::ones({3, 3, 2, 1});
  EXPECT_EQ(ops::conv(x, k, {.padding = "SAME", .data_format = "Channels_Last"}).shape(),
            Shape({1, 5, 5, 1}));
  EXPECT_EQ(ops::max_pool(x, 2, {.padding = "Same"}).shape(), Shape({1, 3, 3, 2}));
  EXPECT_EQ(ops::depth_to_space(ops::ones({1, 8, 2, 2}), 2, "CHANNELS_FIRST").shape(),
            Shape({1, 2, 4, 4}));
}

Tensor randn(const Shape& shape, uint64_t seed) {
  return random::normal(shape, 0.0, 1.0, DType::Float64, seed);
}

// Sizes that take several im2col chunks, and inputs given as strided views.
TEST(ConvPaths, LargeAndStridedInputsMatchDecomposition) {
  struct Case {
    Shape x, k;
    ops::ConvOptions options;
  };
  // Products too large for the tiled schedule (chunks, one of them partial) and small ones
  // (several tiles; an image larger than a tile).
  std::vector<Case> cases = {
      {{8, 32, 32, 16}, {3, 3, 16, 8}, {.padding = "same"}},
      {{4, 16, 20, 20}, {3, 3, 16, 16}, {.strides = 2, .data_format = "channels_first"}},
      {{16, 28, 28, 1}, {3, 3, 1, 8}, {.padding = "same"}},
      {{2, 70, 70, 1}, {3, 3, 1, 8}, {}},
      {{6, 12, 30, 30}, {3, 3, 4, 6}, {.strides = 2, .data_format = "channels_first"}},
  };
  for (const Case& c : cases) {
    Tensor x = randn(c.x, 1), k = randn(c.k, 2);
    auto run = [&](bool decomposed, const Tensor& xin) {
      std::optional<backend::DecomposeScope> scope;
      if (decomposed) scope.emplace();
      std::vector<Tensor> v{xin, k};
      GradientTape tape;
      tape.watch(v);
      Tensor y = ops::conv(v[0], v[1], c.options);
      auto g = tape.gradient(ops::sum(ops::square(y)), v);
      return std::vector<Tensor>{y, g[0], g[1]};
    };
    auto fused = run(false, x), decomposed = run(true, x);
    // The same input as a non-contiguous view: its channels_first copy transposed back.
    const int r = x.ndim();
    std::vector<int> to_cf{0, r - 1}, to_cl{0};
    for (int d = 1; d < r - 1; ++d) to_cf.push_back(d);
    for (int d = 2; d < r; ++d) to_cl.push_back(d);
    to_cl.push_back(1);
    Tensor strided = ops::transpose(ops::transpose(x, to_cf).contiguous(), to_cl);
    EXPECT_TRUE(x.shape()[r - 1] == 1 || !strided.is_contiguous());
    auto fused_strided = run(false, strided);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_TENSOR_NEAR(fused[i], decomposed[i], 1e-10, 1e-10) << "output " << i;
      EXPECT_TENSOR_NEAR(fused_strided[i], fused[i], 1e-12, 1e-12) << "strided output " << i;
    }
  }
}

}  // namespace
}  // namespace keras

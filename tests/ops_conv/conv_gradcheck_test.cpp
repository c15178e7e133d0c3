// Every differentiable conv and pooling op against central differences in float64, on the
// fused cpu kernels and on the decompositions, plus second-order gradients (through the rules
// written with conv_input_grad / conv_kernel_grad / pool_grad) and agreement of both paths.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using Fn = test::GradFn;
using test::randn;

// Both paths: the fused kernels, then the decompositions.
class ConvGradcheck : public ::testing::TestWithParam<bool> {
 protected:
  void check(const std::string& name, const Fn& fn, const std::vector<Tensor>& inputs) {
    std::optional<backend::DecomposeScope> decompose;
    if (GetParam()) decompose.emplace();
    auto r = testing::gradcheck(fn, inputs);
    EXPECT_TRUE(r.ok) << name << (GetParam() ? " (decomposed)" : " (fused)") << ": " << r.message;
  }
};

// The gradient of sum(f(x)^2) with respect to every input, recorded for a second derivative.
Fn first_order(const Fn& f) {
  return [f](const std::vector<Tensor>& x) {
    std::vector<Tensor> xs = x;
    GradientTape tape;
    tape.watch(xs);
    Tensor y = ops::sum(ops::square(f(xs)));
    auto grads = tape.gradient(y, xs);
    Tensor total = ops::sum(ops::square(grads[0]));
    for (size_t i = 1; i < grads.size(); ++i)
      total = ops::add(total, ops::sum(ops::square(grads[i])));
    return total;
  };
}

TEST_P(ConvGradcheck, Conv) {
  check("conv1d same stride 2",
        [](auto& x) { return ops::conv(x[0], x[1], {.strides = 2, .padding = "same"}); },
        {randn({2, 7, 3}, 1), randn({3, 3, 2}, 2)});
  check("conv2d valid dilation",
        [](auto& x) {
          return ops::conv(x[0], x[1], {.dilation_rate = {2, 1}});
        },
        {randn({1, 6, 5, 2}, 3), randn({2, 3, 2, 3}, 4)});
  check("conv2d groups channels_first",
        [](auto& x) {
          return ops::conv(x[0], x[1],
                           {.strides = {1, 2}, .padding = "same", .data_format = "channels_first"});
        },
        {randn({2, 4, 4, 5}, 5), randn({3, 2, 2, 4}, 6)});
  check("conv3d same",
        [](auto& x) {
          return ops::conv(x[0], x[1], {.strides = {2, 1, 1}, .padding = "same"});
        },
        {randn({1, 3, 4, 3, 2}, 7), randn({2, 2, 3, 2, 2}, 8)});
}

TEST_P(ConvGradcheck, ConvTranspose) {
  check("conv_transpose2d same stride 2",
        [](auto& x) { return ops::conv_transpose(x[0], x[1], {.strides = 2, .padding = "same"}); },
        {randn({1, 3, 3, 2}, 9), randn({3, 3, 2, 2}, 10)});
  check(
      "conv_transpose1d valid output_padding",
      [](auto& x) { return ops::conv_transpose(x[0], x[1], {.strides = 3, .output_padding = 2}); },
      {randn({2, 3, 2}, 11), randn({2, 3, 2}, 12)});
  check("conv_transpose2d channels_first dilation",
        [](auto& x) {
          return ops::conv_transpose(
              x[0], x[1], {.padding = "same", .data_format = "channels_first", .dilation_rate = 2});
        },
        {randn({1, 2, 3, 4}, 13), randn({2, 2, 3, 2}, 14)});
}

TEST_P(ConvGradcheck, DepthwiseAndSeparable) {
  check("depthwise_conv2d",
        [](auto& x) { return ops::depthwise_conv(x[0], x[1], {.strides = 2, .padding = "same"}); },
        {randn({2, 5, 4, 3}, 15), randn({3, 3, 3, 2}, 16)});
  check("separable_conv1d",
        [](auto& x) { return ops::separable_conv(x[0], x[1], x[2], {.padding = "same"}); },
        {randn({1, 6, 2}, 17), randn({3, 2, 2}, 18), randn({1, 4, 3}, 19)});
}

TEST_P(ConvGradcheck, Pooling) {
  check("max_pool2d same",
        [](auto& x) { return ops::max_pool(x[0], 3, {.strides = 2, .padding = "same"}); },
        {randn({2, 5, 6, 2}, 20)});
  check("max_pool1d overlap channels_first",
        [](auto& x) {
          return ops::max_pool(x[0], 3, {.strides = 1, .data_format = "channels_first"});
        },
        {randn({2, 2, 7}, 21)});
  check("average_pool2d same",
        [](auto& x) {
          return ops::average_pool(x[0], {3, 2}, {.strides = 2, .padding = "same"});
        },
        {randn({1, 5, 5, 2}, 22)});
  check("average_pool3d channels_first",
        [](auto& x) {
          return ops::average_pool(x[0], 2, {.strides = 1, .data_format = "channels_first"});
        },
        {randn({1, 2, 3, 3, 3}, 23)});
  check("adaptive_average_pool2d",
        [](auto& x) {
          return ops::adaptive_average_pool(x[0], {3, 2});
        },
        {randn({1, 5, 4, 2}, 24)});
  check("adaptive_max_pool2d",
        [](auto& x) {
          return ops::adaptive_max_pool(x[0], {3, 2}, "channels_first");
        },
        {randn({1, 2, 7, 5}, 25)});
}

TEST_P(ConvGradcheck, Rearrangements) {
  check("depth_to_space", [](auto& x) { return ops::depth_to_space(x[0], 2); },
        {randn({1, 2, 3, 8}, 26)});
  check("space_to_depth", [](auto& x) { return ops::space_to_depth(x[0], 2, "channels_first"); },
        {randn({1, 2, 4, 2}, 27)});
  check("unfold", [](auto& x) { return ops::unfold(x[0], 2, 1, 1, 1); }, {randn({1, 2, 3, 4}, 28)});
  check("fold",
        [](auto& x) {
          return ops::fold(x[0], {3, 4}, 2, 1, 1, 1);
        },
        {randn({1, 8, 20}, 29)});
}

TEST_P(ConvGradcheck, SecondOrder) {
  check("conv2d second order", first_order([](auto& x) {
          return ops::conv(x[0], x[1], {.strides = 2, .padding = "same"});
        }),
        {randn({1, 4, 5, 2}, 30), randn({3, 2, 2, 2}, 31)});
  check("conv_transpose second order",
        first_order([](auto& x) { return ops::conv_transpose(x[0], x[1], {.strides = 2}); }),
        {randn({1, 3, 2}, 32), randn({3, 2, 2}, 33)});
  check("max_pool second order", first_order([](auto& x) {
          return ops::multiply(ops::max_pool(x[0], 2, {.strides = 1}), x[1]);
        }),
        {randn({1, 4, 4, 1}, 34), randn({1, 3, 3, 1}, 35)});
  check("average_pool second order", first_order([](auto& x) {
          return ops::multiply(ops::average_pool(x[0], 2, {.padding = "same"}), x[1]);
        }),
        {randn({1, 3, 5, 1}, 36), randn({1, 2, 3, 1}, 37)});
}

INSTANTIATE_TEST_SUITE_P(Paths, ConvGradcheck, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Decomposed" : "Fused"; });

// The fused kernels and the decompositions agree on gradients of every order they share.
TEST(ConvPaths, FusedAndDecomposedGradientsAgree) {
  Tensor x = randn({2, 6, 5, 4}, 40), k = randn({3, 3, 2, 6}, 41);
  auto grads = [&](bool decomposed) {
    std::optional<backend::DecomposeScope> scope;
    if (decomposed) scope.emplace();
    return first_order([](auto& v) {
      Tensor y = ops::conv(v[0], v[1], {.strides = {2, 1}, .padding = "same", .dilation_rate = 1});
      return ops::max_pool(y, 2, {.strides = 1, .padding = "same"});
    })({x, k});
  };
  EXPECT_TENSOR_NEAR(grads(false), grads(true), 1e-10, 1e-10);
}

}  // namespace
}  // namespace keras

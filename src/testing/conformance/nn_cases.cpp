// Conformance cases for the fused capabilities (convolution, pooling, softmax, elementwise
// chains) and the nn ops built on them. Each runs the backend's fused kernel when it has one;
// the gradients compare the backward kernels as well.

#include "keras/compiler/jit.h"
#include "keras/ops/ops.h"
#include "testing/conformance/cases.h"

namespace keras::testing::conformance {
namespace {

using Outputs = std::vector<Tensor>;

// Convolutions and attention sum many float32 products, and the backends sum them in different
// orders (blocked GEMM over im2col here, ATen's own kernels there): they agree to accumulated
// rounding, which this measure sees wherever the sum nearly cancels.
constexpr double kNnLongSums = 1e-4;

Case conv(const std::string& name, Shape x, Shape k, ops::ConvOptions options) {
  return {"nn",
          name,
          {{x}, {k}},
          [options](const Outputs& in) { return Outputs{ops::conv(in[0], in[1], options)}; },
          kNnLongSums,
          true};
}

Case pool(const std::string& name, bool max, Shape x, ops::IntOrTuple size,
          ops::PoolOptions options) {
  return {"nn", name, {{x}}, [=](const Outputs& in) {
            return Outputs{max ? ops::max_pool(in[0], size, options)
                               : ops::average_pool(in[0], size, options)};
          }, 1e-6, true};
}

}  // namespace

std::vector<Case> nn_cases() {
  std::vector<Case> cases;
  cases.push_back(conv("conv2d valid", {2, 11, 13, 3}, {3, 3, 3, 8}, {}));
  cases.push_back(conv("conv2d same stride 2", {2, 12, 12, 4}, {3, 3, 4, 6},
                       {.strides = 2, .padding = "same"}));
  cases.push_back(conv("conv2d same even kernel", {2, 9, 9, 3}, {4, 4, 3, 5}, {.padding = "same"}));
  cases.push_back(conv("conv2d dilated", {1, 14, 14, 2}, {3, 3, 2, 4}, {.dilation_rate = 2}));
  cases.push_back(conv("conv2d channels_first", {2, 3, 10, 10}, {3, 3, 3, 4},
                       {.data_format = "channels_first"}));
  cases.push_back(conv("conv1d same", {3, 20, 5}, {5, 5, 7}, {.padding = "same"}));
  cases.push_back(conv("conv3d", {1, 6, 7, 8, 2}, {2, 3, 3, 2, 3}, {}));
  cases.push_back({"nn",
                   "depthwise_conv2d",
                   {{Shape{2, 9, 9, 4}}, {Shape{3, 3, 4, 2}}},
                   [](const Outputs& in) { return Outputs{ops::depthwise_conv(in[0], in[1])}; },
                   kNnLongSums,
                   true});
  cases.push_back(
      {"nn",
       "conv2d_transpose stride 2",
       {{Shape{2, 5, 5, 3}}, {Shape{3, 3, 4, 3}}},
       [](const Outputs& in) { return Outputs{ops::conv_transpose(in[0], in[1], {.strides = 2})}; },
       kNnLongSums,
       true});
  cases.push_back(pool("max_pool2d 2x2", true, {2, 10, 10, 3}, 2, {}));
  cases.push_back(pool("max_pool2d 3x3 same stride 2", true, {2, 9, 9, 3}, 3,
                       {.strides = 2, .padding = "same"}));
  cases.push_back(pool("average_pool2d 2x2 same", false, {2, 9, 9, 3}, 2, {.padding = "same"}));
  cases.push_back(pool("average_pool1d 3", false, {3, 16, 4}, 3, {}));
  cases.push_back(pool("max_pool3d 2", true, {1, 6, 6, 6, 2}, 2, {}));
  cases.push_back({"nn", "softmax", {{Shape{32, 41}, -5, 5}},
                   [](const Outputs& in) { return Outputs{ops::softmax(in[0])}; }, 1e-6, true});
  cases.push_back({"nn", "log_softmax axis 0", {{Shape{32, 41}, -5, 5}},
                   [](const Outputs& in) { return Outputs{ops::log_softmax(in[0], 0)}; }, 1e-6, true});
  cases.push_back({"nn", "categorical_crossentropy from logits", {{Shape{32, 10}, 0, 1}, {Shape{32, 10}, -3, 3}},
                   [](const Outputs& in) {
                     return Outputs{ops::categorical_crossentropy(ops::softmax(in[0] * 5.0), in[1], true)}; },
                   1e-6, true});
  cases.push_back({"nn", "layer_normalization", {{Shape{16, 24}, -3, 3}, {Shape{24}}, {Shape{24}}},
                   [](const Outputs& in) {
                     return Outputs{ops::layer_normalization(in[0], in[1], in[2])}; }, 1e-5, true});
  cases.push_back(
      {"nn",
       "dot_product_attention",
       {{Shape{2, 7, 3, 8}}, {Shape{2, 9, 3, 8}}, {Shape{2, 9, 3, 8}}},
       [](const Outputs& in) { return Outputs{ops::dot_product_attention(in[0], in[1], in[2])}; },
       kNnLongSums,
       true});
  // A chain of elementwise ops with scalar, per-row and per-column operands (a normalization
  // with a scale, then Adam-like arithmetic), compiled: a backend with the Elementwise
  // capability runs it as one fused call from the third call on (the first two trace).
  cases.push_back({"nn", "elementwise chain compiled",
                   {{Shape{37, 50}, -3, 3}, {Shape{37, 1}, 0.5, 2}, {Shape{50}}},
                   [](const Outputs& in) {
                     auto chain = jit([](const TensorList& x) {
                       Tensor y = ops::divide(ops::subtract(x[0], 0.25), x[1]);
                       y = ops::add(ops::multiply(ops::tanh(y), x[2]), ops::square(y));
                       // (sqrt away from 0, where it would magnify the backends' last-bit
                       // differences in tanh)
                       return TensorList{
                           ops::where(ops::greater(y, 0.0), ops::sqrt(ops::add(y, 1.0)), y)};
                     });
                     Tensor out;
                     for (int call = 0; call < 3; ++call) out = chain(in)[0];
                     return Outputs{out};
                   },
                   1e-5});  // six steps: each backend's last-bit tanh and sqrt add up
  return cases;
}

}  // namespace keras::testing::conformance

// The torch backend's kernels that write straight into their output (ATen's `_out` forms, and
// products split into blocks over ATen's threads with a single-threaded BLAS), checked against
// ATen computing the same thing by itself: the products, the fused linear layer and the fused
// convolution in float64; the elementwise ops, take and ReLU's backward pass with ATen's own
// kernels. The shapes take every path: a split by rows and by columns, a product too small to
// split, a stack of row blocks, broadcast batches, a few large products, vectors, strided
// operands, and outputs that share an input's memory.

#include <gtest/gtest.h>

#include <ATen/ATen.h>

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "keras/torch/interop.h"

namespace keras {
namespace {

using torch_interop::from_torch;
using torch_interop::to_torch;

class TorchDirectOutput : public ::testing::Test {
 protected:
  void SetUp() override { at::manual_seed(20261206); }
};

at::Tensor uniform(std::vector<int64_t> sizes) {
  return at::rand(sizes, at::kFloat) * 2 - 1;
}

// |got - want| <= tol * (1 + |want|) everywhere, with the shapes equal.
void expect_close(const at::Tensor& got, const at::Tensor& want, double tol,
                  const std::string& what) {
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec()) << what;
  at::Tensor g = got.to(at::kDouble), w = want.to(at::kDouble);
  const double excess = ((g - w).abs() - tol * (1 + w.abs())).max().item<double>();
  EXPECT_LE(excess, 0.0) << what << ": off by more than " << tol << " (relative)";
}

std::string text(const std::vector<int64_t>& sizes) {
  std::string s = "(";
  for (int64_t v : sizes) s += std::to_string(v) + ",";
  return s + ")";
}

TEST_F(TorchDirectOutput, MatmulEqualsATenInFloat64) {
  struct Case {
    std::vector<int64_t> a, b;
  };
  const std::vector<Case> cases{
      {{300, 200}, {200, 100}},        // split by rows
      {{100, 200}, {200, 300}},        // split by columns
      {{7, 5}, {5, 3}},                // too small to split
      {{2, 64, 48}, {48, 40}},         // a stack of rows times one matrix
      {{4, 1, 64, 32}, {3, 32, 48}},   // broadcast batch axes
      {{1, 256, 128}, {1, 128, 256}},  // fewer products than threads: each split itself
      {{5}, {5, 7}},                   // vector times matrix
      {{6, 5}, {5}},                   // matrix times vector
  };
  for (const Case& c : cases) {
    at::Tensor a = uniform(c.a), b = uniform(c.b);
    Tensor y = ops::matmul(from_torch(a), from_torch(b));
    EXPECT_EQ(y.array().backend().name(), "torch");
    expect_close(to_torch(y), at::matmul(a.to(at::kDouble), b.to(at::kDouble)), 1e-5,
                 text(c.a) + " @ " + text(c.b));
  }
}

TEST_F(TorchDirectOutput, MatmulOfStridedOperands) {
  at::Tensor a = uniform({200, 300}), b = uniform({150, 200});
  // (300, 200) @ (200, 150), both operands transposed views of their storage.
  Tensor y = ops::matmul(ops::transpose(from_torch(a)), ops::transpose(from_torch(b)));
  expect_close(to_torch(y), at::matmul(a.t().to(at::kDouble), b.t().to(at::kDouble)), 1e-5,
               "transposed operands");
  at::Tensor every_other = uniform({400, 64}).slice(0, 0, 400, 2);  // rows with a stride of 2
  at::Tensor w = uniform({64, 96});
  Tensor z = ops::matmul(from_torch(every_other), from_torch(w));
  expect_close(to_torch(z), at::matmul(every_other.to(at::kDouble), w.to(at::kDouble)), 1e-5,
               "every other row");
}

TEST_F(TorchDirectOutput, LinearWithEachActivation) {
  backend::Backend& be = backend::get("torch");
  at::Tensor x = uniform({300, 64}), w = uniform({64, 200}), bias = uniform({200});
  at::Tensor z = at::addmm(bias.to(at::kDouble), x.to(at::kDouble), w.to(at::kDouble));
  const std::vector<std::pair<backend::Activation, std::function<at::Tensor(const at::Tensor&)>>>
      activations{
          {backend::Activation::None, [](const at::Tensor& v) { return v; }},
          {backend::Activation::Relu, [](const at::Tensor& v) { return at::relu(v); }},
          {backend::Activation::Sigmoid, [](const at::Tensor& v) { return at::sigmoid(v); }},
          {backend::Activation::Tanh, [](const at::Tensor& v) { return at::tanh(v); }},
          {backend::Activation::Gelu, [](const at::Tensor& v) { return at::gelu(v); }},
          {backend::Activation::Silu, [](const at::Tensor& v) { return at::silu(v); }},
      };
  for (const auto& [activation, reference] : activations) {
    Tensor out = from_torch(at::empty({300, 200}));
    be.linear(out.array(), from_torch(x).array(), from_torch(w).array(), from_torch(bias).array(),
              activation);
    expect_close(to_torch(out), reference(z), 1e-5,
                 "activation " + std::to_string(static_cast<int>(activation)));
  }
  Tensor no_bias = from_torch(at::empty({300, 200}));
  be.linear(no_bias.array(), from_torch(x).array(), from_torch(w).array(), backend::Array{},
            backend::Activation::Relu);
  expect_close(to_torch(no_bias), at::relu(at::mm(x.to(at::kDouble), w.to(at::kDouble))), 1e-5,
               "no bias");
}

TEST_F(TorchDirectOutput, ConvolutionWithBiasAndEachActivation) {
  // Channels-last (2, 9, 9, 3) input, a 3x3 kernel to 8 channels, "valid" and "same" (padding
  // applied explicitly on one side, and none), the bias and activation applied in place.
  backend::Backend& be = backend::get("torch");
  at::Tensor x = uniform({2, 9, 9, 3}), kernel = uniform({3, 3, 3, 8}), bias = uniform({8});
  at::Tensor x64 = x.permute({0, 3, 1, 2}).to(at::kDouble);
  at::Tensor w64 = kernel.permute({3, 2, 0, 1}).to(at::kDouble);
  for (int64_t pad : {0, 1}) {
    backend::ConvSpec spec;
    spec.strides = {1, 1};
    spec.dilation = {1, 1};
    spec.pad_before = {pad, pad};
    spec.pad_after = {pad, pad};
    at::Tensor z = at::conv2d(x64, w64, bias.to(at::kDouble), 1, pad).permute({0, 2, 3, 1});
    for (auto [activation, reference] : std::vector<std::pair<backend::Activation, at::Tensor>>{
             {backend::Activation::None, z},
             {backend::Activation::Relu, at::relu(z)},
             {backend::Activation::Sigmoid, at::sigmoid(z)},
             {backend::Activation::Tanh, at::tanh(z)}}) {
      Tensor out = from_torch(at::empty(z.sizes(), at::kFloat));
      be.conv_bias_activation(out.array(), from_torch(x).array(), from_torch(kernel).array(),
                              from_torch(bias).array(), activation, spec);
      expect_close(to_torch(out), reference, 1e-5,
                   "pad " + std::to_string(pad) + ", activation " +
                       std::to_string(static_cast<int>(activation)));
    }
  }
}

TEST_F(TorchDirectOutput, ElementwiseEqualsATen) {
  at::Tensor a = uniform({33, 64}).t();  // (64, 33), column-major: a strided operand
  at::Tensor b = uniform({33});          // broadcast along the rows
  Tensor x = from_torch(a), y = from_torch(b);
  const std::vector<std::tuple<std::string, Tensor, at::Tensor>> binary{
      {"add", ops::add(x, y), a + b},
      {"subtract", ops::subtract(x, y), a - b},
      {"multiply", ops::multiply(x, y), a * b},
      {"divide", ops::divide(x, y), a / b},
      {"maximum", ops::maximum(x, y), at::maximum(a, b)},
      {"minimum", ops::minimum(x, y), at::minimum(a, b)},
      {"equal", ops::equal(x, x), at::eq(a, a)},
      {"less", ops::less(x, y), at::lt(a, b)},
      {"greater_equal", ops::greater_equal(x, y), at::ge(a, b)},
      {"logical_or", ops::logical_or(ops::less(x, y), ops::greater_equal(x, y)),
       at::logical_or(at::lt(a, b), at::ge(a, b))},
  };
  for (const auto& [name, got, want] : binary) EXPECT_TRUE(at::equal(to_torch(got), want)) << name;
  const std::vector<std::tuple<std::string, Tensor, at::Tensor>> unary{
      {"exp", ops::exp(x), at::exp(a)},
      {"log", ops::log(ops::abs(x)), at::log(at::abs(a))},
      {"sqrt", ops::sqrt(ops::abs(x)), at::sqrt(at::abs(a))},
      {"negative", ops::negative(x), at::neg(a)},
      {"square", ops::square(x), a * a},
      {"reciprocal", ops::reciprocal(x), at::reciprocal(a)},
      {"floor", ops::floor(x), at::floor(a)},
      {"relu", ops::relu(x), at::relu(a)},
      {"sigmoid", ops::sigmoid(x), at::sigmoid(a)},
      {"silu", ops::silu(x), at::silu(a)},
  };
  for (const auto& [name, got, want] : unary) expect_close(to_torch(got), want, 1e-6, name);
}

TEST_F(TorchDirectOutput, ReluBackwardWritesItsOutput) {
  // dz = g where y > 0, else 0 (a NaN in y gives 0, as the unfused where does); db sums dz over
  // the rows. Called directly, as the compiled step calls it.
  backend::Backend& be = backend::get("torch");
  at::Tensor y = at::relu(uniform({70, 33})), g = uniform({70, 33});
  y[3][4] = std::numeric_limits<float>::quiet_NaN();
  at::Tensor dz = at::empty({70, 33}), db = at::empty({33});
  be.bias_activation_backward(from_torch(dz).array(), from_torch(db).array(), from_torch(y).array(),
                              from_torch(g).array(), backend::Activation::Relu);
  at::Tensor want = at::where(y > 0, g, at::zeros_like(g));
  EXPECT_TRUE(at::equal(dz, want));
  expect_close(db, want.to(at::kDouble).sum(0), 1e-6, "db");
}

TEST_F(TorchDirectOutput, BiasGradientSumsEachColumnInFloat64) {
  // dz = g (or ReLU's gradient of it) and db = dz summed over every axis but the last, in
  // blocks of rows on ATen's threads: a convolution's gradient (many short rows, the last block
  // partial), a single column, a few wide rows, and rows too few for one block.
  backend::Backend& be = backend::get("torch");
  for (const std::vector<int64_t>& sizes :
       std::vector<std::vector<int64_t>>{{8, 13, 13, 32}, {3001, 1}, {7, 5000}, {3, 4}}) {
    for (backend::Activation activation : {backend::Activation::None, backend::Activation::Relu}) {
      at::Tensor g = uniform(sizes) + 0.25f;  // a mean away from 0: lost blocks would show
      at::Tensor y = uniform(sizes), dz = at::empty(sizes), db = at::empty({sizes.back()});
      y.view({-1})[y.numel() / 2] = std::numeric_limits<float>::quiet_NaN();
      be.bias_activation_backward(from_torch(dz).array(), from_torch(db).array(),
                                  from_torch(y).array(), from_torch(g).array(), activation);
      const bool relu = activation == backend::Activation::Relu;
      const at::Tensor want = relu ? at::where(y > 0, g, at::zeros_like(g)) : g;
      const std::string what = (relu ? "relu " : "") + text(sizes);
      EXPECT_TRUE(at::equal(dz, want)) << what;
      expect_close(db, want.to(at::kDouble).reshape({-1, sizes.back()}).sum(0), 1e-6,
                   "db of " + what);
    }
  }
}

TEST_F(TorchDirectOutput, MaxPoolBackwardWritesItsOutput) {
  // 2x2 windows, stride 2 and 3x3, stride 1, channels last, no padding: the gradient lands in
  // dx through its channels-first view. Against ATen on the same tensors in its own layout.
  backend::Backend& be = backend::get("torch");
  for (int64_t window : {2, 3}) {
    const int64_t stride = window == 2 ? 2 : 1, out_size = (9 - window) / stride + 1;
    at::Tensor x = uniform({4, 9, 9, 3}), dy = uniform({4, out_size, out_size, 3});
    at::Tensor dx = at::full({4, 9, 9, 3}, 7.0f);  // every element overwritten
    backend::PoolSpec spec;
    spec.window = {window, window};
    spec.strides = {stride, stride};
    spec.pad_before = {0, 0};
    spec.pad_after = {0, 0};
    be.pool_backward(from_torch(dx).array(), from_torch(dy).array(), from_torch(x).array(), {},
                     spec);
    at::Tensor xf = x.permute({0, 3, 1, 2}), dyf = dy.permute({0, 3, 1, 2});
    at::Tensor indices =
        std::get<1>(at::max_pool2d_with_indices(xf, {window, window}, {stride, stride}));
    at::Tensor want = at::max_pool2d_with_indices_backward(
        dyf, xf, {window, window}, {stride, stride}, {0, 0}, {1, 1}, false, indices);
    EXPECT_TRUE(at::equal(dx, want.permute({0, 2, 3, 1}))) << "window " << window;
  }
}

TEST_F(TorchDirectOutput, TakeCopiesRowsAsIndexSelect) {
  // ops::take hands the backend a 1-d index broadcast over the other axes: the backend copies
  // whole rows (ATen's index_select) instead of gathering element by element.
  at::Tensor a = uniform({40, 6, 5});
  for (int axis = 0; axis < 3; ++axis) {
    at::Tensor idx = at::randint(0, a.size(axis), {9}, at::kLong);  // repeats, any order
    for (at::Tensor source : {a, a.transpose(0, 2).contiguous().transpose(0, 2)}) {
      for (at::ScalarType t : {at::kLong, at::kInt}) {
        Tensor y = ops::take(from_torch(source), from_torch(idx.to(t)), axis);
        EXPECT_TRUE(at::equal(to_torch(y), at::index_select(source, axis, idx)))
            << "take along axis " << axis;
      }
    }
  }
  // take_along_axis: an index that varies along another axis is gathered element by element;
  // one broadcast over every other axis is a take.
  for (std::vector<int64_t> sizes : {std::vector<int64_t>{12, 6, 5}, {12, 1, 5}, {12, 1, 1}}) {
    at::Tensor idx = at::randint(0, 40, sizes, at::kLong);
    Tensor y = ops::take_along_axis(from_torch(a), from_torch(idx), 0);
    EXPECT_TRUE(at::equal(to_torch(y), at::gather(a, 0, idx.expand({12, 6, 5}))))
        << "take_along_axis with an index of " << text(sizes);
  }
}

TEST_F(TorchDirectOutput, OutputsThatShareAnInputsMemory) {
  // The contract lets an output be an input, or overlap one (the compiler reuses buffers). ATen
  // refuses an output that partly overlaps an input, and a product cannot be computed in place:
  // the backend computes those into fresh memory first. Each Array below wraps the same LibTorch
  // buffer separately, as interop does.
  backend::Backend& be = backend::get("torch");
  at::Tensor square = uniform({64, 64});
  at::Tensor buffer = square.clone();
  be.binary(backend::BinaryOp::Add, from_torch(buffer).array(), from_torch(buffer).array(),
            from_torch(buffer.t()).array());
  expect_close(buffer, square + square.t(), 0, "s = s + s^T");
  buffer = square.clone();
  be.matmul(from_torch(buffer).array(), from_torch(buffer).array(), from_torch(buffer).array());
  expect_close(buffer, at::matmul(square.to(at::kDouble), square.to(at::kDouble)), 1e-5,
               "s = s @ s");
  buffer = square.clone();
  be.unary(backend::UnaryOp::Exp, from_torch(buffer.t()).array(), from_torch(buffer).array(), 0, 0);
  expect_close(buffer.t(), at::exp(square), 1e-6, "s^T = exp(s)");
  buffer = square.clone();
  be.copy(from_torch(buffer).array(), from_torch(buffer.t()).array(), backend::CopyMode::Add);
  expect_close(buffer, square + square.t(), 0, "s += s^T");
  // An elementwise op whose output is exactly one of its inputs runs in place (the compiler
  // assigns m + d into m that way); one whose other input is a shifted view of the output's
  // memory still computes into fresh memory first.
  const at::Tensor other = uniform({64, 64});
  buffer = square.clone();
  be.binary(backend::BinaryOp::Sub, from_torch(buffer).array(), from_torch(buffer).array(),
            from_torch(other).array());
  expect_close(buffer, square - other, 0, "s = s - o");
  buffer = square.clone();
  be.binary(backend::BinaryOp::Mul, from_torch(buffer).array(), from_torch(buffer).array(),
            from_torch(buffer).array());
  expect_close(buffer, square * square, 0, "s = s * s");
  buffer = square.clone();
  be.unary(backend::UnaryOp::Exp, from_torch(buffer).array(), from_torch(buffer).array(), 0, 0);
  expect_close(buffer, at::exp(square), 1e-6, "s = exp(s)");
  const at::Tensor line = uniform({4097});
  buffer = line.clone();
  const Tensor head = from_torch(buffer.slice(0, 0, 4096));
  be.binary(backend::BinaryOp::Add, head.array(), head.array(),
            from_torch(buffer.slice(0, 1, 4097)).array());
  expect_close(buffer.slice(0, 0, 4096), line.slice(0, 0, 4096) + line.slice(0, 1, 4097), 0,
               "l[:-1] = l[:-1] + l[1:]");
}

}  // namespace
}  // namespace keras

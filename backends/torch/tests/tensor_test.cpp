// to_torch / from_torch: the same memory seen from both libraries, values checked against
// LibTorch's own view of it, and lifetimes in both orders.

#include <gtest/gtest.h>

#include <complex>

#include <ATen/ATen.h>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/torch/interop.h"

namespace keras {
namespace {

using torch_interop::from_torch;
using torch_interop::to_torch;

std::vector<float> values_of(const at::Tensor& t) {
  at::Tensor c = t.contiguous().to(at::kFloat);
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

class TensorInterop : public ::testing::TestWithParam<const char*> {};

TEST_P(TensorInterop, ToTorchSharesMemoryBothWays) {
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, GetParam());
  at::Tensor t = to_torch(x);
  EXPECT_EQ(t.data_ptr(), x.array().data());
  EXPECT_EQ(t.sizes().vec(), (std::vector<int64_t>{2, 3}));
  t.mul_(10);  // a LibTorch write ...
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{10, 20, 30, 40, 50, 60}));  // ... seen
  x.array().data_as<float>()[5] = -1;    // a write into the keras buffer ...
  EXPECT_EQ(t[1][2].item<float>(), -1);  // ... seen by LibTorch
}

TEST_P(TensorInterop, TorchViewOutlivesKerasTensor) {
  at::Tensor t;
  {
    Tensor x = ops::multiply(ops::arange(0, 1000, 1, DType::Float32), 2.0);
    t = to_torch(x);
  }
  EXPECT_EQ(t.numel(), 1000);
  EXPECT_EQ(t[999].item<float>(), 1998);
  EXPECT_EQ(t.sum().item<double>(), 999000);
}

TEST_P(TensorInterop, StridedViewsKeepTheirStrides) {
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, GetParam());
  at::Tensor whole = to_torch(x);
  at::Tensor tt = to_torch(x.transpose());
  EXPECT_EQ(tt.data_ptr(), whole.data_ptr());  // no copy
  EXPECT_EQ(tt.strides().vec(), (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(at::equal(tt, whole.t()));
  at::Tensor col = to_torch(x.slice({Slice(), Slice(1, 2)}));  // storage offset 1
  EXPECT_TRUE(at::equal(col, whole.narrow(1, 1, 1)));
  at::Tensor b = to_torch(x[0].broadcast_to({4, 3}));  // stride 0
  EXPECT_EQ(b.strides().vec(), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(at::equal(b, whole[0].expand({4, 3})));
}

TEST_P(TensorInterop, NegativeStridesAreCopied) {
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, GetParam());
  Tensor flipped = x.slice({Slice(), Slice(std::nullopt, std::nullopt, -1)});
  ASSERT_LT(flipped.strides()[1], 0);  // a real negative-stride view, or the test proves nothing
  at::Tensor t = to_torch(flipped);
  EXPECT_TRUE(at::equal(t, to_torch(x).flip({1})));
  EXPECT_NE(t.data_ptr(), x.array().data());
}

TEST_P(TensorInterop, FromTorchSharesMemoryBothWays) {
  at::Tensor t = at::arange(6, at::kFloat).reshape({2, 3});
  Tensor x = from_torch(t, GetParam());
  EXPECT_EQ(x.backend_name(), GetParam());
  EXPECT_EQ(x.array().data(), t.data_ptr());
  EXPECT_EQ(x.shape(), Shape({2, 3}));
  t.add_(1);
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  x.array().data_as<float>()[0] = 42;
  EXPECT_EQ(t[0][0].item<float>(), 42);
  // Keras ops run on it like on any tensor of that backend.
  Tensor y = ops::add(x, Tensor::from_vector(std::vector<float>{1, 1, 1}, {3}, GetParam()));
  EXPECT_EQ(values_of(to_torch(y)), values_of(t + 1));
}

TEST_P(TensorInterop, KerasTensorOutlivesTorchTensor) {
  Tensor x;
  {
    at::Tensor t = at::linspace(0, 1, 101, at::kDouble);
    x = from_torch(t, GetParam());
  }
  EXPECT_EQ(x.dtype(), DType::Float64);
  EXPECT_NEAR(ops::sum(x).item<double>(), 50.5, 1e-12);
}

TEST_P(TensorInterop, FromTorchKeepsStridesAndOffsets) {
  at::Tensor base = at::randn({4, 5}, at::kFloat);
  for (const at::Tensor& t : {base.t(), base.narrow(0, 1, 2), base.select(1, 3),
                              base.unsqueeze(0).expand({3, 4, 5}), base.slice(1, 0, 5, 2)}) {
    Tensor x = from_torch(t, GetParam());
    EXPECT_EQ(x.array().data(), t.data_ptr());
    EXPECT_EQ(x.to_vector<float>(), values_of(t));
  }
}

INSTANTIATE_TEST_SUITE_P(HostBackends, TensorInterop, ::testing::Values("cpu", "torch"));

TEST(TensorInteropDTypes, EveryKerasDTypeMapsBothWays) {
  const std::vector<std::pair<DType, at::ScalarType>> pairs = {
      {DType::Bool, at::kBool},     {DType::Int8, at::kChar},         {DType::Int16, at::kShort},
      {DType::Int32, at::kInt},     {DType::Int64, at::kLong},        {DType::UInt8, at::kByte},
      {DType::Float16, at::kHalf},  {DType::BFloat16, at::kBFloat16}, {DType::Float32, at::kFloat},
      {DType::Float64, at::kDouble}};
  for (const auto& [dtype, type] : pairs) {
    SCOPED_TRACE(dtype_name(dtype));
    Tensor x = ops::cast(Tensor::from_vector(std::vector<double>{0, 1, 0, 1, 1, 0}, {2, 3}), dtype);
    at::Tensor t = to_torch(x);
    EXPECT_EQ(t.scalar_type(), type);
    // LibTorch's own conversion of the same bytes gives the same numbers.
    EXPECT_EQ(values_of(t), x.to_vector<float>());
    Tensor back = from_torch(t);
    EXPECT_EQ(back.dtype(), dtype);
    EXPECT_EQ(back.array().data(), x.array().data());
  }
}

TEST(TensorInteropDTypes, ComplexMapsBothWaysWithoutACopy) {
  using C = std::complex<float>;
  Tensor z = Tensor::from_vector(std::vector<C>{{1, 2}, {3, -4}, {5, 6}, {-7, 8}}, {2, 2});
  at::Tensor t = to_torch(z.transpose());
  EXPECT_EQ(t.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(t.data_ptr(), z.array().data());
  // LibTorch's own reading of the pairs: (real, imaginary) of element [0, 1] of the transpose.
  at::Tensor parts = at::view_as_real(t);
  EXPECT_EQ(parts[0][1][0].item<float>(), 5);
  EXPECT_EQ(parts[0][1][1].item<float>(), 6);
  at::Tensor d = at::view_as_complex(at::arange(6, at::kDouble).reshape({3, 2}));
  Tensor back = from_torch(d);
  EXPECT_EQ(back.dtype(), DType::Complex128);
  EXPECT_EQ(back.to_vector<std::complex<double>>(),
            (std::vector<std::complex<double>>{{0, 1}, {2, 3}, {4, 5}}));
  EXPECT_THROW(from_torch(at::zeros({2}, at::kComplexHalf)), TypeError);
}

TEST(TensorInteropDTypes, QuantizedAndSparseTensorsAreCopied) {
  at::Tensor f = at::tensor({0.0f, 0.5f, 1.0f, 2.5f});
  at::Tensor q = at::quantize_per_tensor(f, 0.5, 0, at::kQUInt8);
  Tensor xq = from_torch(q);
  EXPECT_EQ(xq.dtype(), DType::Float32);
  EXPECT_EQ(xq.to_vector<float>(), values_of(q.dequantize()));

  at::Tensor dense = at::tensor({0.0f, 3.0f, 0.0f, -1.0f}).reshape({2, 2});
  Tensor xs = from_torch(dense.to_sparse());
  EXPECT_EQ(xs.to_vector<float>(), values_of(dense));
}

TEST(TensorInteropDTypes, UndefinedAndDeviceErrors) {
  EXPECT_THROW(to_torch(Tensor()), Error);
  EXPECT_THROW(from_torch(at::Tensor()), Error);
  EXPECT_THROW(from_torch(at::zeros({2}), "no_such_backend"), Error);
}

TEST(TensorInteropDTypes, EmptyAndScalarTensors) {
  Tensor e = from_torch(at::zeros({0, 3}));
  EXPECT_EQ(e.shape(), Shape({0, 3}));
  EXPECT_EQ(to_torch(e).sizes().vec(), (std::vector<int64_t>{0, 3}));
  Tensor s = from_torch(at::scalar_tensor(2.5, at::kDouble));
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.item<double>(), 2.5);
  EXPECT_EQ(to_torch(s).item<double>(), 2.5);
}

}  // namespace
}  // namespace keras

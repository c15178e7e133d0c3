// Tensor handles: construction, views sharing storage, host copies, printing.

#include <gtest/gtest.h>

#include <functional>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

TEST(Tensor, FromVectorAndBack) {
  Tensor t = Tensor::from_vector(std::vector<int32_t>{1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.dtype(), DType::Int32);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_THROW(Tensor::from_vector(std::vector<float>{1, 2}, Shape{3}), ValueError);
  EXPECT_EQ(Tensor::from_vector(std::vector<double>{1.5}, Shape{}).item<double>(), 1.5);
  EXPECT_THROW(t.item<float>(), ValueError);
}

TEST(Tensor, LiteralsAreWeak) {
  Tensor s = 2.5;
  EXPECT_TRUE(s.is_weak());
  EXPECT_EQ(s.dtype(), DType::Float32);
  Tensor h = ops::cast(make({1, 2}, {2}), DType::Float16);
  EXPECT_EQ((h * 2.5).dtype(), DType::Float16);
  Tensor i = Tensor::from_vector(std::vector<int8_t>{1, 2}, Shape{2});
  EXPECT_EQ((i + 1).dtype(), DType::Int8);
  EXPECT_EQ((i + 1.0).dtype(), DType::Float32);
}

TEST(Tensor, ViewsShareStorage) {
  Tensor x = ops::reshape(ops::arange(24), {2, 3, 4});
  Tensor t = x.transpose();
  EXPECT_EQ(t.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(t.array().storage, x.array().storage);
  EXPECT_FALSE(t.is_contiguous());
  Tensor c = t.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_NE(c.array().storage, x.array().storage);
  EXPECT_EQ(c.to_vector<int>()[1], 12);  // t[0,0,1] = x[1,0,0]
  Tensor s = x.slice({{}, {1, 3}, {None, None, 2}});
  EXPECT_EQ(s.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(s.array().storage, x.array().storage);
  EXPECT_EQ(s.to_vector<int>(), (std::vector<int>{4, 6, 8, 10, 16, 18, 20, 22}));
  EXPECT_EQ(x[1][2].to_vector<int>(), (std::vector<int>{20, 21, 22, 23}));
  EXPECT_EQ(x[-1][0][-1].item<int>(), 15);
  EXPECT_THROW(x[2], IndexError);
  // Reshape of a contiguous tensor is a view; of a transposed one, a copy.
  EXPECT_EQ(x.reshape({6, 4}).array().storage, x.array().storage);
  EXPECT_NE(t.reshape({24}).array().storage, x.array().storage);
  EXPECT_EQ(t.reshape({24}).to_vector<int>()[1], 12);
}

TEST(Tensor, NegativeStrides) {
  Tensor x = ops::arange(6);
  Tensor r = x.slice({{None, None, -1}});
  EXPECT_EQ(r.strides()[0], -1);
  EXPECT_EQ(r.to_vector<int>(), (std::vector<int>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ((r * 2).to_vector<int>(), (std::vector<int>{10, 8, 6, 4, 2, 0}));
  EXPECT_EQ(ops::sum(r).item<int>(), 15);
}

TEST(Tensor, PrintsLikeNumpy) {
  EXPECT_EQ(to_string(make({1, 2.5, -3, 4}, {2, 2})),
            "tensor([[ 1. ,  2.5],\n        [-3. ,  4. ]], dtype=float32)");
  EXPECT_EQ(to_string(ops::arange(3)), "tensor([0, 1, 2], dtype=int32)");
  EXPECT_EQ(to_string(Tensor(true)), "tensor(True, dtype=bool)");
  std::string big = to_string(ops::arange(2000));
  EXPECT_EQ(big, "tensor([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)");
  EXPECT_EQ(to_string(ops::zeros({0, 3})), "tensor([], shape=(0, 3), dtype=float32)");
}

TEST(Tensor, OperatorsRebindNotMutate) {
  Tensor a = make({1, 2}, {2});
  Tensor b = a;
  a += 1.0;
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{2, 3}));
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ((-a).to_vector<float>(), (std::vector<float>{-2, -3}));
  EXPECT_EQ((a > 2.5).to_vector<bool>(), (std::vector<bool>{false, true}));
}

TEST(Tensor, MovesBetweenBackendsExplicitly) {
  Tensor a = make({1, 2, 3}, {3});
  Tensor s = a.to("stub");
  EXPECT_EQ(s.backend_name(), "stub");
  EXPECT_EQ(s.to("cpu").to_vector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_TRUE(a.to("cpu").is_same(a));
}

// An undefined tensor read by mistake (here: read directly, and passed to an op, which names
// itself) is a ValueError that says what is wrong, not a null dereference.
TEST(Tensor, UndefinedTensorIsAClearError) {
  Tensor undefined;
  EXPECT_FALSE(undefined.defined());
  for (const auto& read : std::vector<std::function<void()>>{
           [&] { (void)undefined.shape(); }, [&] { (void)undefined.dtype(); },
           [&] { (void)undefined.size(); }, [&] { (void)undefined.to_vector<float>(); },
           [&] { (void)ops::add(undefined, make({1}, {1})); },
           [&] { (void)ops::matmul(make({1, 2}, {1, 2}), undefined); }}) {
    try {
      read();
      ADD_FAILURE() << "reading an undefined tensor did not throw";
    } catch (const ValueError& e) {
      const std::string message = e.what();
      EXPECT_TRUE(message.find("Tensor is undefined") != std::string::npos ||
                  message.find("is an undefined tensor") != std::string::npos)
          << message;
    }
  }
}

}  // namespace
}  // namespace keras

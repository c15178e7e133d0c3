// Bad inputs to keras.ops.nn: the error type, and a message that names the op and the values.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "keras/keras.h"

namespace keras {
namespace {

Tensor f32(const Shape& shape) { return ops::zeros(shape, DType::Float32); }

// Runs fn, which must throw E with every one of `parts` in its message.
template <typename E>
void expect_error(const std::function<void()>& fn, const std::vector<std::string>& parts) {
  try {
    fn();
    ADD_FAILURE() << "no exception; expected one mentioning " << parts.front();
  } catch (const E& e) {
    std::string msg = e.what();
    for (const std::string& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "message lacks '" << p << "': " << msg;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

TEST(NnErrors, Activations) {
  expect_error<ValueError>([] { ops::softmax(f32({2, 3}), 2); }, {"softmax", "axis 2", "rank 2"});
  expect_error<ValueError>([] { ops::log_softmax(f32({}), -1); }, {"log_softmax", "rank 0"});
  expect_error<ValueError>([] { ops::softmax(f32({2, 3}), {1, -1}); }, {"softmax", "repeated"});
  expect_error<ValueError>([] { ops::sparsemax(f32({2, 3}), -3); }, {"sparsemax", "axis -3"});
  expect_error<ValueError>([] { ops::glu(f32({2, 5})); }, {"glu", "even", "(2, 5)"});
  expect_error<ValueError>([] { ops::celu(f32({2}), 0.0); }, {"celu", "alpha"});
  expect_error<ValueError>([] { ops::relu(Tensor()); }, {"relu", "undefined"});
}

TEST(NnErrors, Losses) {
  expect_error<ValueError>([] { ops::binary_crossentropy(f32({3, 4}), f32({4, 3})); },
                           {"binary_crossentropy", "(3, 4)", "(4, 3)"});
  expect_error<ValueError>([] { ops::categorical_crossentropy(f32({3, 4}), f32({3, 5})); },
                           {"categorical_crossentropy", "(3, 4)", "(3, 5)"});
  expect_error<ValueError>([] { ops::categorical_crossentropy(f32({}), f32({})); },
                           {"categorical_crossentropy", "rank 1"});
  Tensor labels = Tensor::from_vector(std::vector<int32_t>{0, 4, 1}, {3});
  expect_error<IndexError>([&] { ops::sparse_categorical_crossentropy(labels, f32({3, 4})); },
                           {"sparse_categorical_crossentropy", "[0, 4)", "[0, 4]", "(3, 4)"});
  expect_error<ValueError>([&] { ops::sparse_categorical_crossentropy(labels, f32({2, 4})); },
                           {"sparse_categorical_crossentropy", "(3,)", "(2, 4)", "(2,)"});
  expect_error<ValueError>([&] { ops::sparse_categorical_crossentropy(labels, f32({})); },
                           {"sparse_categorical_crossentropy", "rank 1"});
  expect_error<ValueError>([] { ops::psnr(f32({2, 3}), f32({3, 2}), 1.0); },
                           {"psnr", "(2, 3)", "(3, 2)"});
}

TEST(NnErrors, Normalization) {
  expect_error<ValueError>(
      [] { ops::batch_normalization(f32({2, 3}), f32({2}), f32({3}), 1); },
      {"batch_normalization", "mean", "length", "3", "(2,)"});
  expect_error<ValueError>(
      [] { ops::batch_normalization(f32({2, 3}), f32({3}), f32({3}), 1, f32({3, 1})); },
      {"batch_normalization", "offset", "(3, 1)"});
  expect_error<ValueError>([] { ops::batch_normalization(f32({2, 3}), f32({3}), f32({3}), 2); },
                           {"batch_normalization", "axis 2"});
  expect_error<ValueError>([] { ops::normalize(f32({2, 3}), -1, 0); }, {"normalize", "order=0"});
  expect_error<ValueError>([] { ops::normalize(f32({2, 3}), {0, 1}, 3); },
                           {"normalize", "order=3", "(2, 3)"});
  expect_error<ValueError>([] { ops::moments(f32({2, 3}), {0, 0}); }, {"moments", "repeated"});
  expect_error<ValueError>([] { ops::layer_normalization(f32({2, 3}), Tensor(), Tensor(), 4); },
                           {"layer_normalization", "axis 4"});
}

TEST(NnErrors, Encoding) {
  Tensor labels = Tensor::from_vector(std::vector<int32_t>{0, 2}, {2});
  expect_error<ValueError>([&] { ops::one_hot(labels, -2); }, {"one_hot", "num_classes", "-2"});
  expect_error<NotImplementedError>([&] { ops::one_hot(labels, 3, -1, std::nullopt, true); },
                                    {"one_hot", "sparse"});
  expect_error<NotImplementedError>([&] { ops::multi_hot(labels, 3, -1, std::nullopt, true); },
                                    {"multi_hot", "sparse"});
  expect_error<ValueError>([&] { ops::one_hot(labels, 3, 2); }, {"one_hot", "axis 2"});
  Tensor none = ops::zeros({2, 0}, DType::Int32);
  expect_error<ValueError>([&] { ops::multi_hot(none, 3); }, {"multi_hot", "(2, 0)", "empty"});
}

TEST(NnErrors, Attention) {
  Tensor q = f32({1, 2, 4, 3}), k = f32({1, 5, 2, 3});
  expect_error<ValueError>([&] { ops::dot_product_attention(f32({2, 4, 3}), k, k); },
                           {"dot_product_attention", "4-d", "(2, 4, 3)"});
  expect_error<ValueError>([&] { ops::dot_product_attention(q, f32({1, 5, 3, 3}), f32({1, 5, 3, 3})); },
                           {"dot_product_attention", "multiple", "(1, 2, 4, 3)", "(1, 5, 3, 3)"});
  expect_error<ValueError>([&] { ops::dot_product_attention(q, k, f32({1, 5, 2, 4})); },
                           {"dot_product_attention", "value", "(1, 5, 2, 4)"});
  expect_error<ValueError>([&] { ops::dot_product_attention(q, f32({1, 5, 2, 2}), f32({1, 5, 2, 2})); },
                           {"dot_product_attention", "B and H"});
  expect_error<ValueError>(
      [&] { ops::dot_product_attention(q, k, k, {.bias = f32({1, 3, 2, 5})}); },
      {"dot_product_attention", "bias", "(1, 3, 2, 5)", "(1, 4, 2, 5)"});
  expect_error<ValueError>(
      [&] { ops::dot_product_attention(q, k, k, {.mask = f32({2, 1, 1, 2, 5})}); },
      {"dot_product_attention", "mask", "rank <= 4"});
}

TEST(NnSemantics, IntegerDtypes) {
  Tensor xi = Tensor::from_vector(std::vector<int32_t>{-2, 0, 5}, {3});
  EXPECT_EQ(ops::relu(xi).dtype(), DType::Int32);
  EXPECT_EQ(ops::hard_tanh(xi).dtype(), DType::Int32);
  EXPECT_EQ(ops::relu6(xi).dtype(), DType::Float32);
  EXPECT_EQ(ops::gelu(xi).dtype(), DType::Float32);
  EXPECT_EQ(ops::softmax(xi).dtype(), DType::Float32);
  EXPECT_EQ(ops::one_hot(xi, 4).dtype(), DType::Float32);
  EXPECT_EQ(ops::one_hot(xi, 4, -1, DType::Bool).dtype(), DType::Bool);
  // Keras casts layer and rms normalization back to the input dtype, even for integers.
  EXPECT_EQ(ops::layer_normalization(xi).dtype(), DType::Int32);
  EXPECT_EQ(ops::rms_normalization(ops::cast(xi, DType::Float16)).dtype(), DType::Float16);
}

TEST(NnSemantics, RecordsOneNodeAndNoCycle) {
  // The op's output is read through ctx.output(), never captured: the tape can be dropped and
  // the gradient is the analytic one, y (1 - y) for sigmoid.
  Tensor x = Tensor::from_vector(std::vector<double>{-1.0, 0.5, 2.0}, {3});
  Tensor g = grad([](const Tensor& z) { return ops::sum(ops::sigmoid(z)); }, x);
  std::vector<double> gv = g.to_vector<double>(), xv = x.to_vector<double>();
  for (size_t i = 0; i < xv.size(); ++i) {
    double s = 1 / (1 + std::exp(-xv[i]));
    EXPECT_NEAR(gv[i], s * (1 - s), 1e-15);
  }
}

}  // namespace
}  // namespace keras

// The Fourier ops' gradients against central finite differences in float64, and their errors.

#include <gtest/gtest.h>

#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/ops/math/fourier.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;

// Both parts of a complex result folded into one real tensor that gradcheck can differentiate.
Tensor both(const ops::ComplexPair& c) {
  return ops::concatenate({c.first, ops::multiply(c.second, Tensor(0.7))}, -1);
}

TEST(FourierGradcheck, ComplexTransforms) {
  expect_gradcheck("fft",
                   [](const std::vector<Tensor>& x) {
                     return both(ops::fft({x[0], x[1]}));
                   },
                   {randn({2, 5}, 1), randn({2, 5}, 2)});
  expect_gradcheck("fft2",
                   [](const std::vector<Tensor>& x) {
                     return both(ops::fft2({x[0], x[1]}));
                   },
                   {randn({3, 4}, 3), randn({3, 4}, 4)});
  expect_gradcheck("ifft2",
                   [](const std::vector<Tensor>& x) {
                     return both(ops::ifft2({x[0], x[1]}));
                   },
                   {randn({2, 3, 3}, 5), randn({2, 3, 3}, 6)});
}

TEST(FourierGradcheck, RealTransforms) {
  for (int64_t n : {5, 8, 11})
    expect_gradcheck("rfft", [n](const std::vector<Tensor>& x) { return both(ops::rfft(x[0], n)); },
                     {randn({2, 8}, 7)});
  for (int64_t n : {6, 7, 12})
    expect_gradcheck("irfft",
                     [n](const std::vector<Tensor>& x) {
                       return ops::irfft({x[0], x[1]}, n);
                     },
                     {randn({2, 5}, 8), randn({2, 5}, 9)});
}

TEST(FourierGradcheck, ShortTimeTransforms) {
  expect_gradcheck(
      "stft",
      [](const std::vector<Tensor>& x) { return both(ops::stft(x[0], 6, 3, 8, "hann", true)); },
      {randn({2, 20}, 10)});
  expect_gradcheck(
      "stft_hamming",
      [](const std::vector<Tensor>& x) { return both(ops::stft(x[0], 5, 2, 7, "hamming", false)); },
      {randn({15}, 11)});
  expect_gradcheck("istft",
                   [](const std::vector<Tensor>& x) {
                     return ops::istft({x[0], x[1]}, 6, 3, 8);
                   },
                   {randn({2, 5, 5}, 12), randn({2, 5, 5}, 13)});
  expect_gradcheck("istft_none",
                   [](const std::vector<Tensor>& x) {
                     return ops::istft({x[0], x[1]}, 6, 2, 6, 9, nullptr, false);
                   },
                   {randn({4, 4}, 14), randn({4, 4}, 15)});
}

TEST(Fourier, InverseUndoesForward) {
  // istft(stft(x)) == x with a Hann window at 75% overlap (the window's squares overlap-add
  // to a nonzero constant), an identity that holds independently of Keras.
  Tensor x = randn({2, 40}, 16);
  Tensor back = ops::istft(ops::stft(x, 16, 4, 16), 16, 4, 16, 40);
  EXPECT_TRUE(ops::allclose(back, x, 1e-9, 1e-9).item<bool>());
  Tensor y = ops::irfft(ops::rfft(x), 40);
  EXPECT_TRUE(ops::allclose(y, x, 1e-9, 1e-9).item<bool>());
}

TEST(Fourier, BadInputNamesTheProblem) {
  Tensor a = ops::zeros({2, 4}), b = ops::zeros({2, 3});
  EXPECT_THROW(ops::fft({a, b}), ValueError);  // parts of different shapes
  EXPECT_THROW(ops::fft({ops::zeros({4}, DType::Int32), ops::zeros({4}, DType::Int32)}),
               ValueError);                                                 // integer parts
  EXPECT_THROW(ops::fft2({ops::zeros({4}), ops::zeros({4})}), ValueError);  // rank 1
  EXPECT_THROW(ops::rfft(a, 0), ValueError);
  EXPECT_THROW(ops::irfft({ops::zeros({1}), ops::zeros({1})}), ValueError);  // 1 bin, no length
  EXPECT_THROW(ops::stft(ops::zeros({32}, DType::Int32), 8, 4, 8), TypeError);
  EXPECT_THROW(ops::stft(ops::zeros({32}), 8, 4, 6), ValueError);  // fft_length < length
  EXPECT_THROW(ops::stft(ops::zeros({32}), 8, 4, 8, "kaiser"), ValueError);
  EXPECT_THROW(ops::stft(ops::zeros({32}), 8, 4, 8, ops::ones({7})), ValueError);
  EXPECT_THROW(ops::stft(ops::zeros({4}), 8, 4, 8, "hann", false), ValueError);       // too short
  EXPECT_THROW(ops::istft({ops::zeros({5}), ops::zeros({5})}, 8, 4, 8), ValueError);  // rank 1
  try {
    ops::stft(ops::zeros({32}), 8, 4, 6);
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("fft_length=6"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keras

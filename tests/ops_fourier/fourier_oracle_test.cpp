// keras.ops fft, fft2, ifft2, rfft, irfft, stft and istft against Keras 3.15 itself
// (tools/keras_oracle/fft.py -> tests/oracle/fixtures/fft.npz): values, and the gradients of
// sum(output * w) that jax.grad takes through Keras's functions.

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/keras.h"
#include "keras/ops/math/fourier.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;

// sum over the output parts of sum(part * weight), and its gradient with respect to `inputs`.
TensorList with_gradients(const std::function<TensorList(const TensorList&)>& f, TensorList inputs,
                          const TensorList& weights) {
  GradientTape tape;
  for (Tensor& t : inputs) tape.watch(t);
  TensorList outputs = f(inputs);
  Tensor loss;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor term = ops::sum(ops::multiply(outputs[i], weights[i]));
    loss = loss.defined() ? ops::add(loss, term) : term;
  }
  TensorList result = outputs;
  for (const Tensor& g : tape.gradient(loss, inputs)) result.push_back(g);
  return result;
}

ops::StftWindow window_of(const json& kw, const TensorList& in, size_t index) {
  const std::string name = kw["window"].get<std::string>();
  if (name == "tensor") return in[index];
  if (name == "none") return nullptr;
  return name;
}

std::optional<int64_t> optional_length(const json& kw, const char* key) {
  if (kw[key].is_null()) return std::nullopt;
  return kw[key].get<int64_t>();
}

GoldenOps fourier_ops() {
  GoldenOps ops;
  auto complex_op = [](ops::ComplexPair (*f)(const ops::ComplexPair&)) {
    return [f](const TensorList& in, const json&) {
      return with_gradients(
          [f](const TensorList& x) {
            auto [re, im] = f({x[0], x[1]});
            return TensorList{re, im};
          },
          {in[0], in[1]}, {in[2], in[3]});
    };
  };
  ops["fft"] = complex_op(&ops::fft);
  ops["fft2"] = complex_op(&ops::fft2);
  ops["ifft2"] = complex_op(&ops::ifft2);
  ops["rfft"] = [](const TensorList& in, const json& kw) {
    auto n = optional_length(kw, "fft_length");
    return with_gradients(
        [n](const TensorList& x) {
          auto [re, im] = ops::rfft(x[0], n);
          return TensorList{re, im};
        },
        {in[0]}, {in[1], in[2]});
  };
  ops["irfft"] = [](const TensorList& in, const json& kw) {
    auto n = optional_length(kw, "fft_length");
    return with_gradients(
        [n](const TensorList& x) {
          return TensorList{ops::irfft({x[0], x[1]}, n)};
        },
        {in[0], in[1]}, {in[2]});
  };
  ops["stft"] = [](const TensorList& in, const json& kw) {
    auto window = window_of(kw, in, 3);
    return with_gradients(
        [&](const TensorList& x) {
          auto [re, im] = ops::stft(
              x[0], kw["sequence_length"].get<int64_t>(), kw["sequence_stride"].get<int64_t>(),
              kw["fft_length"].get<int64_t>(), window, kw["center"].get<bool>());
          return TensorList{re, im};
        },
        {in[0]}, {in[1], in[2]});
  };
  ops["istft"] = [](const TensorList& in, const json& kw) {
    auto window = window_of(kw, in, 3);
    return with_gradients(
        [&](const TensorList& x) {
          return TensorList{
              ops::istft({x[0], x[1]}, kw["sequence_length"].get<int64_t>(),
                         kw["sequence_stride"].get<int64_t>(), kw["fft_length"].get<int64_t>(),
                         optional_length(kw, "length"), window, kw["center"].get<bool>())};
        },
        {in[0], in[1]}, {in[2]});
  };
  return ops;
}

TEST(Fourier, MatchesKeras) {
  auto exercised = test::run_oracle("fft", fourier_ops());
  EXPECT_EQ(exercised.size(), 7u);
}

}  // namespace
}  // namespace keras

// Complex tensors inside keras::jit: a compiled function that takes and returns complex
// tensors replays with new values, against std::complex on the host.

#include <gtest/gtest.h>

#include <complex>

#include "keras/keras.h"

namespace keras {
namespace {

using C = std::complex<float>;

TEST(ComplexJit, ReplaysComplexArithmetic) {
  auto f = jit([](const TensorList& in) {
    Tensor y = ops::add(ops::multiply(ops::exp(in[0]), in[1]), ops::conj(in[0]));
    return TensorList{y, ops::abs(y)};
  });
  for (int call = 0; call < 4; ++call) {
    std::vector<C> z = {{0.1f * call, 1.0f}, {-0.5f, 0.25f * call}, {2.0f, -1.0f}};
    std::vector<C> w = {{1.0f, -1.0f}, {0.5f, 2.0f}, {-0.25f * call, 0.75f}};
    TensorList out = f({Tensor::from_vector(z, {3}), Tensor::from_vector(w, {3})});
    ASSERT_EQ(out[0].dtype(), DType::Complex64);
    std::vector<C> got = out[0].to_vector<C>();
    std::vector<float> magnitude = out[1].to_vector<float>();
    for (size_t i = 0; i < z.size(); ++i) {
      const C want = std::exp(z[i]) * w[i] + std::conj(z[i]);
      EXPECT_NEAR(got[i].real(), want.real(), 1e-5) << "call " << call << ", element " << i;
      EXPECT_NEAR(got[i].imag(), want.imag(), 1e-5) << "call " << call << ", element " << i;
      EXPECT_NEAR(magnitude[i], std::abs(want), 1e-5) << "call " << call << ", element " << i;
    }
  }
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_GE(f.replay_count(), 2);
  EXPECT_TRUE(f.fallback_reason().empty()) << f.fallback_reason();
}

}  // namespace
}  // namespace keras

// The main job for now: a small multilayer perceptron learns y = sin(3x) on [-1, 1], written
// directly with keras::ops, keras::Variable and keras::value_and_grad (the layers, compile and
// fit issues replace this hand-written loop). Deterministic: the same seed, the same numbers.

#include <keras/keras.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace ops = keras::ops;

int main() {
  keras::utils::set_random_seed(42);
  const int64_t n = 256, hidden = 32;

  // Data: x in [-1, 1), y = sin(3x).
  keras::Tensor x = ops::reshape(ops::arange(-1.0, 1.0, 2.0 / n), {n, 1});
  keras::Tensor y = ops::sin(ops::multiply(x, 3.0));

  // Weights: Glorot-style uniform init, zero biases.
  auto glorot = [](int64_t fan_in, int64_t fan_out) {
    double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
    return keras::random::uniform({fan_in, fan_out}, -limit, limit);
  };
  keras::Variable w1(glorot(1, hidden), {.name = "w1"}), b1(ops::zeros({hidden}), {.name = "b1"});
  keras::Variable w2(glorot(hidden, hidden), {.name = "w2"}), b2(ops::zeros({hidden}), {.name = "b2"});
  keras::Variable w3(glorot(hidden, 1), {.name = "w3"}), b3(ops::zeros({1}), {.name = "b3"});
  std::vector<keras::Variable> params = {w1, b1, w2, b2, w3, b3};

  auto model = [&](const keras::Tensor& in) {
    auto h = ops::tanh(ops::add(ops::matmul(in, w1), b1));
    h = ops::tanh(ops::add(ops::matmul(h, w2), b2));
    return ops::add(ops::matmul(h, w3), b3);
  };

  // Adam, written out with ops.
  const double lr = 0.01, beta1 = 0.9, beta2 = 0.999, eps = 1e-7;
  std::vector<keras::Variable> m, v;
  for (auto& p : params) {
    m.emplace_back(ops::zeros_like(p.value()), keras::VariableOptions{.trainable = false});
    v.emplace_back(ops::zeros_like(p.value()), keras::VariableOptions{.trainable = false});
  }
  std::printf("Training a 1-%lld-%lld-1 tanh MLP on sin(3x), %lld points, Adam(lr=%.3g)\n",
              static_cast<long long>(hidden), static_cast<long long>(hidden),
              static_cast<long long>(n), lr);
  double loss_value = 0;
  for (int step = 1; step <= 1000; ++step) {
    auto [loss, grads] = keras::value_and_grad(
        [&] { return ops::mean(ops::square(ops::subtract(model(x), y))); }, params);
    keras::NoGradScope no_grad;
    double c1 = 1 - std::pow(beta1, step), c2 = 1 - std::pow(beta2, step);
    for (size_t i = 0; i < params.size(); ++i) {
      m[i].assign(ops::add(ops::multiply(m[i], beta1), ops::multiply(grads[i], 1 - beta1)));
      v[i].assign(ops::add(ops::multiply(v[i], beta2),
                           ops::multiply(ops::square(grads[i]), 1 - beta2)));
      auto update = ops::divide(ops::divide(m[i], c1),
                                ops::add(ops::sqrt(ops::divide(v[i], c2)), eps));
      params[i].assign_sub(ops::multiply(update, lr));
    }
    loss_value = loss.item<double>();
    if (step == 1 || step % 200 == 0) std::printf("step %4d  mse %.6f\n", step, loss_value);
  }
  std::printf("final mse %.6f (%s)\n", loss_value, loss_value < 1e-3 ? "learned" : "not learned");
  return loss_value < 1e-3 ? 0 : 1;
}

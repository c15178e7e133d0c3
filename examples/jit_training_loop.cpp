// A hand-written training loop compiled with keras::jit (as jax.jit compiles a step): the step
// runs eagerly twice (the traces), then replays its recorded backend calls with no front end.
// The same loop runs eagerly beside it; both must reach the same loss, bit for bit.

#include <chrono>
#include <cstdlib>
#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;

struct Run {
  double first_loss = 0, last_loss = 0, seconds = 0;
  int64_t replays = 0;
};

Run train(bool compiled) {
  keras::utils::set_random_seed(3);
  keras::Tensor x = keras::random::normal({1024, 8});
  keras::Tensor y = ops::tanh(ops::sum(x, 1, /*keepdims=*/true) * 0.5);
  auto model = keras::Sequential({keras::Input({8}), layers::Dense(64, {.activation = "relu"}),
                                  layers::Dropout(0.1), layers::Dense(1)});
  auto optimizer = keras::optimizers::Adam({.learning_rate = 3e-3});
  keras::losses::MeanSquaredError mse;
  auto step_body = [&](const keras::TensorList& batch) {
    keras::Tensor loss;
    std::vector<keras::Tensor> grads;
    {
      keras::GradientTape tape;
      loss = mse(batch[1], (*model)(batch[0], {.training = true}));
      grads = tape.gradient(loss, model->trainable_weights());
    }
    optimizer.apply(grads, model->trainable_weights());
    return keras::TensorList{loss};
  };
  keras::CompiledFunction step = keras::jit(step_body, "train_step");
  Run run;
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 0; epoch < 20; ++epoch)
    for (int64_t b = 0; b < 1024; b += 64) {
      keras::TensorList batch{x.slice({{b, b + 64}}), y.slice({{b, b + 64}})};
      double loss = (compiled ? step(batch) : step_body(batch))[0].item<double>();
      if (epoch == 0 && b == 0) run.first_loss = loss;
      run.last_loss = loss;
    }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.replays = step.replay_count();
  return run;
}

int main() {
  try {
    Run eager = train(false), compiled = train(true);
    std::cout << "eager:    loss " << eager.first_loss << " -> " << eager.last_loss << " in "
              << eager.seconds << " s\n"
              << "compiled: loss " << compiled.first_loss << " -> " << compiled.last_loss
              << " in " << compiled.seconds << " s (" << compiled.replays << " of 320 steps replayed)\n";
    const bool same = compiled.last_loss == eager.last_loss;
    const bool learned = compiled.last_loss < 0.5 * compiled.first_loss;
    if (!same) std::cerr << "compiled and eager losses differ\n";
    // (KERAS_DISABLE_JIT=1 runs every keras::jit function eagerly: then nothing replays.)
    const bool replayed = compiled.replays > 300 || std::getenv("KERAS_DISABLE_JIT");
    return same && learned && replayed ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

#pragma once
// The two training runs of the conformance suite (training_runs.cpp).

#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

namespace keras::testing::conformance {

/// What a training run produced on one backend: the loss of every step, then the weights.
struct TrainingTrace {
  Tensor losses;                 // float64 (steps,)
  std::vector<Tensor> weights;   // the model's weights after the epoch
};

/// One epoch of the MLP ("mlp") or the CNN ("cnn") on the first `samples` Fashion-MNIST
/// training images, batch 64, Adam, seed 11, built and trained on `backend`. `x` and `y` are the
/// images (float32 in [0, 1], (n, 28, 28, 1)) and labels (int32) on that backend. `compiled`:
/// jit_compile "auto" (compile's default), else "false" (every step eager).
TrainingTrace train_one_epoch(const std::string& model, const std::string& backend,
                              const Tensor& x, const Tensor& y, bool compiled = true);

}  // namespace keras::testing::conformance

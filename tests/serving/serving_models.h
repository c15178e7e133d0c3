#pragma once
// A small model the serving tests (tests/serving, tests/serving_grpc) serve.

#include "keras/keras.h"

namespace keras::serving_test {

// (None, 4) -> Dense(3, relu) -> Dense(2), float32; input "x", output "y".
inline ModelPtr<Model> small_model() {
  auto x = Input({4}, {.name = "x"});
  auto h = layers::Dense(3, {.activation = "relu"})(x);
  return Functional(x, layers::Dense(2, {.name = "y"})(h));
}

}  // namespace keras::serving_test

#pragma once
// The CNN of the benchmark suite (bench/keras_bench.cpp) and of the distribution benchmark
// (bench/distributed), one definition so both time the same model: Keras's Fashion-MNIST
// example network, for 28x28x1 images and 10 classes.

#include <keras/keras.h>

namespace bench {

inline keras::ModelPtr<keras::SequentialModel> fashion_cnn() {
  namespace layers = keras::layers;
  return keras::Sequential({
      keras::Input({28, 28, 1}),
      layers::Conv2D(32, 3, {.activation = "relu"}),
      layers::MaxPooling2D(2),
      layers::Conv2D(64, 3, {.activation = "relu"}),
      layers::MaxPooling2D(2),
      layers::Flatten(),
      layers::Dropout(0.5),
      layers::Dense(10),
  });
}

}  // namespace bench

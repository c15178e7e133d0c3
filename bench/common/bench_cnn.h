#pragma once
// The CNN of the benchmark suite (bench/keras_bench.cpp), of the distribution benchmark
// (bench/distributed) and of the mixed-precision benchmark, one definition so all time the
// same model: Keras's Fashion-MNIST example network, for 28x28x1 images and 10 classes. Also
// the suite's MLP and its fit() timer.

#include <keras/keras.h>

#include "common/bench_common.h"

namespace bench {

/// The suite's MLP for flattened 784-pixel images.
inline keras::ModelPtr<keras::SequentialModel> fashion_mlp() {
  namespace layers = keras::layers;
  return keras::Sequential({
      keras::Input({784}),
      layers::Dense(256, {.activation = "relu"}),
      layers::Dense(128, {.activation = "relu"}),
      layers::Dense(10),
  });
}

/// fit() over exactly warmup + steps batches; the clock starts when the last warm-up batch
/// ends. Samples per second. On a device backend the clock reads wait for the device (a no-op
/// on host backends), so queued kernels count where they run.
inline double fit_samples_per_s(keras::Model& model, const keras::Tensor& x,
                                const keras::Tensor& y, int64_t batch, int64_t warmup,
                                int64_t steps) {
  double start = 0, end = 0;
  auto timer =
      std::make_shared<keras::callbacks::LambdaCallback>(keras::callbacks::LambdaCallbackOptions{
          .on_train_batch_end = [&](int64_t b, const keras::Logs&) {
            if (b == warmup - 1 || b == warmup + steps - 1) keras::backend::current().synchronize();
            if (b == warmup - 1) start = now();
            end = now();
          }});
  model.fit(x, y, {.batch_size = batch, .epochs = 1, .verbose = 0, .callbacks = {timer}});
  return static_cast<double>(steps * batch) / (end - start);
}

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

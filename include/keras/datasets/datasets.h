#pragma once
// keras.datasets: Fashion-MNIST and MNIST in Keras's shapes and dtypes, read from local IDX
// files (keras-cpp never downloads).
//
//   auto [train, test] = keras::datasets::fashion_mnist::load_data();
//   auto [x_train, y_train] = train;   // uint8 (60000, 28, 28) and uint8 (60000,)
//
// Fashion-MNIST comes from Debian's dataset-fashion-mnist package
// (/usr/share/datasets/fashion-mnist). A path argument, or $KERAS_DATASETS_DIR/<name>, points
// elsewhere: a folder holding train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz],
// t10k-images-idx3-ubyte[.gz] and t10k-labels-idx1-ubyte[.gz].

#include <string>
#include <utility>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::datasets {

/// ((x_train, y_train), (x_test, y_test)), as Keras's load_data returns.
using TrainTest = std::pair<std::pair<Tensor, Tensor>, std::pair<Tensor, Tensor>>;

namespace fashion_mnist {
/// `path` empty: $KERAS_DATASETS_DIR/fashion-mnist, else /usr/share/datasets/fashion-mnist.
TrainTest load_data(const std::string& path = "");
}  // namespace fashion_mnist

namespace mnist {
/// `path` empty: $KERAS_DATASETS_DIR/mnist (Debian has no MNIST package).
TrainTest load_data(const std::string& path = "");
}  // namespace mnist

/// An IDX file (optionally gzipped) as a tensor of its element type and dimensions.
Tensor load_idx(const std::string& path);

}  // namespace keras::datasets

#pragma GCC visibility pop

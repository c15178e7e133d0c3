#pragma once
// keras::Input and InputLayer: the entry points of a Functional model.
//
//   auto inputs = keras::Input({28, 28, 1});                 // (None, 28, 28, 1), float32
//   auto ids = keras::Input({}, {.batch_shape = {32, 10}, .dtype = keras::int32});

#include <optional>
#include <string>

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras {

/// keras.Input's keyword arguments.
struct InputOptions {
  /// A fixed batch size (default: unknown).
  std::optional<int64_t> batch_size;
  /// The full shape including the batch axis, instead of shape + batch_size.
  std::optional<Shape> batch_shape;
  /// Defaults to floatx().
  std::optional<DType> dtype;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Whether the input may be left out (Keras 3.13's optional inputs).
  bool optional = false;
};

/// The layer behind an Input: it has no weights and one node that produces the input tensor.
class InputLayer final : public Layer {
 public:
  /// keras.layers.InputLayer with this shape (batch axis included, -1 unknown), dtype and name;
  /// built at construction.
  InputLayer(Shape batch_shape, DType dtype, std::string name, bool optional);
  std::string class_name() const override { return "InputLayer"; }
  Config get_config() const override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;

  /// The input's shape including the batch axis, -1 where unknown (Keras's `batch_shape`).
  const Shape& batch_shape() const { return batch_shape_; }
  /// The input's dtype (Keras's `dtype`).
  DType dtype() const { return dtype_; }

  /// Creates the layer and returns the symbolic tensor it produces (what Input() does); the
  /// tensor keeps the layer alive (tensor.producer()).
  static KerasTensor make(Shape batch_shape, DType dtype, std::string name, bool optional);
  /// The Input an InputLayer config describes (Keras 3's batch_shape or Keras 2's
  /// batch_input_shape; dtype as a string or a DTypePolicy record). An InputLayer lives through
  /// the tensor it produces, so this returns the tensor (tensor.producer() is the layer).
  static KerasTensor tensor_from_config(const Config& config);

 private:
  Shape batch_shape_;
  DType dtype_;
  bool optional_;
};

/// A symbolic input of `shape` (without the batch axis), as keras.Input.
KerasTensor Input(const Shape& shape, InputOptions options = {});

}  // namespace keras

#pragma GCC visibility pop

#pragma once
// keras.layers.RepeatVector: (batch, features) -> (batch, n, features).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.RepeatVector's keyword arguments.
struct RepeatVectorOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The RepeatVector layer (Keras's "RepeatVector").
class RepeatVectorLayer : public Layer {
 public:
  /// keras.layers.RepeatVector: repeats (batch, features) inputs `n` times into (batch, n,
  /// features).
  explicit RepeatVectorLayer(int64_t n, RepeatVectorOptions options = {});
  std::string class_name() const override { return "RepeatVector"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The number of repetitions (Keras's `n`).
  int64_t n() const { return n_; }

 private:
  int64_t n_;
};

/// A RepeatVector layer repeating its 2-d input `n` times along a new axis 1.
LayerPtr<RepeatVectorLayer> RepeatVector(int64_t n, RepeatVectorOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

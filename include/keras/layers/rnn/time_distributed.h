#pragma once
// keras.layers.TimeDistributed: applies a layer to every timestep of (batch, time, ...) inputs,
// the same weights for each. As in Keras 3 the inner layer's call runs once per timestep (on
// (batch, ...)) and the results are stacked along axis 1; a Dense inner layer runs once on all
// timesteps at the same time, which gives the same values.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.TimeDistributed's constructor.
struct TimeDistributedOptions {
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The TimeDistributed wrapper (Keras's "TimeDistributed"); the inner layer is tracked as
/// "layer".
class TimeDistributedLayer : public Layer {
 public:
  /// Wraps `layer` (Keras's `layer`), shared, not copied; ValueError when it is null.
  TimeDistributedLayer(std::shared_ptr<Layer> layer, TimeDistributedOptions options = {});
  std::string class_name() const override { return "TimeDistributed"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The wrapped layer, applied to every timestep.
  const std::shared_ptr<Layer>& layer() const { return layer_; }

 private:
  std::shared_ptr<Layer> layer_;
};

/// `layer` applied to every timestep.
LayerPtr<TimeDistributedLayer> TimeDistributed(std::shared_ptr<Layer> layer,
                                               TimeDistributedOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

#pragma once
// keras.layers.Pipeline: layers applied one after the other, as one layer (meant for
// preprocessing and augmentation; unlike a Sequential model it is not a Model).

#include <memory>
#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Pipeline other than `layers`.
struct PipelineOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
};

/// The Pipeline layer (Keras's "Pipeline"). Each layer is called on the previous one's output
/// with the pipeline's `training` (masks attached to the outputs flow on as they do between
/// layers). The layers are tracked as Keras's `layers` list, so their weights are saved under
/// `layers/<class in snake case>[_k]`. The config is {"layers": [records], "name"}, without
/// trainable or dtype, as Keras writes it.
class PipelineLayer : public Layer {
 public:
  /// A layer applying `layers` in order (Keras's `layers`).
  explicit PipelineLayer(std::vector<std::shared_ptr<Layer>> layers, PipelineOptions options = {});
  std::string class_name() const override { return "Pipeline"; }
  /// Builds each layer on the previous one's output shape (as Keras's calls do).
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `layers`: the layers applied, in order.
  const std::vector<std::shared_ptr<Layer>>& layers() const { return layers_; }

 private:
  std::vector<std::shared_ptr<Layer>> layers_;
};

/// A layer applying `layers` in order.
LayerPtr<PipelineLayer> Pipeline(std::vector<std::shared_ptr<Layer>> layers,
                                 PipelineOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

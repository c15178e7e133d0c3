#pragma once
// keras::Sequential: a stack of single-input, single-output layers.
//
//   auto model = keras::Sequential({
//       keras::Input({784}),
//       keras::layers::Dense(64, {.activation = "relu"}),
//       keras::layers::Dense(10),
//   });
//   model->add(keras::layers::Softmax());

#include <initializer_list>
#include <optional>
#include <vector>

#include "keras/models/model.h"

#pragma GCC visibility push(default)
namespace keras {

/// An entry of Sequential's list: a layer, or an Input tensor that fixes the input shape.
class SequentialItem {
 public:
  template <typename T>
  /// A layer to append.
  SequentialItem(LayerPtr<T> layer) : layer_(std::move(layer)) {}  // NOLINT
  template <typename T>
  /// A layer to append.
  SequentialItem(std::shared_ptr<T> layer) : layer_(std::move(layer)) {}  // NOLINT
  /// A keras::Input tensor that fixes the model's input shape (only as the first entry).
  SequentialItem(KerasTensor input) : input_(std::move(input)) {}  // NOLINT

  /// The layer; null for an Input entry.
  const std::shared_ptr<Layer>& layer() const { return layer_; }
  /// The Input tensor; undefined for a layer entry.
  const KerasTensor& input() const { return input_; }

 private:
  std::shared_ptr<Layer> layer_;
  KerasTensor input_;
};

/// The model class behind keras::Sequential (Keras's "Sequential").
class SequentialModel : public Model {
 public:
  /// A model that runs `items` in order (each passed to add()); `options` sets name and dtype.
  explicit SequentialModel(std::vector<SequentialItem> items = {}, LayerOptions options = {});
  std::string class_name() const override { return "Sequential"; }

  /// Appends a layer (an InputLayer's tensor may only come first).
  void add(const SequentialItem& item);
  /// Removes the last layer.
  void pop();

  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  std::vector<std::shared_ptr<Layer>> layers() const override { return layers_; }
  /// The last layer's name (what names its loss and metrics, as in Keras).
  std::vector<std::string> output_names() const override;

  /// The input tensor, once the input shape is known.
  const KerasTensor& input_tensor() const { return input_; }
  /// The output tensor of each of layers(), once the input shape is known.
  const std::vector<KerasTensor>& layer_outputs() const { return outputs_; }
  std::string layer_output_shape(const Layer& layer) const override;
  /// Keras's config: the layer records (InputLayer first) and build_input_shape.
  Config get_config() const override;
  /// Rebuilds the model from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  /// Runs the layers symbolically from input_ to record their output shapes.
  void build_graph();

  std::vector<std::shared_ptr<Layer>> layers_;
  KerasTensor input_;
  std::vector<KerasTensor> outputs_;  // per layer, after build_graph()
};

/// A Sequential model of these layers.
ModelPtr<SequentialModel> Sequential(std::initializer_list<SequentialItem> items = {},
                                     LayerOptions options = {});

}  // namespace keras

#pragma GCC visibility pop

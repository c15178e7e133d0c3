#pragma once
// keras::Functional: a model defined by its inputs and outputs (the Functional API).
//
//   auto inputs = keras::Input({784});
//   auto x = keras::layers::Dense(64, {.activation = "relu"})(inputs);
//   auto outputs = keras::layers::Dense(10)(x);
//   auto model = keras::Functional(inputs, outputs);
//   keras::Tensor y = model(batch);
//
// Several inputs or outputs, shared layers, nested models and intermediate outputs
// (keras::Functional(model->input(), layer->output())) work as in Keras.

#include <map>
#include <memory>
#include <vector>

#include "keras/models/model.h"

#pragma GCC visibility push(default)
namespace keras {

/// The model class behind keras::Functional (Keras's "Functional").
class FunctionalModel : public Model {
 public:
  /// The graph from `inputs` to `outputs` (symbolic tensors); `options` sets name and dtype.
  /// ValueError when a list is empty or holds a tensor not made by keras::Input or a layer call,
  /// when an output cannot be computed from the inputs ("Graph disconnected"), or when two
  /// layers share a name.
  FunctionalModel(std::vector<KerasTensor> inputs, std::vector<KerasTensor> outputs,
                  LayerOptions options = {});
  std::string class_name() const override { return "Functional"; }

  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  /// The graph's layers, Input layers included and keras::ops nodes left out (Keras's
  /// model.layers: what weights files and get_layer see).
  std::vector<std::shared_ptr<Layer>> layers() const override;
  /// The layers and the op nodes (OperationLayer) of the graph, in order (Keras's
  /// model.operations: what get_config and summary list).
  const std::vector<std::shared_ptr<Layer>>& operations() const { return layers_; }

  /// The model's symbolic inputs (Keras's `model.inputs`), in the order call_list takes them.
  const std::vector<KerasTensor>& inputs() const { return inputs_; }
  /// The model's symbolic outputs (Keras's `model.outputs`), in the order call_list returns them.
  const std::vector<KerasTensor>& outputs() const { return outputs_; }
  /// The nodes of the graph, in the order they run.
  const std::vector<std::shared_ptr<Node>>& nodes() const { return nodes_; }
  /// Nodes grouped by depth (0 = the outputs' nodes), as Keras's _nodes_by_depth.
  const std::map<int, std::vector<std::shared_ptr<Node>>>& nodes_by_depth() const {
    return nodes_by_depth_;
  }

  std::string layer_output_shape(const Layer& layer) const override;
  std::string layer_connections(const Layer& layer) const override;
  bool sequential_like() const override { return sequential_like_; }
  std::vector<std::string> input_names() const override;
  std::vector<std::string> output_names() const override;
  /// Keras 3's config: layer records with their inbound nodes, input_layers, output_layers.
  Config get_config() const override;
  /// Rebuilds the graph from a config (Keras 3 nodes, or Keras 2 node lists).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  std::vector<KerasTensor> inputs_, outputs_;
  std::vector<std::shared_ptr<Node>> nodes_;
  std::map<int, std::vector<std::shared_ptr<Node>>> nodes_by_depth_;
  std::vector<std::shared_ptr<Layer>> layers_;
  bool sequential_like_ = true;
  // Made from one tensor rather than a list (Keras writes a bare reference then).
  bool single_input_ = false, single_output_ = false;

  friend ModelPtr<FunctionalModel> Functional(const KerasTensor&, const KerasTensor&,
                                              LayerOptions);
};

/// A Functional model from one input to one output.
ModelPtr<FunctionalModel> Functional(const KerasTensor& inputs, const KerasTensor& outputs,
                                     LayerOptions options = {});
/// A Functional model with several inputs and/or outputs (in this order).
ModelPtr<FunctionalModel> Functional(std::vector<KerasTensor> inputs,
                                     std::vector<KerasTensor> outputs, LayerOptions options = {});

}  // namespace keras

#pragma GCC visibility pop

#pragma once
// keras.layers.StackedRNNCells: several cells run as one, each cell's output the next one's
// input. Its states are the cells' states one after the other (flattened).

#include "keras/layers/rnn/rnn.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.StackedRNNCells's constructor.
struct StackedRNNCellsOptions {
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The StackedRNNCells cell (Keras's "StackedRNNCells").
class StackedRNNCellsLayer : public RecurrentCell {
 public:
  /// Keras's StackedRNNCells(cells); ValueError for an empty list or a null cell.
  explicit StackedRNNCellsLayer(std::vector<std::shared_ptr<RecurrentCell>> cells,
                                StackedRNNCellsOptions options = {});
  std::string class_name() const override { return "StackedRNNCells"; }
  std::vector<int64_t> state_size() const override;
  int64_t output_size() const override;
  TensorList get_initial_state(int64_t batch_size) const override;
  void build(const Shape& input_shape) override;
  Tensor project_inputs(const Tensor& inputs, const CallContext& ctx) override;
  std::pair<Tensor, TensorList> step(const Tensor& inputs, const TensorList& states,
                                     const CallContext& ctx) override;
  void begin_sequence(const Tensor& step_inputs, const TensorList& states,
                      const CallContext& ctx) override;
  void end_sequence() override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The cells, first (fed the inputs) to last (giving the output).
  const std::vector<std::shared_ptr<RecurrentCell>>& cells() const { return cells_; }

 private:
  std::vector<std::shared_ptr<RecurrentCell>> cells_;
};

/// The cells stacked into one.
LayerPtr<StackedRNNCellsLayer> StackedRNNCells(std::vector<std::shared_ptr<RecurrentCell>> cells,
                                               StackedRNNCellsOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

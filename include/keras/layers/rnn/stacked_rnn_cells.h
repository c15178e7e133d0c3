#pragma once
// keras.layers.StackedRNNCells: several cells run as one, each cell's output the next one's
// input. Its states are the cells' states one after the other (flattened).

#include "keras/layers/rnn/rnn.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct StackedRNNCellsOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The StackedRNNCells cell (Keras's "StackedRNNCells").
class StackedRNNCellsLayer : public RecurrentCell {
 public:
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
  static std::shared_ptr<Layer> from_config(const Config& config);

  const std::vector<std::shared_ptr<RecurrentCell>>& cells() const { return cells_; }

 private:
  std::vector<std::shared_ptr<RecurrentCell>> cells_;
};

/// The cells stacked into one.
LayerPtr<StackedRNNCellsLayer> StackedRNNCells(std::vector<std::shared_ptr<RecurrentCell>> cells,
                                               StackedRNNCellsOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

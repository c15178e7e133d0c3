#pragma once
// keras.layers.RNN: runs a recurrent cell over the time axis of (batch, time, ...) inputs, and
// RecurrentCell, the base of every cell (SimpleRNNCell, LSTMCell, GRUCell, StackedRNNCells and
// custom cells).
//
// A custom cell subclasses RecurrentCell, creates its weights in build(step_input_shape) and
// implements state_size(), output_size() and step():
//
//   class MinimalCell : public keras::layers::RecurrentCell {
//    public:
//     explicit MinimalCell(int64_t units) : units_(units) {}
//     std::vector<int64_t> state_size() const override { return {units_}; }
//     int64_t output_size() const override { return units_; }
//     void build(const keras::Shape& s) override {
//       kernel_ = add_weight({.shape = {s.back(), units_}, .name = "kernel"});
//       recurrent_ = add_weight({.shape = {units_, units_}, .name = "recurrent_kernel"});
//     }
//     std::pair<keras::Tensor, keras::TensorList> step(const keras::Tensor& x,
//         const keras::TensorList& states, const keras::CallContext&) override {
//       auto h = ops::matmul(x, kernel_) + ops::matmul(states[0], recurrent_);
//       return {h, {h}};
//     }
//    private:
//     int64_t units_;
//     keras::Variable kernel_, recurrent_;
//   };
//   auto rnn = layers::RNN(keras::make_layer<MinimalCell>(32));
//
// Calls. `layer(x)` returns the output; `layer(TensorList{x, s0, s1, ...})` passes initial
// states (Keras's initial_state) and returns {output, final states...} when return_state is
// set. States are a flat list in C++: StackedRNNCells' nested states come one cell after the
// other. A mask (batch, time) of bools (an attached one, or CallContext::mask) makes masked
// timesteps keep the previous state and output, as Keras's backend rnn does.

#include <optional>
#include <utility>
#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The base of recurrent cells: one timestep of a recurrence (Keras's cell protocol:
/// `call(inputs, states) -> (output, new_states)`, `state_size`, `output_size`).
class RecurrentCell : public Layer {
 public:
  using Layer::Layer;

  /// The size of each state tensor, (batch, size) each (Keras's state_size, flattened).
  virtual std::vector<int64_t> state_size() const = 0;
  /// The size of the output of a step (Keras's output_size).
  virtual int64_t output_size() const = 0;
  /// The full shape of each state for `batch_size` rows: (batch, size) by default; a
  /// convolutional cell's states are images (ConvLSTMCell: (batch, *spatial, filters)).
  virtual std::vector<Shape> state_shapes(int64_t batch_size) const;
  /// Zero states of state_shapes(batch_size) in the compute dtype (Keras's get_initial_state).
  virtual TensorList get_initial_state(int64_t batch_size) const;

  /// One step: (output, new states) from the step input (after project_inputs) and the
  /// previous states.
  virtual std::pair<Tensor, TensorList> step(const Tensor& inputs, const TensorList& states,
                                             const CallContext& ctx) = 0;

  // ---- the sequence protocol RNN uses (defaults suit a cell with no dropout) ----------------
  /// Work a cell does once for all timesteps: inputs of shape (..., features), the whole
  /// sequence (batch, time, features) or one step (batch, features), mapped to what step()
  /// receives (for LSTMCell: inputs @ kernel + bias). Default: the inputs unchanged.
  virtual Tensor project_inputs(const Tensor& inputs, const CallContext& ctx);
  /// Called before a pass over a sequence (and before a single-step call): draws the dropout
  /// masks that every step of the pass shares. `step_inputs` has a step's shape (batch,
  /// features), `states` are the initial states.
  virtual void begin_sequence(const Tensor& step_inputs, const TensorList& states,
                              const CallContext& ctx);
  /// Called after the pass: forgets the dropout masks.
  virtual void end_sequence();

  /// project_inputs then step on one timestep.
  std::pair<Tensor, TensorList> step_inputs(const Tensor& inputs, const TensorList& states,
                                            const CallContext& ctx);

  /// Calling a cell as a layer: inputs {x, states...} give {output, new states...}
  /// (a single-input call uses zero states).
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  /// Builds from the shape of the step input (the first of the list).
  void build_list(const std::vector<Shape>& input_shapes) override;
};

/// RNN's keyword arguments besides the cell.
struct RNNOptions {
  /// Keras's `return_sequences`: output the whole sequence (batch, time, units) rather than the
  /// last output (batch, units).
  bool return_sequences = false;
  /// Keras's `return_state`: also return the final states, after the output.
  bool return_state = false;
  /// Keras's `go_backwards`: process the sequence backwards (and return the reversed sequence).
  bool go_backwards = false;
  /// Keras's `stateful`: each call's final states are the next call's initial states (sample i of
  /// a batch continues sample i of the previous one; the batch size must then stay fixed).
  bool stateful = false;
  /// Accepted for Keras compatibility; the eager loop is the same either way.
  bool unroll = false;
  /// Zeros instead of the previous output at masked timesteps (of the output sequence).
  bool zero_output_for_mask = false;
  /// Regularizer of the layer's output; none when empty.
  regularizers::RegularizerArg activity_regularizer;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The RNN layer (Keras's "RNN"); also the base of SimpleRNN, LSTM and GRU.
class RNNLayer : public Layer {
 public:
  /// Keras's RNN(cell, ...); `default_name` is the stem of automatic names (subclasses pass
  /// "lstm", ...). ValueError without a cell or for a cell with no states.
  RNNLayer(std::shared_ptr<RecurrentCell> cell, RNNOptions options = {},
           std::string default_name = "rnn");
  std::string class_name() const override { return "RNN"; }
  void build(const Shape& input_shape) override;
  void build_list(const std::vector<Shape>& input_shapes) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The cell run at each timestep (Keras's `cell`).
  const std::shared_ptr<RecurrentCell>& cell() const { return cell_; }
  /// Sizes of the states (RNN.state_size), flattened.
  std::vector<int64_t> state_size() const { return cell_->state_size(); }
  /// Keras's `return_sequences`: outputs for every timestep rather than the last.
  bool return_sequences() const { return options_.return_sequences; }
  /// Keras's `return_state`: the final states follow the output.
  bool return_state() const { return options_.return_state; }
  /// Keras's `go_backwards`: the sequence is processed backwards.
  bool go_backwards() const { return options_.go_backwards; }
  /// Keras's `stateful`: the final states are the next call's initial states.
  bool stateful() const { return options_.stateful; }
  /// Keras's `unroll` (accepted, no effect here).
  bool unroll() const { return options_.unroll; }
  /// Whether masked timesteps output zeros rather than the previous output.
  bool zero_output_for_mask() const { return options_.zero_output_for_mask; }
  /// Sets zero_output_for_mask() (Bidirectional sets it to return_sequences).
  void set_zero_output_for_mask(bool value) { options_.zero_output_for_mask = value; }

  /// The states a stateful layer carries between calls (empty before the first call).
  const TensorList& states() const { return states_; }
  /// Zeros the states of a stateful layer (Keras's reset_state / reset_states).
  void reset_state();
  /// Keras's older name of reset_state().
  void reset_states() { reset_state(); }
  /// Sets the states of a stateful layer to `values` (one per state, shape (batch, size)).
  void reset_state(const TensorList& values);

 protected:
  /// With return_state, one input gives [output, states...] (Keras's list).
  bool returns_list_for_one_input() const override { return options_.return_state; }
  /// The base config of RNN (without the cell), for subclasses that write their own.
  Config rnn_config() const;
  /// The RNN keyword arguments, for subclasses.
  const RNNOptions& rnn_options() const { return options_; }

 private:
  std::shared_ptr<RecurrentCell> cell_;
  RNNOptions options_;
  int64_t expected_batch_ = -1;
  TensorList states_;
};

/// A recurrent layer over `cell`.
LayerPtr<RNNLayer> RNN(std::shared_ptr<RecurrentCell> cell, RNNOptions options = {});
/// A recurrent layer over the cells stacked (StackedRNNCells).
LayerPtr<RNNLayer> RNN(const std::vector<std::shared_ptr<RecurrentCell>>& cells,
                       RNNOptions options = {});

/// The options of an RNN layer read from a config (shared by its subclasses' from_config).
RNNOptions read_rnn_options(const Config& config);

}  // namespace keras::layers

#pragma GCC visibility pop

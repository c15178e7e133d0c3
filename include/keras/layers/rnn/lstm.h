#pragma once
// keras.layers.LSTMCell and LSTM (Hochreiter 1997). kernel (input_dim, 4 units),
// recurrent_kernel (units, 4 units) and bias (4 units), gates in the order i, f, c, o:
//   z = x @ kernel + h @ recurrent_kernel + bias
//   c' = sigma(z_f) * c + sigma(z_i) * act(z_c);  h' = sigma(z_o) * act(c')
// with act = activation (tanh) and sigma = recurrent_activation (sigmoid). The default
// activations run as one fused elementwise step after the recurrent matmul; the input
// projection of all timesteps is one matmul.

#include <optional>

#include "keras/layers/rnn/rnn.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.LSTMCell after `units`.
struct LSTMCellOptions {
  /// Keras's `activation` (act above): applied to the candidate cell state and to the new cell
  /// state before the output gate.
  activations::Activation activation = "tanh";
  /// Keras's `recurrent_activation` (sigma above): the activation of the gates.
  activations::Activation recurrent_activation = "sigmoid";
  /// Keras's `use_bias`: whether the cell has a `bias` weight.
  bool use_bias = true;
  /// Initializer of `kernel`, the input kernel (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of `recurrent_kernel`, the recurrent kernel (Keras's `recurrent_initializer`).
  initializers::InitializerArg recurrent_initializer = "orthogonal";
  /// Initializer of `bias` (Keras's `bias_initializer`).
  initializers::InitializerArg bias_initializer = "zeros";
  /// Keras's `unit_forget_bias`: the forget gate's bias starts at 1 (the other gates' from
  /// bias_initializer).
  bool unit_forget_bias = true;
  /// Regularizer of `kernel`; none when empty.
  regularizers::RegularizerArg kernel_regularizer;
  /// Regularizer of `recurrent_kernel`; none when empty.
  regularizers::RegularizerArg recurrent_regularizer;
  /// Regularizer of `bias`; none when empty.
  regularizers::RegularizerArg bias_regularizer;
  /// Constraint on `kernel`, applied after each optimizer update; none when empty.
  constraints::ConstraintArg kernel_constraint;
  /// Constraint on `recurrent_kernel`, applied after each optimizer update; none when empty.
  constraints::ConstraintArg recurrent_constraint;
  /// Constraint on `bias`, applied after each optimizer update; none when empty.
  constraints::ConstraintArg bias_constraint;
  /// Keras's `dropout`: the fraction of the inputs dropped in training (the same units at every
  /// timestep), clipped to [0, 1].
  double dropout = 0.0;
  /// Keras's `recurrent_dropout`: the fraction of the recurrent state dropped in training (the same
  /// units at every timestep), clipped to [0, 1].
  double recurrent_dropout = 0.0;
  /// Seeds the dropout masks (Keras's `seed`); unset: drawn from the global seed generator.
  std::optional<int64_t> seed;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The LSTMCell cell (Keras's "LSTMCell"); states (h, c).
class LSTMCellLayer : public RecurrentCell {
 public:
  /// Keras's LSTMCell(units, ...); ValueError unless units is positive.
  LSTMCellLayer(int64_t units, LSTMCellOptions options = {});
  std::string class_name() const override { return "LSTMCell"; }
  std::vector<int64_t> state_size() const override { return {units_, units_}; }
  int64_t output_size() const override { return units_; }
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

  /// Keras's `units`: the size of the output and of each state (h, c).
  int64_t units() const { return units_; }
  /// The constructor arguments, with the dropout rates clipped to [0, 1].
  const LSTMCellOptions& options() const { return options_; }
  /// The input kernel (input_dim, 4 units) (undefined before build).
  const Variable& kernel() const { return kernel_; }
  /// The recurrent kernel (units, 4 units) (undefined before build).
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
  /// The bias (4 units) (undefined without use_bias or before build).
  const Variable& bias() const { return bias_; }

 private:
  int64_t units_;
  LSTMCellOptions options_;
  random::SeedGenerator seed_generator_;
  Variable kernel_, recurrent_kernel_, bias_;
  // Per-gate masks (Keras's implementation 1, used when recurrent_dropout > 0), or one input
  // mask (implementation 2).
  TensorList dropout_masks_, recurrent_dropout_masks_;
};

/// An LSTM cell of `units` outputs.
LayerPtr<LSTMCellLayer> LSTMCell(int64_t units, LSTMCellOptions options = {});

/// The constructor arguments of keras.layers.LSTM after `units`.
struct LSTMOptions {
  /// Keras's `activation` (act above): applied to the candidate cell state and to the new cell
  /// state before the output gate.
  activations::Activation activation = "tanh";
  /// Keras's `recurrent_activation` (sigma above): the activation of the gates.
  activations::Activation recurrent_activation = "sigmoid";
  /// Keras's `use_bias`: whether the cell has a `bias` weight.
  bool use_bias = true;
  /// Initializer of `kernel`, the input kernel (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of `recurrent_kernel`, the recurrent kernel (Keras's `recurrent_initializer`).
  initializers::InitializerArg recurrent_initializer = "orthogonal";
  /// Initializer of `bias` (Keras's `bias_initializer`).
  initializers::InitializerArg bias_initializer = "zeros";
  /// Keras's `unit_forget_bias`: the forget gate's bias starts at 1 (the other gates' at
  /// bias_initializer).
  bool unit_forget_bias = true;
  /// Regularizer of `kernel`; none when empty.
  regularizers::RegularizerArg kernel_regularizer;
  /// Regularizer of `recurrent_kernel`; none when empty.
  regularizers::RegularizerArg recurrent_regularizer;
  /// Regularizer of `bias`; none when empty.
  regularizers::RegularizerArg bias_regularizer;
  /// Regularizer of the layer's output; none when empty.
  regularizers::RegularizerArg activity_regularizer;
  /// Constraint on `kernel`, applied after each optimizer update; none when empty.
  constraints::ConstraintArg kernel_constraint;
  /// Constraint on `recurrent_kernel`, applied after each optimizer update; none when empty.
  constraints::ConstraintArg recurrent_constraint;
  /// Constraint on `bias`, applied after each optimizer update; none when empty.
  constraints::ConstraintArg bias_constraint;
  /// Keras's `dropout`: the fraction of the inputs dropped in training (the same units at every
  /// timestep), clipped to [0, 1].
  double dropout = 0.0;
  /// Keras's `recurrent_dropout`: the fraction of the recurrent state dropped in training (the same
  /// units at every timestep), clipped to [0, 1].
  double recurrent_dropout = 0.0;
  /// Seeds the dropout masks (Keras's `seed`); unset: drawn from the global seed generator.
  std::optional<int64_t> seed;
  /// Keras's `return_sequences`: output the whole sequence rather than the last output.
  bool return_sequences = false;
  /// Keras's `return_state`: also return the final states, after the output.
  bool return_state = false;
  /// Keras's `go_backwards`: process the sequence backwards (and return the reversed sequence).
  bool go_backwards = false;
  /// Keras's `stateful`: each call's final states are the next call's initial states (the batch
  /// size must then stay fixed).
  bool stateful = false;
  /// Accepted for Keras compatibility; the eager loop is the same either way.
  bool unroll = false;
  /// "auto", "true" or "false" (Keras's True/False): accepted; there is no cuDNN path.
  std::string use_cudnn = "auto";
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The LSTM layer (Keras's "LSTM"); its weights live in cell() ("lstm_cell").
class LSTMLayer : public RNNLayer {
 public:
  /// Keras's LSTM(units, ...); ValueError unless units is positive.
  LSTMLayer(int64_t units, LSTMOptions options = {});
  std::string class_name() const override { return "LSTM"; }
  void build(const Shape& input_shape) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The cell (cell()) as its own type, for its weights and arguments.
  LSTMCellLayer& lstm_cell() const;
  /// Keras's `units`: the output size (the cell's units).
  int64_t units() const { return lstm_cell().units(); }
};

/// A long short-term memory layer of `units` outputs.
LayerPtr<LSTMLayer> LSTM(int64_t units, LSTMOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

#pragma once
// keras.layers.GRUCell and GRU (Cho et al. 2014). kernel (input_dim, 3 units),
// recurrent_kernel (units, 3 units), gates in the order z, r, h:
//   z = sigma(x W_z + h U_z + b_z), r = sigma(x W_r + h U_r + b_r)
//   reset_after (default, as torch.nn.GRU / cuDNN): hh = act(x W_h + b_h + r * (h U_h + b'_h)),
//     bias of shape (2, 3 units): row 0 for the inputs, row 1 for the recurrent part;
//   else: hh = act(x W_h + (r * h) U_h + b_h), bias of shape (3 units);
//   h' = z * h + (1 - z) * hh.

#include <optional>

#include "keras/layers/rnn/rnn.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.GRUCell after `units`.
struct GRUCellOptions {
  /// Keras's `activation` (act above): applied to the candidate state hh.
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
  /// Keras's `reset_after`: apply the reset gate after the recurrent matmul (the cuDNN form, with a
  /// (2, 3 units) bias) rather than before it.
  bool reset_after = true;
  /// Seeds the dropout masks (Keras's `seed`); unset: drawn from the global seed generator.
  std::optional<int64_t> seed;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The GRUCell cell (Keras's "GRUCell").
class GRUCellLayer : public RecurrentCell {
 public:
  /// Keras's GRUCell(units, ...); ValueError unless units is positive.
  GRUCellLayer(int64_t units, GRUCellOptions options = {});
  std::string class_name() const override { return "GRUCell"; }
  std::vector<int64_t> state_size() const override { return {units_}; }
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

  /// Keras's `units`: the size of the output and of the state.
  int64_t units() const { return units_; }
  /// The constructor arguments, with the dropout rates clipped to [0, 1].
  const GRUCellOptions& options() const { return options_; }
  /// The input kernel (input_dim, 3 units) (undefined before build).
  const Variable& kernel() const { return kernel_; }
  /// The recurrent kernel (units, 3 units) (undefined before build).
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
  /// The bias: (2, 3 units) with reset_after, else (3 units) (undefined without use_bias or before
  /// build).
  const Variable& bias() const { return bias_; }

 private:
  int64_t units_;
  GRUCellOptions options_;
  random::SeedGenerator seed_generator_;
  Variable kernel_, recurrent_kernel_, bias_;
  TensorList dropout_masks_, recurrent_dropout_masks_;
  Tensor sequence_rec_bias_;
};

/// A GRU cell of `units` outputs.
LayerPtr<GRUCellLayer> GRUCell(int64_t units, GRUCellOptions options = {});

/// The constructor arguments of keras.layers.GRU after `units`.
struct GRUOptions {
  /// Keras's `activation` (act above): applied to the candidate state hh.
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
  /// Keras's `reset_after`: apply the reset gate after the recurrent matmul (the cuDNN form, with a
  /// (2, 3 units) bias) rather than before it.
  bool reset_after = true;
  /// "auto", "true" or "false": accepted; there is no cuDNN path.
  std::string use_cudnn = "auto";
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The GRU layer (Keras's "GRU"); its weights live in cell() ("gru_cell").
class GRULayer : public RNNLayer {
 public:
  /// Keras's GRU(units, ...); ValueError unless units is positive.
  GRULayer(int64_t units, GRUOptions options = {});
  std::string class_name() const override { return "GRU"; }
  void build(const Shape& input_shape) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The cell (cell()) as its own type, for its weights and arguments.
  GRUCellLayer& gru_cell() const;
  /// Keras's `units`: the output size (the cell's units).
  int64_t units() const { return gru_cell().units(); }
};

/// A gated recurrent unit layer of `units` outputs.
LayerPtr<GRULayer> GRU(int64_t units, GRUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

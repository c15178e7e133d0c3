#pragma once
// keras.layers.SimpleRNNCell and SimpleRNN: h_t = activation(x_t @ kernel + bias +
// h_{t-1} @ recurrent_kernel), the output being h_t.

#include <optional>

#include "keras/layers/rnn/rnn.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.SimpleRNNCell after `units`.
struct SimpleRNNCellOptions {
  /// Keras's `activation` of the new state (tanh by default).
  activations::Activation activation = "tanh";
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
  /// Fraction of the inputs dropped in training (one mask for every timestep), clipped to
  /// [0, 1].
  double dropout = 0.0;
  /// Fraction of the recurrent state dropped in training, clipped to [0, 1].
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

/// The SimpleRNNCell cell (Keras's "SimpleRNNCell").
class SimpleRNNCellLayer : public RecurrentCell {
 public:
  /// Keras's SimpleRNNCell(units, ...); ValueError unless units is positive.
  SimpleRNNCellLayer(int64_t units, SimpleRNNCellOptions options = {});
  std::string class_name() const override { return "SimpleRNNCell"; }
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
  const SimpleRNNCellOptions& options() const { return options_; }
  /// The input kernel (input_dim, units) (undefined before build).
  const Variable& kernel() const { return kernel_; }
  /// The recurrent kernel (units, units) (undefined before build).
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
  /// The bias (units) (undefined without use_bias or before build).
  const Variable& bias() const { return bias_; }

 private:
  int64_t units_;
  SimpleRNNCellOptions options_;
  random::SeedGenerator seed_generator_;
  Variable kernel_, recurrent_kernel_, bias_;
  Tensor dropout_mask_, recurrent_dropout_mask_;
};

/// A SimpleRNN cell of `units` outputs.
LayerPtr<SimpleRNNCellLayer> SimpleRNNCell(int64_t units, SimpleRNNCellOptions options = {});

/// The constructor arguments of keras.layers.SimpleRNN after `units`.
struct SimpleRNNOptions {
  /// Keras's `activation` of the new state (tanh by default).
  activations::Activation activation = "tanh";
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
  /// Seeds the dropout masks (Keras's `seed`); unset: drawn from the global seed generator.
  std::optional<int64_t> seed;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The SimpleRNN layer (Keras's "SimpleRNN"); its weights live in cell() ("simple_rnn_cell").
class SimpleRNNLayer : public RNNLayer {
 public:
  /// Keras's SimpleRNN(units, ...); ValueError unless units is positive.
  SimpleRNNLayer(int64_t units, SimpleRNNOptions options = {});
  std::string class_name() const override { return "SimpleRNN"; }
  void build(const Shape& input_shape) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The cell (cell()) as its own type, for its weights and arguments.
  SimpleRNNCellLayer& simple_cell() const;
  /// Keras's `units`: the output size (the cell's units).
  int64_t units() const { return simple_cell().units(); }
};

/// A fully connected recurrent layer of `units` outputs.
LayerPtr<SimpleRNNLayer> SimpleRNN(int64_t units, SimpleRNNOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

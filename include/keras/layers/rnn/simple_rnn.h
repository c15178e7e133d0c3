#pragma once
// keras.layers.SimpleRNNCell and SimpleRNN: h_t = activation(x_t @ kernel + bias +
// h_{t-1} @ recurrent_kernel), the output being h_t.

#include <optional>

#include "keras/layers/rnn/rnn.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct SimpleRNNCellOptions {
  activations::Activation activation = "tanh";
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg recurrent_initializer = "orthogonal";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg recurrent_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg recurrent_constraint;
  constraints::ConstraintArg bias_constraint;
  /// Fraction of the inputs dropped in training (one mask for every timestep), clipped to
  /// [0, 1].
  double dropout = 0.0;
  /// Fraction of the recurrent state dropped in training, clipped to [0, 1].
  double recurrent_dropout = 0.0;
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The SimpleRNNCell cell (Keras's "SimpleRNNCell").
class SimpleRNNCellLayer : public RecurrentCell {
 public:
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
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t units() const { return units_; }
  const SimpleRNNCellOptions& options() const { return options_; }
  const Variable& kernel() const { return kernel_; }
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
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

struct SimpleRNNOptions {
  activations::Activation activation = "tanh";
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg recurrent_initializer = "orthogonal";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg recurrent_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg recurrent_constraint;
  constraints::ConstraintArg bias_constraint;
  double dropout = 0.0;
  double recurrent_dropout = 0.0;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;
  bool unroll = false;
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The SimpleRNN layer (Keras's "SimpleRNN"); its weights live in cell() ("simple_rnn_cell").
class SimpleRNNLayer : public RNNLayer {
 public:
  SimpleRNNLayer(int64_t units, SimpleRNNOptions options = {});
  std::string class_name() const override { return "SimpleRNN"; }
  void build(const Shape& input_shape) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  SimpleRNNCellLayer& simple_cell() const;
  int64_t units() const { return simple_cell().units(); }
};

/// A fully connected recurrent layer of `units` outputs.
LayerPtr<SimpleRNNLayer> SimpleRNN(int64_t units, SimpleRNNOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

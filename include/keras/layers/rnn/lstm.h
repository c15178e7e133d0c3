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

struct LSTMCellOptions {
  activations::Activation activation = "tanh";
  activations::Activation recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg recurrent_initializer = "orthogonal";
  initializers::InitializerArg bias_initializer = "zeros";
  /// Adds 1 to the forget gate's bias at initialization.
  bool unit_forget_bias = true;
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg recurrent_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg recurrent_constraint;
  constraints::ConstraintArg bias_constraint;
  double dropout = 0.0;
  double recurrent_dropout = 0.0;
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The LSTMCell cell (Keras's "LSTMCell"); states (h, c).
class LSTMCellLayer : public RecurrentCell {
 public:
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
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t units() const { return units_; }
  const LSTMCellOptions& options() const { return options_; }
  const Variable& kernel() const { return kernel_; }
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
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

struct LSTMOptions {
  activations::Activation activation = "tanh";
  activations::Activation recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg recurrent_initializer = "orthogonal";
  initializers::InitializerArg bias_initializer = "zeros";
  bool unit_forget_bias = true;
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg recurrent_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg recurrent_constraint;
  constraints::ConstraintArg bias_constraint;
  double dropout = 0.0;
  double recurrent_dropout = 0.0;
  std::optional<int64_t> seed;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;
  bool unroll = false;
  /// "auto", "true" or "false" (Keras's True/False): accepted; there is no cuDNN path.
  std::string use_cudnn = "auto";
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The LSTM layer (Keras's "LSTM"); its weights live in cell() ("lstm_cell").
class LSTMLayer : public RNNLayer {
 public:
  LSTMLayer(int64_t units, LSTMOptions options = {});
  std::string class_name() const override { return "LSTM"; }
  void build(const Shape& input_shape) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  LSTMCellLayer& lstm_cell() const;
  int64_t units() const { return lstm_cell().units(); }
};

/// A long short-term memory layer of `units` outputs.
LayerPtr<LSTMLayer> LSTM(int64_t units, LSTMOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

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

struct GRUCellOptions {
  activations::Activation activation = "tanh";
  activations::Activation recurrent_activation = "sigmoid";
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
  double dropout = 0.0;
  double recurrent_dropout = 0.0;
  bool reset_after = true;
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The GRUCell cell (Keras's "GRUCell").
class GRUCellLayer : public RecurrentCell {
 public:
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
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t units() const { return units_; }
  const GRUCellOptions& options() const { return options_; }
  const Variable& kernel() const { return kernel_; }
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
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

struct GRUOptions {
  activations::Activation activation = "tanh";
  activations::Activation recurrent_activation = "sigmoid";
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
  std::optional<int64_t> seed;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool stateful = false;
  bool unroll = false;
  bool reset_after = true;
  /// "auto", "true" or "false": accepted; there is no cuDNN path.
  std::string use_cudnn = "auto";
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The GRU layer (Keras's "GRU"); its weights live in cell() ("gru_cell").
class GRULayer : public RNNLayer {
 public:
  GRULayer(int64_t units, GRUOptions options = {});
  std::string class_name() const override { return "GRU"; }
  void build(const Shape& input_shape) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  GRUCellLayer& gru_cell() const;
  int64_t units() const { return gru_cell().units(); }
};

/// A gated recurrent unit layer of `units` outputs.
LayerPtr<GRULayer> GRU(int64_t units, GRUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

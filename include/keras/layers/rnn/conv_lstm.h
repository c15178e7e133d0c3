#pragma once
// keras.layers.ConvLSTM1D, ConvLSTM2D, ConvLSTM3D (Shi et al. 2015) and their cell: an LSTM
// whose input and recurrent transformations are convolutions. Inputs are sequences of images,
// (batch, time, *spatial, channels) (channels_last) or (batch, time, channels, *spatial); the
// states h and c have the shape of the input convolution's output, (batch, *out, filters).
// Weights as Keras: kernel (*kernel_size, channels, 4 filters), recurrent_kernel
// (*kernel_size, filters, 4 filters), bias (4 filters), gates in the order i, f, c, o:
//   z = conv(x, kernel; strides, padding, dilation) + bias + conv(h, recurrent_kernel; "same")
//   c' = sigma(z_f) * c + sigma(z_i) * act(z_c);  h' = sigma(z_o) * act(c')
//
//   auto layer = keras::layers::ConvLSTM2D(16, 3, {.padding = "same", .return_sequences = true});

#include <optional>
#include <tuple>

#include "keras/layers/rnn/rnn.h"
#include "keras/ops/nn/spatial.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of ConvLSTMCell after rank, filters and kernel_size, in Keras's order.
struct ConvLSTMCellOptions {
  /// Keras's `strides` of the input convolution: an int, or one per spatial axis.
  ops::IntOrTuple strides = 1;
  /// "valid" or "same", any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keras's `dilation_rate` of the input convolution: an int, or one per spatial axis (not with
  /// strides > 1).
  ops::IntOrTuple dilation_rate = 1;
  /// Keras's `activation` (act above): applied to the candidate cell state and to the new cell
  /// state before the output gate.
  activations::Activation activation = "tanh";
  /// Keras's `recurrent_activation` (sigma above): the activation of the gates.
  activations::Activation recurrent_activation = "sigmoid";
  /// Keras's `use_bias`: whether the cell has a `bias` weight.
  bool use_bias = true;
  /// Initializer of `kernel`, the input convolution's kernel (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of `recurrent_kernel`, the recurrent convolution's kernel (Keras's
  /// `recurrent_initializer`).
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

/// The ConvLSTM cell (Keras's ConvLSTMCell, rank 1 to 3); states (h, c), each of the shape of
/// the input convolution's output.
class ConvLSTMCellLayer : public RecurrentCell {
 public:
  /// Keras's ConvLSTMCell(rank, filters, kernel_size, ...); ValueError for a rank outside 1 to 3,
  /// non-positive filters, a kernel_size, strides or dilation_rate of the wrong length, an unknown
  /// padding or data_format, or strides and dilation_rate both above 1.
  ConvLSTMCellLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                    ConvLSTMCellOptions options = {});
  std::string class_name() const override { return "ConvLSTMCell"; }
  /// The channel count of each state (filters); state_shapes gives their full shapes.
  std::vector<int64_t> state_size() const override { return {filters_, filters_}; }
  int64_t output_size() const override { return filters_; }
  std::vector<Shape> state_shapes(int64_t batch_size) const override;
  void build(const Shape& input_shape) override;
  Tensor project_inputs(const Tensor& inputs, const CallContext& ctx) override;
  std::pair<Tensor, TensorList> step(const Tensor& inputs, const TensorList& states,
                                     const CallContext& ctx) override;
  void begin_sequence(const Tensor& step_inputs, const TensorList& states,
                      const CallContext& ctx) override;
  void end_sequence() override;
  /// Keras's keys (its config has no "rank": ConvLSTM1D/2D/3D fix it).
  Config get_config() const override;
  /// The rank is the config's "rank" when present, else the length of its kernel_size list
  /// (Keras's cell config has no rank, so Keras itself cannot rebuild a lone cell).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `rank`: the number of spatial axes (1 to 3).
  int rank() const { return rank_; }
  /// Keras's `filters`: the output channels of both convolutions, and the channels of each state.
  int64_t filters() const { return filters_; }
  /// Keras's `kernel_size`, one entry per spatial axis.
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  /// Keras's `strides` of the input convolution, one entry per spatial axis.
  const std::vector<int64_t>& strides() const { return strides_; }
  /// Keras's `dilation_rate` of the input convolution, one entry per spatial axis.
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Keras's `padding` of the input convolution, lowercased: "valid" or "same".
  const std::string& padding() const { return padding_; }
  /// "channels_last" or "channels_first" (the global image_data_format() when none was given).
  const std::string& data_format() const { return data_format_; }
  /// The constructor arguments, with the dropout rates clipped to [0, 1].
  const ConvLSTMCellOptions& options() const { return options_; }
  /// The input convolution's kernel (*kernel_size, channels, 4 filters) (undefined before build).
  const Variable& kernel() const { return kernel_; }
  /// The recurrent convolution's kernel (*kernel_size, filters, 4 filters) (undefined before
  /// build).
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
  /// Undefined when use_bias is false.
  const Variable& bias() const { return bias_; }

 private:
  bool channels_last() const { return data_format_ == "channels_last"; }
  // The input convolution of a step batch (batch, *spatial, C) with the (already masked) inputs
  // of each gate, plus the bias.
  Tensor input_conv(const TensorList& gate_inputs) const;

  int rank_;
  int64_t filters_;
  std::vector<int64_t> kernel_size_, strides_, dilation_rate_;
  std::string padding_, data_format_;
  ConvLSTMCellOptions options_;
  random::SeedGenerator seed_generator_;
  std::vector<int64_t> spatial_dims_;
  int64_t input_dim_ = -1;
  Variable kernel_, recurrent_kernel_, bias_;
  // One mask per gate (Keras's dropout_mask_count = 4), drawn in begin_sequence.
  TensorList dropout_masks_, recurrent_dropout_masks_;
};

/// A ConvLSTM cell of `rank` spatial dimensions and `filters` output channels.
LayerPtr<ConvLSTMCellLayer> ConvLSTMCell(int rank, int64_t filters,
                                         const ops::IntOrTuple& kernel_size,
                                         ConvLSTMCellOptions options = {});

/// The keyword arguments of ConvLSTM1D/2D/3D after filters and kernel_size, in Keras's order.
struct ConvLSTMOptions {
  /// Keras's `strides` of the input convolution: an int, or one per spatial axis.
  ops::IntOrTuple strides = 1;
  /// Keras's `padding` of the input convolution: "valid" or "same", any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keras's `dilation_rate` of the input convolution: an int, or one per spatial axis (not with
  /// strides > 1).
  ops::IntOrTuple dilation_rate = 1;
  /// Keras's `activation` (act above): applied to the candidate cell state and to the new cell
  /// state before the output gate.
  activations::Activation activation = "tanh";
  /// Keras's `recurrent_activation` (sigma above): the activation of the gates.
  activations::Activation recurrent_activation = "sigmoid";
  /// Keras's `use_bias`: whether the cell has a `bias` weight.
  bool use_bias = true;
  /// Initializer of `kernel`, the input convolution's kernel (Keras's `kernel_initializer`).
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Initializer of `recurrent_kernel`, the recurrent convolution's kernel (Keras's
  /// `recurrent_initializer`).
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
  /// Accepted for Keras compatibility (an RNN keyword argument); the eager loop is the same.
  bool unroll = false;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};
/// The keyword arguments of ConvLSTM1D (ConvLSTMOptions).
using ConvLSTM1DOptions = ConvLSTMOptions;
/// The keyword arguments of ConvLSTM2D (ConvLSTMOptions).
using ConvLSTM2DOptions = ConvLSTMOptions;
/// The keyword arguments of ConvLSTM3D (ConvLSTMOptions).
using ConvLSTM3DOptions = ConvLSTMOptions;

/// The N-d ConvLSTM layer (Keras's ConvLSTM); its weights live in cell() ("conv_lstm_cell").
/// ConvLSTM1DLayer, ConvLSTM2DLayer and ConvLSTM3DLayer fix the rank and the class name.
class ConvLSTMLayer : public RNNLayer {
 public:
  /// A ConvLSTM of `rank` spatial axes; `default_name` is the stem of automatic names. Throws what
  /// the ConvLSTMCellLayer constructor throws.
  ConvLSTMLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                ConvLSTMOptions options, const std::string& default_name);
  void build(const Shape& input_shape) override;
  Config get_config() const override;

  /// The cell (cell()) as its own type, for its weights and arguments.
  ConvLSTMCellLayer& conv_lstm_cell() const;
  /// The number of spatial axes (1 to 3).
  int rank() const { return conv_lstm_cell().rank(); }
  /// Keras's `filters`: the output channels.
  int64_t filters() const { return conv_lstm_cell().filters(); }

 protected:
  /// The layer's options read back from a config.
  static std::tuple<int64_t, ops::IntOrTuple, ConvLSTMOptions> parse_config(const Config& config);
};

/// ConvLSTM over sequences of 1D inputs (batch, time, steps, channels) (Keras's "ConvLSTM1D").
class ConvLSTM1DLayer : public ConvLSTMLayer {
 public:
  /// Keras's ConvLSTM1D(filters, kernel_size, ...); ValueError as ConvLSTMCellLayer's constructor.
  ConvLSTM1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                  ConvLSTM1DOptions options = {});
  std::string class_name() const override { return "ConvLSTM1D"; }
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// ConvLSTM over sequences of images (batch, time, rows, cols, channels) (Keras's
/// "ConvLSTM2D").
class ConvLSTM2DLayer : public ConvLSTMLayer {
 public:
  /// Keras's ConvLSTM2D(filters, kernel_size, ...); ValueError as ConvLSTMCellLayer's constructor.
  ConvLSTM2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                  ConvLSTM2DOptions options = {});
  std::string class_name() const override { return "ConvLSTM2D"; }
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// ConvLSTM over sequences of volumes (batch, time, depth, rows, cols, channels) (Keras's
/// "ConvLSTM3D").
class ConvLSTM3DLayer : public ConvLSTMLayer {
 public:
  /// Keras's ConvLSTM3D(filters, kernel_size, ...); ValueError as ConvLSTMCellLayer's constructor.
  ConvLSTM3DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                  ConvLSTM3DOptions options = {});
  std::string class_name() const override { return "ConvLSTM3D"; }
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A 1D convolutional LSTM layer of `filters` output channels.
LayerPtr<ConvLSTM1DLayer> ConvLSTM1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTM1DOptions options = {});
/// A 2D convolutional LSTM layer of `filters` output channels.
LayerPtr<ConvLSTM2DLayer> ConvLSTM2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTM2DOptions options = {});
/// A 3D convolutional LSTM layer of `filters` output channels.
LayerPtr<ConvLSTM3DLayer> ConvLSTM3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTM3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

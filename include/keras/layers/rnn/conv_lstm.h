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
  ops::IntOrTuple strides = 1;
  /// "valid" or "same", any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  ops::IntOrTuple dilation_rate = 1;
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

/// The ConvLSTM cell (Keras's ConvLSTMCell, rank 1 to 3); states (h, c), each of the shape of
/// the input convolution's output.
class ConvLSTMCellLayer : public RecurrentCell {
 public:
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

  int rank() const { return rank_; }
  int64_t filters() const { return filters_; }
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  const std::string& padding() const { return padding_; }
  const std::string& data_format() const { return data_format_; }
  const ConvLSTMCellOptions& options() const { return options_; }
  const Variable& kernel() const { return kernel_; }
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
  ops::IntOrTuple strides = 1;
  std::string padding = "valid";
  std::string data_format;
  ops::IntOrTuple dilation_rate = 1;
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
  /// Accepted for Keras compatibility (an RNN keyword argument); the eager loop is the same.
  bool unroll = false;
  std::string name;
  bool trainable = true;
  std::string dtype;
};
using ConvLSTM1DOptions = ConvLSTMOptions;
using ConvLSTM2DOptions = ConvLSTMOptions;
using ConvLSTM3DOptions = ConvLSTMOptions;

/// The N-d ConvLSTM layer (Keras's ConvLSTM); its weights live in cell() ("conv_lstm_cell").
/// ConvLSTM1DLayer, ConvLSTM2DLayer and ConvLSTM3DLayer fix the rank and the class name.
class ConvLSTMLayer : public RNNLayer {
 public:
  ConvLSTMLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                ConvLSTMOptions options, const std::string& default_name);
  void build(const Shape& input_shape) override;
  Config get_config() const override;

  ConvLSTMCellLayer& conv_lstm_cell() const;
  int rank() const { return conv_lstm_cell().rank(); }
  int64_t filters() const { return conv_lstm_cell().filters(); }

 protected:
  /// The layer's options read back from a config.
  static std::tuple<int64_t, ops::IntOrTuple, ConvLSTMOptions> parse_config(const Config& config);
};

/// ConvLSTM over sequences of 1D inputs (batch, time, steps, channels) (Keras's "ConvLSTM1D").
class ConvLSTM1DLayer : public ConvLSTMLayer {
 public:
  ConvLSTM1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                  ConvLSTM1DOptions options = {});
  std::string class_name() const override { return "ConvLSTM1D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// ConvLSTM over sequences of images (batch, time, rows, cols, channels) (Keras's
/// "ConvLSTM2D").
class ConvLSTM2DLayer : public ConvLSTMLayer {
 public:
  ConvLSTM2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                  ConvLSTM2DOptions options = {});
  std::string class_name() const override { return "ConvLSTM2D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// ConvLSTM over sequences of volumes (batch, time, depth, rows, cols, channels) (Keras's
/// "ConvLSTM3D").
class ConvLSTM3DLayer : public ConvLSTMLayer {
 public:
  ConvLSTM3DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                  ConvLSTM3DOptions options = {});
  std::string class_name() const override { return "ConvLSTM3D"; }
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

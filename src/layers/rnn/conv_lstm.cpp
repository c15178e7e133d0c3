#include "keras/layers/rnn/conv_lstm.h"

#include <algorithm>

#include "keras/ops/ops.h"
#include "layers/convolutional/conv_common.h"
#include "layers/rnn/cell_utils.h"
#include "layers/rnn/recurrent_ops.h"

namespace keras::layers {
namespace {

const char* const kCell = "ConvLSTMCell";

// The convolution arguments both option structs carry, read from a config.
template <typename O>
void read_conv_args(const Config& c, O& o) {
  if (c.contains("strides")) o.strides = detail::int_or_tuple(c["strides"]);
  if (c.contains("padding")) o.padding = c["padding"].get<std::string>();
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("dilation_rate")) o.dilation_rate = detail::int_or_tuple(c["dilation_rate"]);
}

void write_conv_args(Config& c, const ConvLSTMCellLayer& cell) {
  c["filters"] = cell.filters();
  c["kernel_size"] = detail::tuple_config(cell.kernel_size());
  c["strides"] = detail::tuple_config(cell.strides());
  c["padding"] = cell.padding();
  c["data_format"] = cell.data_format();
  c["dilation_rate"] = detail::tuple_config(cell.dilation_rate());
}

}  // namespace

// ---- ConvLSTMCell ----------------------------------------------------------------------------

ConvLSTMCellLayer::ConvLSTMCellLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTMCellOptions options)
    : RecurrentCell(base_options(options), "conv_lstm_cell"),
      rank_(rank),
      filters_(filters),
      options_(std::move(options)),
      seed_generator_(detail::generator_seed(options_.seed)) {
  check(rank >= 1 && rank <= 3, kCell, ": rank ", rank,
        " convolutions are not implemented; rank must be 1, 2 or 3.");
  check(filters > 0, kCell,
        ": `filters` must be a strictly positive integer; got filters=", filters, ".");
  kernel_size_ = detail::standardize_tuple(kCell, kernel_size, rank, "kernel_size");
  strides_ = detail::standardize_tuple(kCell, options_.strides, rank, "strides");
  dilation_rate_ = detail::standardize_tuple(kCell, options_.dilation_rate, rank, "dilation_rate");
  padding_ = detail::standardize_padding(kCell, options_.padding);
  data_format_ = detail::standardize_data_format(kCell, options_.data_format);
  const bool strided = *std::max_element(strides_.begin(), strides_.end()) > 1;
  const bool dilated = *std::max_element(dilation_rate_.begin(), dilation_rate_.end()) > 1;
  check(!(strided && dilated), kCell,
        ": `strides > 1` is not compatible with `dilation_rate > 1`; got strides=",
        detail::tuple_string(strides_), " and dilation_rate=", detail::tuple_string(dilation_rate_),
        ". Use strides=1 or dilation_rate=1.");
  options_.dropout = detail::clip01(options_.dropout);
  options_.recurrent_dropout = detail::clip01(options_.recurrent_dropout);
}

void ConvLSTMCellLayer::build(const Shape& input_shape) {
  const bool cl = channels_last();
  check(input_shape.rank() == rank_ + 2, kCell, " '", name(), "': expected step inputs of rank ",
        rank_ + 2, " (batch, ", cl ? "*spatial, channels" : "channels, *spatial", "); got ",
        shape_string(input_shape), ".");
  spatial_dims_ = detail::spatial_dims(input_shape, cl);
  for (int64_t d : spatial_dims_)
    check(d > 0, kCell, " '", name(),
          "': ConvLSTM layers only support static input shapes for the spatial dimensions; got "
          "input shape ",
          shape_string(input_shape), ". Give the Input fixed spatial dimensions.");
  input_dim_ = detail::channel_dim(input_shape, cl);
  check(input_dim_ > 0, kCell, " '", name(),
        "': the channel dimension of the inputs must be known; got input shape ",
        shape_string(input_shape), ".");
  detail::check_conv_output(kCell, name(), input_shape, kernel_size_, strides_, dilation_rate_,
                            padding_, cl);
  Shape kernel_shape(kernel_size_), recurrent_shape(kernel_size_);
  kernel_shape.push_back(input_dim_);
  kernel_shape.push_back(4 * filters_);
  recurrent_shape.push_back(filters_);
  recurrent_shape.push_back(4 * filters_);
  kernel_ = add_weight({.shape = kernel_shape,
                        .initializer = options_.kernel_initializer,
                        .regularizer = options_.kernel_regularizer,
                        .constraint = options_.kernel_constraint,
                        .name = "kernel"});
  recurrent_kernel_ = add_weight({.shape = recurrent_shape,
                                  .initializer = options_.recurrent_initializer,
                                  .regularizer = options_.recurrent_regularizer,
                                  .constraint = options_.recurrent_constraint,
                                  .name = "recurrent_kernel"});
  if (options_.use_bias) {
    initializers::InitializerArg init = options_.bias_initializer;
    if (options_.unit_forget_bias)
      init = std::make_shared<detail::ForgetBiasInitializer>(options_.bias_initializer.get(),
                                                             filters_);
    bias_ = add_weight({.shape = {4 * filters_},
                        .initializer = init,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
  }
}

std::vector<Shape> ConvLSTMCellLayer::state_shapes(int64_t batch_size) const {
  check(input_dim_ > 0, kCell, " '", name(),
        "' is not built: its states take the shape of its input convolution's output.");
  Shape s{batch_size};
  if (!channels_last()) s.push_back(filters_);
  for (size_t i = 0; i < spatial_dims_.size(); ++i)
    s.push_back(detail::conv_output_length(spatial_dims_[i], kernel_size_[i], strides_[i],
                                           dilation_rate_[i], padding_));
  if (channels_last()) s.push_back(filters_);
  return {s, s};
}

void ConvLSTMCellLayer::begin_sequence(const Tensor& step_inputs, const TensorList& states,
                                       const CallContext& ctx) {
  end_sequence();
  if (!ctx.training.value_or(false)) return;
  // Keras's ConvLSTMCell draws one mask per gate for each (dropout_mask_count = 4).
  detail::draw_dropout_masks(dropout_masks_, step_inputs, options_.dropout, 4, seed_generator_);
  if (!states.empty())
    detail::draw_dropout_masks(recurrent_dropout_masks_, states[0], options_.recurrent_dropout, 4,
                               seed_generator_);
}

void ConvLSTMCellLayer::end_sequence() {
  dropout_masks_.clear();
  recurrent_dropout_masks_.clear();
}

Tensor ConvLSTMCellLayer::input_conv(const TensorList& gate_inputs) const {
  const ops::ConvOptions options{.strides = ops::IntOrTuple(strides_),
                                 .padding = padding_,
                                 .data_format = data_format_,
                                 .dilation_rate = ops::IntOrTuple(dilation_rate_)};
  const int channel_axis = channels_last() ? -1 : 1;
  Tensor z;
  if (gate_inputs.size() == 1) {
    z = ops::conv(gate_inputs[0], kernel_, options);
  } else {
    // Dropout: each gate convolves its own masked inputs with its quarter of the kernel.
    TensorList k = ops::split(kernel_, 4, rank_ + 1);
    TensorList parts;
    for (size_t g = 0; g < 4; ++g) parts.push_back(ops::conv(gate_inputs[g], k[g], options));
    z = ops::concatenate(parts, channel_axis);
  }
  if (!options_.use_bias) return z;
  if (channels_last()) return ops::add(z, bias_);
  Shape bias_shape{4 * filters_};
  for (int i = 0; i < rank_; ++i) bias_shape.push_back(1);
  return ops::add(z, ops::reshape(bias_, bias_shape));
}

Tensor ConvLSTMCellLayer::project_inputs(const Tensor& inputs, const CallContext&) {
  check(kernel_.defined(), kCell, " '", name(), "' is not built.");
  // The whole sequence (batch, time, *step) runs as one batch of batch * time steps.
  const bool sequence = inputs.ndim() == rank_ + 3;
  check(sequence || inputs.ndim() == rank_ + 2, kCell, " '", name(), "': expected a step (rank ",
        rank_ + 2, ") or a sequence (rank ", rank_ + 3, ") of inputs; got shape ", inputs.shape(),
        ".");
  const Shape& shape = inputs.shape();
  auto flat = [&](const Tensor& t) {
    if (!sequence) return t;
    Shape steps{-1};
    for (int d = 2; d < shape.rank(); ++d) steps.push_back(shape[d]);
    return ops::reshape(t, steps);
  };
  TensorList gate_inputs;
  if (dropout_masks_.size() == 4) {
    for (const Tensor& mask : dropout_masks_)
      gate_inputs.push_back(
          flat(ops::multiply(inputs, sequence ? ops::expand_dims(mask, 1) : mask)));
  } else {
    gate_inputs.push_back(flat(inputs));
  }
  Tensor z = input_conv(gate_inputs);
  if (!sequence) return z;
  Shape out{shape[0], shape[1]};
  for (int d = 1; d < z.ndim(); ++d) out.push_back(z.shape()[d]);
  return ops::reshape(z, out);
}

std::pair<Tensor, TensorList> ConvLSTMCellLayer::step(const Tensor& inputs,
                                                      const TensorList& states,
                                                      const CallContext&) {
  check(states.size() == 2, kCell, " '", name(), "' has 2 states (h, c); got ", states.size(), ".");
  const Tensor& h_prev = states[0];
  const Tensor& c_prev = states[1];
  const int channel_axis = channels_last() ? -1 : 1;
  // The recurrent convolution: stride 1, "same" padding, no dilation (as Keras).
  const ops::ConvOptions same{.padding = "same", .data_format = data_format_};
  Tensor hz;
  if (recurrent_dropout_masks_.size() == 4) {
    TensorList r = ops::split(recurrent_kernel_, 4, rank_ + 1);
    TensorList parts;
    for (size_t g = 0; g < 4; ++g)
      parts.push_back(ops::conv(ops::multiply(h_prev, recurrent_dropout_masks_[g]), r[g], same));
    hz = ops::concatenate(parts, channel_axis);
  } else {
    hz = ops::conv(h_prev, recurrent_kernel_, same);
  }
  if (channels_last() &&
      detail::default_lstm_activations(options_.activation, options_.recurrent_activation)) {
    // Every pixel is one row of an LSTM step: the fused elementwise step of LSTM applies.
    auto [h, c] = detail::lstm_step(ops::reshape(inputs, {-1, 4 * filters_}),
                                    ops::reshape(hz, {-1, 4 * filters_}),
                                    ops::reshape(c_prev, {-1, filters_}));
    h = ops::reshape(h, c_prev.shape());
    c = ops::reshape(c, c_prev.shape());
    return {h, {h, c}};
  }
  auto [h, c] = detail::lstm_gates(ops::add(inputs, hz), channel_axis, c_prev, options_.activation,
                                   options_.recurrent_activation);
  return {h, {h, c}};
}

Config ConvLSTMCellLayer::get_config() const {
  Config c = Layer::get_config();
  write_conv_args(c, *this);
  detail::write_cell_config(c, options_);
  c["seed"] = detail::seed_config(options_.seed);
  return c;
}

std::shared_ptr<Layer> ConvLSTMCellLayer::from_config(const Config& c) {
  ConvLSTMCellOptions o;
  detail::read_cell_config(c, o);
  read_conv_args(c, o);
  const Config& kernel_size = c.at("kernel_size");
  // Keras's cell config has no rank; its kernel_size, a list of rank ints, tells it.
  int rank = 0;
  if (c.contains("rank"))
    rank = c["rank"].get<int>();
  else if (kernel_size.is_array())
    rank = static_cast<int>(kernel_size.size());
  check(rank > 0, kCell, ".from_config: the config has no \"rank\" and its kernel_size ",
        kernel_size.dump(), " is not a list (one size per spatial dimension).");
  return std::make_shared<ConvLSTMCellLayer>(rank, c.at("filters").get<int64_t>(),
                                             detail::int_or_tuple(kernel_size), o);
}

LayerPtr<ConvLSTMCellLayer> ConvLSTMCell(int rank, int64_t filters,
                                         const ops::IntOrTuple& kernel_size,
                                         ConvLSTMCellOptions options) {
  return make_layer<ConvLSTMCellLayer>(rank, filters, kernel_size, std::move(options));
}

// ---- ConvLSTM --------------------------------------------------------------------------------

namespace {

std::shared_ptr<RecurrentCell> make_conv_lstm_cell(int rank, int64_t filters,
                                                   const ops::IntOrTuple& kernel_size,
                                                   const ConvLSTMOptions& o) {
  auto c = detail::cell_options_of<ConvLSTMCellOptions>(o, "conv_lstm_cell");
  c.strides = o.strides;
  c.padding = o.padding;
  c.data_format = o.data_format;
  c.dilation_rate = o.dilation_rate;
  return std::make_shared<ConvLSTMCellLayer>(rank, filters, kernel_size, std::move(c));
}

}  // namespace

ConvLSTMLayer::ConvLSTMLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                             ConvLSTMOptions options, const std::string& default_name)
    : RNNLayer(make_conv_lstm_cell(rank, filters, kernel_size, options),
               detail::rnn_options_of(options), default_name) {}

ConvLSTMCellLayer& ConvLSTMLayer::conv_lstm_cell() const {
  return static_cast<ConvLSTMCellLayer&>(*cell());
}

void ConvLSTMLayer::build(const Shape& input_shape) {
  const int r = rank();
  check(input_shape.rank() == r + 3, class_name(), " '", name(), "': expected inputs of rank ",
        r + 3, " (batch, time, ",
        conv_lstm_cell().data_format() == "channels_last" ? "*spatial, channels"
                                                          : "channels, *spatial",
        "); got ", shape_string(input_shape), ".");
  RNNLayer::build(input_shape);
}

Config ConvLSTMLayer::get_config() const {
  Config c = rnn_config();
  const ConvLSTMCellLayer& cell = conv_lstm_cell();
  write_conv_args(c, cell);
  detail::write_cell_config(c, cell.options());
  c["activity_regularizer"] = regularizers::serialize(rnn_options().activity_regularizer.get());
  c["seed"] = detail::seed_config(cell.options().seed);
  return c;
}

std::tuple<int64_t, ops::IntOrTuple, ConvLSTMOptions> ConvLSTMLayer::parse_config(const Config& c) {
  ConvLSTMOptions o;
  detail::read_cell_config(c, o);
  detail::read_rnn_fields(c, o);
  read_conv_args(c, o);
  return {c.at("filters").get<int64_t>(), detail::int_or_tuple(c.at("kernel_size")), o};
}

namespace {

template <typename L>
std::shared_ptr<Layer> conv_lstm_from_config(
    const Config& c, const std::tuple<int64_t, ops::IntOrTuple, ConvLSTMOptions>& args) {
  auto layer = std::make_shared<L>(std::get<0>(args), std::get<1>(args), std::get<2>(args));
  layer->set_zero_output_for_mask(c.value("zero_output_for_mask", false));
  return layer;
}

}  // namespace

ConvLSTM1DLayer::ConvLSTM1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                 ConvLSTM1DOptions options)
    : ConvLSTMLayer(1, filters, kernel_size, std::move(options), "conv_lstm1d") {}
ConvLSTM2DLayer::ConvLSTM2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                 ConvLSTM2DOptions options)
    : ConvLSTMLayer(2, filters, kernel_size, std::move(options), "conv_lstm2d") {}
ConvLSTM3DLayer::ConvLSTM3DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                 ConvLSTM3DOptions options)
    : ConvLSTMLayer(3, filters, kernel_size, std::move(options), "conv_lstm3d") {}

std::shared_ptr<Layer> ConvLSTM1DLayer::from_config(const Config& c) {
  return conv_lstm_from_config<ConvLSTM1DLayer>(c, parse_config(c));
}
std::shared_ptr<Layer> ConvLSTM2DLayer::from_config(const Config& c) {
  return conv_lstm_from_config<ConvLSTM2DLayer>(c, parse_config(c));
}
std::shared_ptr<Layer> ConvLSTM3DLayer::from_config(const Config& c) {
  return conv_lstm_from_config<ConvLSTM3DLayer>(c, parse_config(c));
}

LayerPtr<ConvLSTM1DLayer> ConvLSTM1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTM1DOptions options) {
  return make_layer<ConvLSTM1DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<ConvLSTM2DLayer> ConvLSTM2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTM2DOptions options) {
  return make_layer<ConvLSTM2DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<ConvLSTM3DLayer> ConvLSTM3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                     ConvLSTM3DOptions options) {
  return make_layer<ConvLSTM3DLayer>(filters, kernel_size, std::move(options));
}

}  // namespace keras::layers

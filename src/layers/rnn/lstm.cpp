#include "keras/layers/rnn/lstm.h"

#include "keras/ops/ops.h"
#include "layers/rnn/cell_utils.h"
#include "layers/rnn/recurrent_ops.h"

namespace keras::layers {
// ---- LSTMCell --------------------------------------------------------------------------------

LSTMCellLayer::LSTMCellLayer(int64_t units, LSTMCellOptions options)
    : RecurrentCell(base_options(options), "lstm_cell"),
      units_(units),
      options_(std::move(options)),
      seed_generator_(detail::generator_seed(options_.seed)) {
  check(units > 0, "LSTMCell: units must be a positive integer; got ", units, ".");
  options_.dropout = detail::clip01(options_.dropout);
  options_.recurrent_dropout = detail::clip01(options_.recurrent_dropout);
}

void LSTMCellLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 1 && input_shape.back() > 0, "LSTMCell '", name(),
        "': the last axis of the input must be known; got input shape ",
        shape_string(input_shape), ".");
  kernel_ = add_weight({.shape = {input_shape.back(), 4 * units_},
                        .initializer = options_.kernel_initializer,
                        .regularizer = options_.kernel_regularizer,
                        .constraint = options_.kernel_constraint,
                        .name = "kernel"});
  recurrent_kernel_ = add_weight({.shape = {units_, 4 * units_},
                                  .initializer = options_.recurrent_initializer,
                                  .regularizer = options_.recurrent_regularizer,
                                  .constraint = options_.recurrent_constraint,
                                  .name = "recurrent_kernel"});
  if (options_.use_bias) {
    initializers::InitializerArg init = options_.bias_initializer;
    if (options_.unit_forget_bias)
      init =
          std::make_shared<detail::ForgetBiasInitializer>(options_.bias_initializer.get(), units_);
    bias_ = add_weight({.shape = {4 * units_},
                        .initializer = init,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
  }
}

void LSTMCellLayer::begin_sequence(const Tensor& step_inputs, const TensorList& states,
                                   const CallContext& ctx) {
  end_sequence();
  if (!ctx.training.value_or(false)) return;
  // Keras's implementation 1 (recurrent_dropout > 0) draws one mask per gate; implementation 2
  // one input mask. Rates of 1 drop nothing there (0 < rate < 1 is required).
  const bool per_gate = options_.recurrent_dropout != 0.0;
  detail::draw_dropout_masks(dropout_masks_, step_inputs, options_.dropout, per_gate ? 4 : 1,
                             seed_generator_);
  if (!states.empty())
    detail::draw_dropout_masks(recurrent_dropout_masks_, states[0], options_.recurrent_dropout, 4,
                               seed_generator_);
}

void LSTMCellLayer::end_sequence() {
  dropout_masks_.clear();
  recurrent_dropout_masks_.clear();
}

Tensor LSTMCellLayer::project_inputs(const Tensor& inputs, const CallContext&) {
  check(kernel_.defined(), "LSTMCell '", name(), "' is not built.");
  check(inputs.shape().back() == kernel_.shape()[0], "LSTMCell '", name(),
        "': expected inputs with last axis ", kernel_.shape()[0], "; got shape ",
        inputs.shape(), ".");
  Tensor bias = options_.use_bias ? bias_.value() : Tensor();
  if (dropout_masks_.size() == 4) {
    TensorList k = ops::split(kernel_, 4, 1);
    TensorList b = bias.defined() ? ops::split(bias, 4, 0) : TensorList(4);
    TensorList parts;
    for (size_t g = 0; g < 4; ++g)
      parts.push_back(detail::project_last_axis(detail::apply_mask(inputs, dropout_masks_[g]),
                                                k[g], b[g]));
    return ops::concatenate(parts, -1);
  }
  return detail::project_last_axis(
      detail::apply_mask(inputs, dropout_masks_.empty() ? Tensor() : dropout_masks_[0]), kernel_,
      bias);
}

std::pair<Tensor, TensorList> LSTMCellLayer::step(const Tensor& inputs, const TensorList& states,
                                                  const CallContext&) {
  check(states.size() == 2, "LSTMCell '", name(), "' has 2 states (h, c); got ", states.size(),
        ".");
  const Tensor& h_prev = states[0];
  const Tensor& c_prev = states[1];
  Tensor hz;
  if (recurrent_dropout_masks_.size() == 4) {
    TensorList r = ops::split(recurrent_kernel_, 4, 1);
    TensorList parts;
    for (size_t g = 0; g < 4; ++g)
      parts.push_back(ops::matmul(ops::multiply(h_prev, recurrent_dropout_masks_[g]), r[g]));
    hz = ops::concatenate(parts, -1);
  } else {
    hz = ops::matmul(h_prev, recurrent_kernel_);
  }
  if (detail::default_lstm_activations(options_.activation, options_.recurrent_activation)) {
    auto [h, c] = detail::lstm_step(inputs, hz, c_prev);
    return {h, {h, c}};
  }
  auto [h, c] = detail::lstm_gates(ops::add(inputs, hz), 1, c_prev, options_.activation,
                                   options_.recurrent_activation);
  return {h, {h, c}};
}

Config LSTMCellLayer::get_config() const {
  Config c = Layer::get_config();
  c["units"] = units_;
  detail::write_cell_config(c, options_);
  c["seed"] = detail::seed_config(options_.seed);
  return c;
}

std::shared_ptr<Layer> LSTMCellLayer::from_config(const Config& c) {
  LSTMCellOptions o;
  detail::read_cell_config(c, o);
  return std::make_shared<LSTMCellLayer>(c.at("units").get<int64_t>(), o);
}

LayerPtr<LSTMCellLayer> LSTMCell(int64_t units, LSTMCellOptions options) {
  return make_layer<LSTMCellLayer>(units, std::move(options));
}

// ---- LSTM ------------------------------------------------------------------------------------

namespace {

std::shared_ptr<RecurrentCell> make_lstm_cell(int64_t units, const LSTMOptions& o) {
  check(units > 0, "LSTM: units must be a positive integer; got ", units, ".");
  check(o.use_cudnn == "auto" || o.use_cudnn == "true" || o.use_cudnn == "false",
        "LSTM: use_cudnn must be \"auto\", \"true\" or \"false\"; got \"", o.use_cudnn, "\".");
  return std::make_shared<LSTMCellLayer>(
      units, detail::cell_options_of<LSTMCellOptions>(o, "lstm_cell"));
}

}  // namespace

LSTMLayer::LSTMLayer(int64_t units, LSTMOptions options)
    : RNNLayer(make_lstm_cell(units, options), detail::rnn_options_of(options), "lstm") {}

LSTMCellLayer& LSTMLayer::lstm_cell() const { return static_cast<LSTMCellLayer&>(*cell()); }

void LSTMLayer::build(const Shape& input_shape) {
  check(input_shape.rank() == 3, "LSTM '", name(),
        "': expected inputs of shape (batch, timesteps, features); got ",
        shape_string(input_shape), ".");
  RNNLayer::build(input_shape);
}

Config LSTMLayer::get_config() const {
  Config c = rnn_config();
  const LSTMCellLayer& cell = lstm_cell();
  c["units"] = cell.units();
  detail::write_cell_config(c, cell.options());
  c["activity_regularizer"] = regularizers::serialize(rnn_options().activity_regularizer.get());
  c["seed"] = detail::seed_config(cell.options().seed);
  return c;
}

std::shared_ptr<Layer> LSTMLayer::from_config(const Config& c) {
  LSTMOptions o;
  detail::read_cell_config(c, o);
  detail::read_rnn_fields(c, o);
  auto layer = std::make_shared<LSTMLayer>(c.at("units").get<int64_t>(), o);
  layer->set_zero_output_for_mask(c.value("zero_output_for_mask", false));
  return layer;
}

LayerPtr<LSTMLayer> LSTM(int64_t units, LSTMOptions options) {
  return make_layer<LSTMLayer>(units, std::move(options));
}

}  // namespace keras::layers

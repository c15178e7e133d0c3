#include "keras/layers/rnn/gru.h"

#include "keras/ops/ops.h"
#include "layers/rnn/cell_utils.h"
#include "layers/rnn/recurrent_ops.h"

namespace keras::layers {

// ---- GRUCell ---------------------------------------------------------------------------------

GRUCellLayer::GRUCellLayer(int64_t units, GRUCellOptions options)
    : RecurrentCell(base_options(options), "gru_cell"),
      units_(units),
      options_(std::move(options)),
      seed_generator_(detail::generator_seed(options_.seed)) {
  check(units > 0, "GRUCell: units must be a positive integer; got ", units, ".");
  options_.dropout = detail::clip01(options_.dropout);
  options_.recurrent_dropout = detail::clip01(options_.recurrent_dropout);
}

void GRUCellLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 1 && input_shape.back() > 0, "GRUCell '", name(),
        "': the last axis of the input must be known; got input shape ",
        shape_string(input_shape), ".");
  kernel_ = add_weight({.shape = {input_shape.back(), 3 * units_},
                        .initializer = options_.kernel_initializer,
                        .regularizer = options_.kernel_regularizer,
                        .constraint = options_.kernel_constraint,
                        .name = "kernel"});
  recurrent_kernel_ = add_weight({.shape = {units_, 3 * units_},
                                  .initializer = options_.recurrent_initializer,
                                  .regularizer = options_.recurrent_regularizer,
                                  .constraint = options_.recurrent_constraint,
                                  .name = "recurrent_kernel"});
  if (options_.use_bias)
    // reset_after keeps separate input and recurrent biases (rows 0 and 1).
    bias_ = add_weight({.shape = options_.reset_after ? Shape{2, 3 * units_} : Shape{3 * units_},
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
}

void GRUCellLayer::begin_sequence(const Tensor& step_inputs, const TensorList& states,
                                  const CallContext& ctx) {
  end_sequence();
  if (options_.use_bias && options_.reset_after && bias_.defined())
    sequence_rec_bias_ = bias_.value()[1];
  if (!ctx.training.value_or(false)) return;
  const bool per_gate = options_.recurrent_dropout != 0.0;
  const double rate = options_.dropout, rec = options_.recurrent_dropout;
  if (rate > 0 && rate < 1)
    for (int g = 0; g < (per_gate ? 3 : 1); ++g)
      dropout_masks_.push_back(detail::dropout_mask(step_inputs, rate, seed_generator_));
  if (rec > 0 && rec < 1 && !states.empty())
    for (int g = 0; g < 3; ++g)
      recurrent_dropout_masks_.push_back(detail::dropout_mask(states[0], rec, seed_generator_));
}

void GRUCellLayer::end_sequence() {
  sequence_rec_bias_ = Tensor();
  dropout_masks_.clear();
  recurrent_dropout_masks_.clear();
}

Tensor GRUCellLayer::project_inputs(const Tensor& inputs, const CallContext&) {
  check(kernel_.defined(), "GRUCell '", name(), "' is not built.");
  check(inputs.shape().back() == kernel_.shape()[0], "GRUCell '", name(),
        "': expected inputs with last axis ", kernel_.shape()[0], "; got shape ",
        inputs.shape(), ".");
  Tensor bias;
  if (options_.use_bias) bias = options_.reset_after ? bias_.value()[0] : bias_.value();
  if (dropout_masks_.size() == 3) {
    TensorList k = ops::split(kernel_, 3, 1);
    TensorList b = bias.defined() ? ops::split(bias, 3, 0) : TensorList(3);
    TensorList parts;
    for (size_t g = 0; g < 3; ++g)
      parts.push_back(detail::project_last_axis(detail::apply_mask(inputs, dropout_masks_[g]),
                                                k[g], b[g]));
    return ops::concatenate(parts, -1);
  }
  return detail::project_last_axis(
      detail::apply_mask(inputs, dropout_masks_.empty() ? Tensor() : dropout_masks_[0]), kernel_,
      bias);
}

std::pair<Tensor, TensorList> GRUCellLayer::step(const Tensor& inputs, const TensorList& states,
                                                 const CallContext&) {
  check(states.size() == 1, "GRUCell '", name(), "' has 1 state; got ", states.size(), ".");
  const Tensor& h_prev = states[0];
  const auto& act = options_.activation;
  const auto& ra = options_.recurrent_activation;
  const bool masked = recurrent_dropout_masks_.size() == 3;
  auto h_for = [&](size_t g) {
    return masked ? ops::multiply(h_prev, recurrent_dropout_masks_[g]) : h_prev;
  };
  Tensor h;
  if (options_.reset_after) {
    // The recurrent bias row, sliced once per sequence (begin_sequence) so that its gradient
    // is gathered once.
    Tensor rec_bias = sequence_rec_bias_;
    if (options_.use_bias && !rec_bias.defined()) rec_bias = bias_.value()[1];
    Tensor hz;
    if (masked) {
      TensorList r = ops::split(recurrent_kernel_, 3, 1);
      hz = ops::concatenate({ops::matmul(h_for(0), r[0]), ops::matmul(h_for(1), r[1]),
                             ops::matmul(h_for(2), r[2])},
                            -1);
    } else {
      hz = ops::matmul(h_prev, recurrent_kernel_);
    }
    if (act.name() == "tanh" && ra.name() == "sigmoid") {
      h = detail::gru_step(inputs, hz, rec_bias, h_prev);
      return {h, {h}};
    }
    TensorList x = ops::split(inputs, 3, -1);
    TensorList r = ops::split(rec_bias.defined() ? ops::add(hz, rec_bias) : hz, 3, -1);
    Tensor z = ra(ops::add(x[0], r[0]));
    Tensor reset = ra(ops::add(x[1], r[1]));
    Tensor hh = act(ops::add(x[2], ops::multiply(reset, r[2])));
    h = ops::add(ops::multiply(z, h_prev), ops::multiply(ops::subtract(1.0, z), hh));
  } else {
    // The reset gate scales the state before the candidate's matmul.
    TensorList x = ops::split(inputs, 3, -1);
    TensorList r = ops::split(recurrent_kernel_, {2 * units_}, 1);
    Tensor z, reset;
    if (masked) {
      TensorList rz = ops::split(r[0], 2, 1);
      z = ra(ops::add(x[0], ops::matmul(h_for(0), rz[0])));
      reset = ra(ops::add(x[1], ops::matmul(h_for(1), rz[1])));
    } else {
      TensorList inner = ops::split(ops::matmul(h_prev, r[0]), 2, -1);
      z = ra(ops::add(x[0], inner[0]));
      reset = ra(ops::add(x[1], inner[1]));
    }
    Tensor hh = act(ops::add(x[2], ops::matmul(ops::multiply(reset, h_for(2)), r[1])));
    h = ops::add(ops::multiply(z, h_prev), ops::multiply(ops::subtract(1.0, z), hh));
  }
  return {h, {h}};
}

Config GRUCellLayer::get_config() const {
  Config c = Layer::get_config();
  c["units"] = units_;
  detail::write_cell_config(c, options_);
  c["seed"] = detail::seed_config(options_.seed);
  return c;
}

std::shared_ptr<Layer> GRUCellLayer::from_config(const Config& c) {
  GRUCellOptions o;
  detail::read_cell_config(c, o);
  return std::make_shared<GRUCellLayer>(c.at("units").get<int64_t>(), o);
}

LayerPtr<GRUCellLayer> GRUCell(int64_t units, GRUCellOptions options) {
  return make_layer<GRUCellLayer>(units, std::move(options));
}

// ---- GRU -------------------------------------------------------------------------------------

namespace {

std::shared_ptr<RecurrentCell> make_gru_cell(int64_t units, const GRUOptions& o) {
  check(units > 0, "GRU: units must be a positive integer; got ", units, ".");
  check(o.use_cudnn == "auto" || o.use_cudnn == "true" || o.use_cudnn == "false",
        "GRU: use_cudnn must be \"auto\", \"true\" or \"false\"; got \"", o.use_cudnn, "\".");
  return std::make_shared<GRUCellLayer>(
      units, GRUCellOptions{.activation = o.activation,
                            .recurrent_activation = o.recurrent_activation,
                            .use_bias = o.use_bias,
                            .kernel_initializer = o.kernel_initializer,
                            .recurrent_initializer = o.recurrent_initializer,
                            .bias_initializer = o.bias_initializer,
                            .kernel_regularizer = o.kernel_regularizer,
                            .recurrent_regularizer = o.recurrent_regularizer,
                            .bias_regularizer = o.bias_regularizer,
                            .kernel_constraint = o.kernel_constraint,
                            .recurrent_constraint = o.recurrent_constraint,
                            .bias_constraint = o.bias_constraint,
                            .dropout = o.dropout,
                            .recurrent_dropout = o.recurrent_dropout,
                            .reset_after = o.reset_after,
                            .seed = o.seed,
                            .name = "gru_cell",
                            .trainable = o.trainable,
                            .dtype = o.dtype});
}

}  // namespace

GRULayer::GRULayer(int64_t units, GRUOptions options)
    : RNNLayer(make_gru_cell(units, options), detail::rnn_options_of(options), "gru") {}

GRUCellLayer& GRULayer::gru_cell() const { return static_cast<GRUCellLayer&>(*cell()); }

void GRULayer::build(const Shape& input_shape) {
  check(input_shape.rank() == 3, "GRU '", name(),
        "': expected inputs of shape (batch, timesteps, features); got ",
        shape_string(input_shape), ".");
  RNNLayer::build(input_shape);
}

Config GRULayer::get_config() const {
  Config c = rnn_config();
  const GRUCellLayer& cell = gru_cell();
  c["units"] = cell.units();
  detail::write_cell_config(c, cell.options());
  c["activity_regularizer"] = regularizers::serialize(rnn_options().activity_regularizer.get());
  c["seed"] = detail::seed_config(cell.options().seed);
  return c;
}

std::shared_ptr<Layer> GRULayer::from_config(const Config& c) {
  GRUOptions o;
  detail::read_cell_config(c, o);
  detail::read_rnn_fields(c, o);
  auto layer = std::make_shared<GRULayer>(c.at("units").get<int64_t>(), o);
  layer->set_zero_output_for_mask(c.value("zero_output_for_mask", false));
  return layer;
}

LayerPtr<GRULayer> GRU(int64_t units, GRUOptions options) {
  return make_layer<GRULayer>(units, std::move(options));
}

}  // namespace keras::layers

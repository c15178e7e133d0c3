#include "keras/layers/rnn/simple_rnn.h"

#include "keras/ops/ops.h"
#include "layers/rnn/cell_utils.h"

namespace keras::layers {

// ---- SimpleRNNCell ---------------------------------------------------------------------------

SimpleRNNCellLayer::SimpleRNNCellLayer(int64_t units, SimpleRNNCellOptions options)
    : RecurrentCell(base_options(options), "simple_rnn_cell"),
      units_(units),
      options_(std::move(options)),
      seed_generator_(detail::generator_seed(options_.seed)) {
  check(units > 0, "SimpleRNNCell: units must be a positive integer; got ", units, ".");
  options_.dropout = detail::clip01(options_.dropout);
  options_.recurrent_dropout = detail::clip01(options_.recurrent_dropout);
}

void SimpleRNNCellLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 1 && input_shape.back() > 0, "SimpleRNNCell '", name(),
        "': the last axis of the input must be known; got input shape ",
        shape_string(input_shape), ".");
  kernel_ = add_weight({.shape = {input_shape.back(), units_},
                        .initializer = options_.kernel_initializer,
                        .regularizer = options_.kernel_regularizer,
                        .constraint = options_.kernel_constraint,
                        .name = "kernel"});
  recurrent_kernel_ = add_weight({.shape = {units_, units_},
                                  .initializer = options_.recurrent_initializer,
                                  .regularizer = options_.recurrent_regularizer,
                                  .constraint = options_.recurrent_constraint,
                                  .name = "recurrent_kernel"});
  if (options_.use_bias)
    bias_ = add_weight({.shape = {units_},
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
}

void SimpleRNNCellLayer::begin_sequence(const Tensor& step_inputs, const TensorList& states,
                                        const CallContext& ctx) {
  end_sequence();
  if (!ctx.training.value_or(false)) return;
  if (options_.dropout > 0)
    dropout_mask_ = detail::dropout_mask(step_inputs, options_.dropout, seed_generator_);
  if (options_.recurrent_dropout > 0 && !states.empty())
    recurrent_dropout_mask_ =
        detail::dropout_mask(states[0], options_.recurrent_dropout, seed_generator_);
}

void SimpleRNNCellLayer::end_sequence() {
  dropout_mask_ = Tensor();
  recurrent_dropout_mask_ = Tensor();
}

Tensor SimpleRNNCellLayer::project_inputs(const Tensor& inputs, const CallContext&) {
  check(kernel_.defined(), "SimpleRNNCell '", name(), "' is not built.");
  check(inputs.shape().back() == kernel_.shape()[0], "SimpleRNNCell '", name(),
        "': expected inputs with last axis ", kernel_.shape()[0], "; got shape ",
        inputs.shape(), ".");
  return detail::project_last_axis(detail::apply_mask(inputs, dropout_mask_), kernel_,
                                   options_.use_bias ? bias_.value() : Tensor());
}

std::pair<Tensor, TensorList> SimpleRNNCellLayer::step(const Tensor& inputs,
                                                       const TensorList& states,
                                                       const CallContext&) {
  check(states.size() == 1, "SimpleRNNCell '", name(), "' has 1 state; got ", states.size(),
        ".");
  Tensor prev = detail::apply_mask(states[0], recurrent_dropout_mask_);
  Tensor out = options_.activation(ops::add(inputs, ops::matmul(prev, recurrent_kernel_)));
  return {out, {out}};
}

Config SimpleRNNCellLayer::get_config() const {
  Config c = Layer::get_config();
  c["units"] = units_;
  detail::write_cell_config(c, options_);
  c["seed"] = detail::seed_config(options_.seed);
  return c;
}

std::shared_ptr<Layer> SimpleRNNCellLayer::from_config(const Config& c) {
  SimpleRNNCellOptions o;
  detail::read_cell_config(c, o);
  return std::make_shared<SimpleRNNCellLayer>(c.at("units").get<int64_t>(), o);
}

LayerPtr<SimpleRNNCellLayer> SimpleRNNCell(int64_t units, SimpleRNNCellOptions options) {
  return make_layer<SimpleRNNCellLayer>(units, std::move(options));
}

// ---- SimpleRNN -------------------------------------------------------------------------------

namespace {

std::shared_ptr<RecurrentCell> make_simple_cell(int64_t units, const SimpleRNNOptions& o) {
  check(units > 0, "SimpleRNN: units must be a positive integer; got ", units, ".");
  return std::make_shared<SimpleRNNCellLayer>(
      units, SimpleRNNCellOptions{.activation = o.activation,
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
                                  .seed = o.seed,
                                  .name = "simple_rnn_cell",
                                  .trainable = o.trainable,
                                  .dtype = o.dtype});
}

}  // namespace

SimpleRNNLayer::SimpleRNNLayer(int64_t units, SimpleRNNOptions options)
    : RNNLayer(make_simple_cell(units, options), detail::rnn_options_of(options), "simple_rnn") {}

SimpleRNNCellLayer& SimpleRNNLayer::simple_cell() const {
  return static_cast<SimpleRNNCellLayer&>(*cell());
}

void SimpleRNNLayer::build(const Shape& input_shape) {
  check(input_shape.rank() == 3, "SimpleRNN '", name(),
        "': expected inputs of shape (batch, timesteps, features); got ",
        shape_string(input_shape), ".");
  RNNLayer::build(input_shape);
}

Config SimpleRNNLayer::get_config() const {
  Config c = rnn_config();
  const SimpleRNNCellLayer& cell = simple_cell();
  c["units"] = cell.units();
  detail::write_cell_config(c, cell.options());
  c["activity_regularizer"] = regularizers::serialize(rnn_options().activity_regularizer.get());
  return c;
}

std::shared_ptr<Layer> SimpleRNNLayer::from_config(const Config& c) {
  SimpleRNNOptions o;
  detail::read_cell_config(c, o);
  detail::read_rnn_fields(c, o);
  auto layer = std::make_shared<SimpleRNNLayer>(c.at("units").get<int64_t>(), o);
  layer->set_zero_output_for_mask(c.value("zero_output_for_mask", false));
  return layer;
}

LayerPtr<SimpleRNNLayer> SimpleRNN(int64_t units, SimpleRNNOptions options) {
  return make_layer<SimpleRNNLayer>(units, std::move(options));
}

}  // namespace keras::layers

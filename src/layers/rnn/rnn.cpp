#include "keras/layers/rnn/rnn.h"

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/backend/trace_hook.h"
#include "keras/layers/registry.h"
#include "keras/layers/rnn/lstm.h"
#include "keras/layers/rnn/stacked_rnn_cells.h"
#include "keras/ops/ops.h"
#include "layers/rnn/cell_utils.h"
#include "layers/rnn/lstm_sequence.h"
#include "layers/rnn/sequence_views.h"

namespace keras::layers {
namespace {

// Ends a cell's pass over a sequence however the pass ends.
struct SequenceGuard {
  RecurrentCell& cell;
  ~SequenceGuard() { cell.end_sequence(); }
};

// A (batch, 1) boolean mask column reshaped to broadcast against a tensor of rank `rank`.
Tensor mask_for(const Tensor& m, int rank) {
  if (rank <= 2) return m;
  Shape s = m.shape();
  while (s.rank() < rank) s.push_back(1);
  return ops::reshape(m, s);
}

// An LSTM cell with the default activations and no recurrent dropout (whose masks change each
// step's h) runs the whole sequence as one op (lstm_sequence.h) where the fused loops run for
// these tensors. GRU keeps its fused steps: a sequence op written the same way trained a GRU of
// the benchmark LSTM's shapes 4% slower than the compiled steps (9% faster than the eager
// ones), and compiled is the default.
bool fused_sequence_fits(const RecurrentCell& cell, const Tensor& x, const TensorList& states,
                         bool training) {
  const auto* lstm = dynamic_cast<const LSTMCellLayer*>(&cell);
  if (!lstm || states.size() != 2 || !detail::fused_rnn_enabled(x)) return false;
  for (const Tensor& s : states)
    if (!detail::sequence::same_kind(x, s)) return false;
  const LSTMCellOptions& o = lstm->options();
  return detail::default_lstm_activations(o.activation, o.recurrent_activation) &&
         !(training && o.recurrent_dropout > 0);
}

}  // namespace

// ---- RecurrentCell ---------------------------------------------------------------------------

std::vector<Shape> RecurrentCell::state_shapes(int64_t batch_size) const {
  std::vector<Shape> out;
  for (int64_t s : state_size()) out.push_back(Shape{batch_size, s});
  return out;
}

TensorList RecurrentCell::get_initial_state(int64_t batch_size) const {
  TensorList out;
  for (const Shape& s : state_shapes(batch_size)) out.push_back(ops::zeros(s, compute_dtype()));
  return out;
}

Tensor RecurrentCell::project_inputs(const Tensor& inputs, const CallContext&) { return inputs; }

void RecurrentCell::begin_sequence(const Tensor&, const TensorList&, const CallContext&) {}

void RecurrentCell::end_sequence() {}

std::pair<Tensor, TensorList> RecurrentCell::step_inputs(const Tensor& inputs,
                                                         const TensorList& states,
                                                         const CallContext& ctx) {
  return step(project_inputs(inputs, ctx), states, ctx);
}

void RecurrentCell::build_list(const std::vector<Shape>& input_shapes) {
  check(!input_shapes.empty(), "Cell '", name(), "' was built with no input shapes.");
  build(input_shapes[0]);
}

TensorList RecurrentCell::call_list(const TensorList& inputs, const CallContext& ctx) {
  check(!inputs.empty() && inputs[0].ndim() >= 2, "Cell '", name(), "' (", class_name(),
        "): expected inputs of shape (batch, features) followed by the states; got ",
        inputs.empty() ? std::string("no inputs") : shape_string(inputs[0].shape()), ".");
  Tensor x = ops::cast(inputs[0], compute_dtype());
  const int64_t batch = x.shape()[0];
  TensorList states;
  if (inputs.size() == 1) {
    states = get_initial_state(batch);
  } else {
    const std::vector<Shape> shapes = state_shapes(batch);
    check(inputs.size() - 1 == shapes.size(), "Cell '", name(), "' (", class_name(), ") has ",
          shapes.size(), " states but was called with ", inputs.size() - 1, ".");
    for (size_t i = 1; i < inputs.size(); ++i) {
      check(inputs[i].shape() == shapes[i - 1], "Cell '", name(), "': state ", i - 1,
            " must have shape ", shapes[i - 1], "; got ", inputs[i].shape(), ".");
      states.push_back(ops::cast(inputs[i], compute_dtype()));
    }
  }
  begin_sequence(x, states, ctx);
  SequenceGuard guard{*this};
  auto [output, new_states] = step_inputs(x, states, ctx);
  TensorList out{output};
  out.insert(out.end(), new_states.begin(), new_states.end());
  return out;
}

// ---- RNN -------------------------------------------------------------------------------------

RNNLayer::RNNLayer(std::shared_ptr<RecurrentCell> cell, RNNOptions options,
                   std::string default_name)
    : Layer(base_options(options), std::move(default_name)),
      cell_(std::move(cell)),
      options_(std::move(options)) {
  check(static_cast<bool>(cell_), "RNN '", name(),
        "': `cell` must be a recurrent cell (a RecurrentCell such as LSTMCell); got none.");
  check(!cell_->state_size().empty(), "RNN '", name(), "': the cell '", cell_->name(),
        "' has no states (state_size is empty).");
  set_supports_masking(true);
  set_activity_regularizer(options_.activity_regularizer);
  track_layer("cell", cell_);
}

void RNNLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 3, class_name(), " '", name(),
        "': expected inputs of shape (batch, timesteps, features); got ",
        shape_string(input_shape), ".");
  check(!(options_.unroll && input_shape[1] < 0), class_name(), " '", name(),
        "': cannot unroll an RNN whose number of timesteps is unknown (input shape ",
        shape_string(input_shape), "). Give the Input a fixed number of timesteps.");
  Shape step_shape{input_shape[0]};
  for (int d = 2; d < input_shape.rank(); ++d) step_shape.push_back(input_shape[d]);
  cell_->ensure_built({step_shape}, false);
  if (options_.stateful) {
    check(input_shape[0] >= 0, class_name(), " '", name(),
          "': a stateful RNN needs a fixed batch size; got input shape ",
          shape_string(input_shape),
          ". Give the Input a batch_size (or call the layer on data first).");
    expected_batch_ = input_shape[0];
    backend::BackendScope real(backend::current_real().name());
    NoGradScope no_grad;
    states_ = cell_->get_initial_state(expected_batch_);
  }
}

void RNNLayer::build_list(const std::vector<Shape>& input_shapes) {
  check(!input_shapes.empty(), class_name(), " '", name(), "' was built with no inputs.");
  build(input_shapes[0]);
}

TensorList RNNLayer::call_list(const TensorList& inputs, const CallContext& ctx) {
  check(!inputs.empty(), class_name(), " '", name(), "' was called with no inputs.");
  check(inputs[0].ndim() >= 3, class_name(), " '", name(),
        "': expected inputs of shape (batch, timesteps, features); got shape ",
        inputs[0].shape(), ".");
  Tensor x = ops::cast(inputs[0], compute_dtype());
  const int64_t batch = x.shape()[0], timesteps = x.shape()[1];
  check(timesteps > 0, class_name(), " '", name(),
        "': the inputs need at least one timestep; got shape ", x.shape(), ".");
  const bool symbolic = x.backend().is_symbolic();

  TensorList states;
  if (inputs.size() > 1) {
    const std::vector<Shape> shapes = cell_->state_shapes(batch);
    check(inputs.size() - 1 == shapes.size(), class_name(), " '", name(), "' has ",
          shapes.size(), " states, but ", inputs.size() - 1,
          " initial states were passed (after the sequence).");
    for (size_t i = 1; i < inputs.size(); ++i) {
      check(inputs[i].shape() == shapes[i - 1], class_name(), " '", name(),
            "': initial state ", i - 1, " must have shape ", shapes[i - 1], "; got ",
            inputs[i].shape(), ".");
      states.push_back(ops::cast(inputs[i], cell_->compute_dtype()));
    }
  } else if (options_.stateful) {
    check(batch == expected_batch_, class_name(), " '", name(),
          "' is stateful with batch size ", expected_batch_,
          ": the input sequences must have that batch size; got shape ", x.shape(), ".");
    states = states_;
  } else {
    states = cell_->get_initial_state(batch);
  }

  Tensor mask = ctx.mask.defined() ? ctx.mask : (!ctx.masks.empty() ? ctx.masks[0] : Tensor());
  TensorList step_masks;
  if (mask.defined()) {
    if (mask.ndim() == 3 && mask.shape()[2] == 1) mask = ops::squeeze(mask, 2);
    check(mask.ndim() == 2 && mask.shape()[0] == batch && mask.shape()[1] == timesteps,
          class_name(), " '", name(), "': the mask must have shape (batch, timesteps) = (",
          batch, ", ", timesteps, "); got ", mask.shape(), ".");
    step_masks = ops::unstack(ops::expand_dims(ops::cast(mask, DType::Bool), -1), timesteps, 1);
  }

  cell_->begin_sequence(ops::moveaxis(x, 1, 0)[0], states, ctx);
  SequenceGuard guard{*cell_};
  // The work every timestep shares (the input projection) runs once on the whole sequence.
  // For a fused sequence it is time-major (timesteps, batch, n), so that the rows of one step
  // follow each other (batch-major, they lie `timesteps` rows apart, often a multiple of 4 KiB:
  // time-major trained the benchmark LSTM 10% faster). Projecting the time-major input needs no
  // transposed copy of the projection, except where input dropout masks (per batch row) apply.
  const bool training = ctx.training.value_or(false);
  const bool time_major = !mask.defined() && fused_sequence_fits(*cell_, x, states, training);
  Tensor projected;
  if (!time_major)
    projected = cell_->project_inputs(x, ctx);
  else if (training && static_cast<const LSTMCellLayer&>(*cell_).options().dropout > 0)
    projected = ops::moveaxis(cell_->project_inputs(x, ctx), 1, 0);  // masks per batch row
  else
    projected = cell_->project_inputs(ops::moveaxis(x, 1, 0), ctx);
  const bool keep_all = options_.return_sequences;
  Tensor output;
  std::optional<detail::LstmSequence> fused;
  if (time_major)
    fused = detail::lstm_sequence(projected,
                                  static_cast<const LSTMCellLayer&>(*cell_).recurrent_kernel(),
                                  states[0], states[1], options_.go_backwards);
  if (fused) {
    states = {fused->h, fused->c};
    output = keep_all ? ops::moveaxis(fused->outputs, 0, 1) : fused->h;
  } else {
    TensorList steps = ops::unstack(projected, timesteps, time_major ? 0 : 1);
    TensorList outputs;
    if (keep_all) outputs.reserve(static_cast<size_t>(timesteps));
    Tensor last, previous;
    for (int64_t k = 0; k < timesteps; ++k) {
      const int64_t t = options_.go_backwards ? timesteps - 1 - k : k;
      auto [out, next] = cell_->step(steps[static_cast<size_t>(t)], states, ctx);
      check(next.size() == states.size(), "Cell '", cell_->name(), "' returned ", next.size(),
            " states from a step; it has ", states.size(), ".");
      if (!step_masks.empty()) {
        // Masked timesteps keep the previous states, and the previous output (or zeros).
        const Tensor& m = step_masks[static_cast<size_t>(t)];
        Tensor m_out = mask_for(m, out.ndim());
        if (options_.zero_output_for_mask)
          out = ops::where(m_out, out, 0.0);
        else
          out = ops::where(m_out, out, previous.defined() ? previous : ops::zeros_like(out));
        for (size_t s = 0; s < next.size(); ++s)
          next[s] = ops::where(mask_for(m, next[s].ndim()), next[s], states[s]);
        previous = out;
      }
      states = std::move(next);
      if (keep_all) outputs.push_back(out);
      last = out;
    }
    output = keep_all ? ops::stack(outputs, 1) : last;
  }

  if (options_.stateful && !symbolic) {
    // The states are tensors of this layer, not variables: a compiled step could not update
    // them, so a step with a stateful RNN runs eagerly.
    backend::mark_untraceable("it keeps a stateful RNN's states, which are not variables");
    NoGradScope no_grad;
    for (size_t s = 0; s < states.size(); ++s) states_[s] = ops::stop_gradient(states[s]);
  }
  TensorList result{ops::cast(output, compute_dtype())};
  if (options_.return_state)
    for (const Tensor& s : states) result.push_back(ops::cast(s, compute_dtype()));
  return result;
}

Tensor RNNLayer::compute_mask(const Tensor&, const Tensor& mask) const {
  return options_.return_sequences ? mask : Tensor();
}

TensorList RNNLayer::compute_mask_list(const TensorList&, const TensorList& masks) const {
  TensorList out{options_.return_sequences && !masks.empty() ? masks[0] : Tensor()};
  if (options_.return_state) out.resize(1 + cell_->state_size().size());
  return out;
}

void RNNLayer::reset_state() {
  NoGradScope no_grad;
  for (Tensor& s : states_) s = ops::zeros_like(s);
}

void RNNLayer::reset_state(const TensorList& values) {
  check(options_.stateful, class_name(), " '", name(),
        "': reset_state(values) needs a stateful layer.");
  check(!states_.empty(), class_name(), " '", name(),
        "' has no states yet: build it (call it once) before setting them.");
  check(values.size() == states_.size(), class_name(), " '", name(), "' has ", states_.size(),
        " states; reset_state got ", values.size(), " values.");
  for (size_t i = 0; i < values.size(); ++i)
    check(values[i].shape() == states_[i].shape(), class_name(), " '", name(), "': state ", i,
          " has shape ", states_[i].shape(), "; the value has shape ", values[i].shape(), ".");
  NoGradScope no_grad;
  for (size_t i = 0; i < values.size(); ++i)
    states_[i] = ops::cast(ops::stop_gradient(values[i]), states_[i].dtype());
}

Config RNNLayer::rnn_config() const {
  Config c = Layer::get_config();
  c["return_sequences"] = options_.return_sequences;
  c["return_state"] = options_.return_state;
  c["go_backwards"] = options_.go_backwards;
  c["stateful"] = options_.stateful;
  c["unroll"] = options_.unroll;
  c["zero_output_for_mask"] = options_.zero_output_for_mask;
  return c;
}

Config RNNLayer::get_config() const {
  Config c = rnn_config();
  c["cell"] = serialize(*cell_);
  return c;
}

RNNOptions read_rnn_options(const Config& c) {
  RNNOptions o;
  read_base_config(c, o);
  o.return_sequences = c.value("return_sequences", false);
  o.return_state = c.value("return_state", false);
  o.go_backwards = c.value("go_backwards", false);
  o.stateful = c.value("stateful", false);
  o.unroll = c.value("unroll", false);
  o.zero_output_for_mask = c.value("zero_output_for_mask", false);
  if (c.contains("activity_regularizer"))
    o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  return o;
}

std::shared_ptr<Layer> RNNLayer::from_config(const Config& c) {
  check(c.contains("cell"), "RNN.from_config: the config has no 'cell'.");
  std::shared_ptr<Layer> layer;
  const Config& cell = c["cell"];
  if (cell.is_array()) {
    // A list of cell records (older configs): stacked.
    std::vector<std::shared_ptr<RecurrentCell>> cells;
    for (const Config& item : cell) {
      auto one = std::dynamic_pointer_cast<RecurrentCell>(deserialize(item));
      check(static_cast<bool>(one), "RNN.from_config: ", item.dump(),
            " is not a recurrent cell.");
      cells.push_back(one);
    }
    return std::make_shared<RNNLayer>(StackedRNNCells(std::move(cells)), read_rnn_options(c));
  }
  auto one = std::dynamic_pointer_cast<RecurrentCell>(deserialize(cell));
  check(static_cast<bool>(one), "RNN.from_config: the cell ", cell.dump(),
        " is not a recurrent cell (a RecurrentCell subclass).");
  return std::make_shared<RNNLayer>(one, read_rnn_options(c));
}

LayerPtr<RNNLayer> RNN(std::shared_ptr<RecurrentCell> cell, RNNOptions options) {
  return make_layer<RNNLayer>(std::move(cell), std::move(options));
}

LayerPtr<RNNLayer> RNN(const std::vector<std::shared_ptr<RecurrentCell>>& cells,
                       RNNOptions options) {
  return make_layer<RNNLayer>(StackedRNNCells(cells), std::move(options));
}

}  // namespace keras::layers

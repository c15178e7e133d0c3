#include "keras/layers/rnn/bidirectional.h"

#include "keras/layers/registry.h"
#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

std::string without_prefix(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

// A fresh layer from `layer`'s config, renamed (and run backwards when asked).
std::shared_ptr<RNNLayer> copy_layer(const RNNLayer& layer, const std::string& name,
                                     bool go_backwards) {
  Config record = serialize(layer);
  record["config"]["name"] = name;
  if (go_backwards) record["config"]["go_backwards"] = true;
  auto copy = std::dynamic_pointer_cast<RNNLayer>(deserialize(record));
  check(static_cast<bool>(copy), "Bidirectional: the config of '", layer.name(),
        "' did not give back a recurrent layer.");
  return copy;
}

const char* const kMergeModes[] = {"concat", "sum", "mul", "ave", "none"};

}  // namespace

BidirectionalLayer::BidirectionalLayer(const std::shared_ptr<RNNLayer>& layer,
                                       BidirectionalOptions options)
    : Layer(base_options(options), "bidirectional"), merge_mode_(options.merge_mode) {
  check(static_cast<bool>(layer), "Bidirectional '", name(),
        "': `layer` must be a recurrent layer (RNN, LSTM, GRU, SimpleRNN); got none.");
  bool known = false;
  for (const char* m : kMergeModes) known = known || merge_mode_ == m;
  check(known, "Bidirectional '", name(), "': invalid merge_mode \"", merge_mode_,
        "\". Expected one of \"concat\", \"sum\", \"mul\", \"ave\", \"none\" (Keras's None).");
  forward_ = copy_layer(*layer, "forward_" + without_prefix(layer->name(), "forward_"), false);
  backward_ = options.backward_layer
                  ? options.backward_layer
                  : copy_layer(*layer, "backward_" + without_prefix(layer->name(), "backward_"),
                               true);
  check(forward_->go_backwards() != backward_->go_backwards(), "Bidirectional '", name(),
        "': the forward and backward layers must have different go_backwards; got ",
        forward_->go_backwards(), " for both.");
  check(forward_->stateful() == backward_->stateful() &&
            forward_->return_sequences() == backward_->return_sequences() &&
            forward_->return_state() == backward_->return_state(),
        "Bidirectional '", name(),
        "': the forward and backward layers must agree on stateful, return_sequences and "
        "return_state; got (",
        forward_->stateful(), ", ", forward_->return_sequences(), ", ", forward_->return_state(),
        ") and (", backward_->stateful(), ", ", backward_->return_sequences(), ", ",
        backward_->return_state(), ").");
  // Masked timesteps give zeros in the output sequences, so the two directions merge cleanly.
  forward_->set_zero_output_for_mask(forward_->return_sequences());
  backward_->set_zero_output_for_mask(backward_->return_sequences());
  set_supports_masking(true);
  track_layer("forward_layer", forward_);
  track_layer("backward_layer", backward_);
}

void BidirectionalLayer::build(const Shape& input_shape) {
  forward_->ensure_built({input_shape}, false);
  backward_->ensure_built({input_shape}, false);
}

void BidirectionalLayer::build_list(const std::vector<Shape>& input_shapes) {
  check(!input_shapes.empty(), "Bidirectional '", name(), "' was built with no inputs.");
  build(input_shapes[0]);
}

TensorList BidirectionalLayer::call_list(const TensorList& inputs, const CallContext& ctx) {
  check(!inputs.empty(), "Bidirectional '", name(), "' was called with no inputs.");
  TensorList fw_in{inputs[0]}, bw_in{inputs[0]};
  if (inputs.size() > 1) {
    const size_t n = inputs.size() - 1;
    check(n % 2 == 0, "Bidirectional '", name(), "': initial states come in two halves ",
          "(forward, then backward); got ", n, " states.");
    fw_in.insert(fw_in.end(), inputs.begin() + 1, inputs.begin() + 1 + n / 2);
    bw_in.insert(bw_in.end(), inputs.begin() + 1 + n / 2, inputs.end());
  }
  CallContext sub;
  sub.training = ctx.training;
  sub.mask = ctx.mask.defined() ? ctx.mask : (!ctx.masks.empty() ? ctx.masks[0] : Tensor());
  TensorList y = (*forward_)(fw_in, sub);
  TensorList y_rev = (*backward_)(bw_in, sub);
  TensorList states(y.begin() + 1, y.end());
  states.insert(states.end(), y_rev.begin() + 1, y_rev.end());
  Tensor a = ops::cast(y[0], compute_dtype());
  Tensor b = ops::cast(y_rev[0], compute_dtype());
  // The backward layer's sequence runs from the last timestep: align it with the forward one.
  if (return_sequences()) b = ops::flip(b, 1);
  TensorList out;
  if (merge_mode_ == "concat") out = {ops::concatenate({a, b}, -1)};
  else if (merge_mode_ == "sum") out = {ops::add(a, b)};
  else if (merge_mode_ == "ave") out = {ops::divide(ops::add(a, b), 2.0)};
  else if (merge_mode_ == "mul") out = {ops::multiply(a, b)};
  else out = {a, b};
  out.insert(out.end(), states.begin(), states.end());
  return out;
}

Tensor BidirectionalLayer::compute_mask(const Tensor&, const Tensor& mask) const {
  return return_sequences() ? mask : Tensor();
}

TensorList BidirectionalLayer::compute_mask_list(const TensorList&,
                                                 const TensorList& masks) const {
  Tensor m = return_sequences() && !masks.empty() ? masks[0] : Tensor();
  TensorList out{m};
  if (merge_mode_ == "none") out.push_back(m);
  if (return_state()) out.resize(out.size() + 2 * forward_->state_size().size());
  return out;
}

void BidirectionalLayer::reset_state() {
  check(stateful(), "Bidirectional '", name(), "': reset_state needs stateful layers.");
  forward_->reset_state();
  backward_->reset_state();
}

Config BidirectionalLayer::get_config() const {
  Config c = Layer::get_config();
  c["merge_mode"] = merge_mode_ == "none" ? Config(nullptr) : Config(merge_mode_);
  c["layer"] = serialize(*forward_);
  c["backward_layer"] = serialize(*backward_);
  return c;
}

std::shared_ptr<Layer> BidirectionalLayer::from_config(const Config& c) {
  check(c.contains("layer"), "Bidirectional.from_config: the config has no 'layer'.");
  auto layer = std::dynamic_pointer_cast<RNNLayer>(deserialize(c["layer"]));
  check(static_cast<bool>(layer), "Bidirectional.from_config: 'layer' is not a recurrent layer.");
  BidirectionalOptions o;
  read_base_config(c, o);
  if (c.contains("merge_mode"))
    o.merge_mode = c["merge_mode"].is_null() ? "none" : c["merge_mode"].get<std::string>();
  if (c.contains("backward_layer") && !c["backward_layer"].is_null()) {
    o.backward_layer = std::dynamic_pointer_cast<RNNLayer>(deserialize(c["backward_layer"]));
    check(static_cast<bool>(o.backward_layer),
          "Bidirectional.from_config: 'backward_layer' is not a recurrent layer.");
  }
  return std::make_shared<BidirectionalLayer>(layer, o);
}

LayerPtr<BidirectionalLayer> Bidirectional(const std::shared_ptr<RNNLayer>& layer,
                                           BidirectionalOptions options) {
  return make_layer<BidirectionalLayer>(layer, std::move(options));
}

}  // namespace keras::layers

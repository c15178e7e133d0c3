#include "keras/layers/attention/multi_head_attention_base.h"

#include <algorithm>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/attention/attention_utils.h"

namespace keras::layers {

// ---- call flags ------------------------------------------------------------------------------

namespace detail {
namespace {

std::vector<std::pair<const Layer*, AttentionFlags>>& open_scopes() {
  thread_local std::vector<std::pair<const Layer*, AttentionFlags>> scopes;
  return scopes;
}

}  // namespace

AttentionCallFlags::Scope::Scope(const Layer* layer, AttentionFlags flags) {
  open_scopes().emplace_back(layer, flags);
}

AttentionCallFlags::Scope::~Scope() { open_scopes().pop_back(); }

void AttentionCallFlags::record(const std::shared_ptr<Node>& node, AttentionFlags flags) {
  std::erase_if(records_, [](const auto& r) { return r.first.expired(); });
  records_.emplace_back(node, flags);
}

AttentionFlags AttentionCallFlags::recorded(const Node* node) const {
  AttentionFlags f;
  for (const auto& [weak, flags] : records_)
    if (weak.lock().get() == node) f = flags;
  return f;
}

AttentionFlags AttentionCallFlags::current(const Layer& layer) const {
  const auto& scopes = open_scopes();
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (it->first == &layer) return it->second;
  // A bare symbolic list call records no arguments: the defaults.
  if (&backend::current() != &backend::current_real()) return AttentionFlags{};
  // A bare list call: a Functional model replaying one of this layer's symbolic calls (its
  // Node does not carry keyword arguments), or a direct call.
  std::optional<AttentionFlags> found;
  for (const auto& node : layer.inbound_nodes()) {
    AttentionFlags f;
    for (const auto& [weak, flags] : records_)
      if (weak.lock() == node) f = flags;
    if (found && !(*found == f))
      throw NotImplementedError(
          "Layer '" + layer.name() + "' (" + layer.class_name() +
          ") was called symbolically with different return_attention_scores / use_causal_mask "
          "arguments; a model cannot replay them separately yet (its nodes do not record call "
          "arguments). Use one layer per set of arguments, or call_with() with explicit "
          "arguments.");
    found = f;
  }
  return found.value_or(AttentionFlags{});
}

}  // namespace detail

// ---- MultiHeadAttentionBase ----------------------------------------------------------------

MultiHeadAttentionBase::MultiHeadAttentionBase(LayerOptions options, std::string default_name)
    : Layer(std::move(options), std::move(default_name)) {
  set_supports_masking(true);
}

void MultiHeadAttentionBase::build(const Shape& input_shape) {
  throw ValueError(class_name() + " '" + name() + "' needs a query and a value; got a single "
                   "input of shape " + shape_string(input_shape) +
                   ". Call it as layer(query, value), layer->call_with(query, value, {...}) or "
                   "with a list [query, value(, key(, attention_mask))].");
}

TensorList MultiHeadAttentionBase::call_with(const Tensor& query, const Tensor& value,
                                             const MultiHeadAttentionCall& args) {
  check(query.defined() && value.defined(), class_name(), " '", name(),
        "': query and value must be defined tensors.");
  const bool has_key = args.key.defined();
  TensorList inputs{query, value, has_key ? args.key : value};
  if (args.attention_mask.defined()) inputs.push_back(args.attention_mask);
  CallContext ctx;
  ctx.training = args.training;
  // Explicit masks win over the attached ones (Keras fills the *_mask arguments from the
  // inputs' masks when they are not given).
  ctx.masks = {args.query_mask.defined() ? args.query_mask : detail::attached_mask(query),
               args.value_mask.defined() ? args.value_mask : detail::attached_mask(value),
               args.key_mask.defined() ? args.key_mask
                                       : (has_key ? detail::attached_mask(args.key) : Tensor())};
  if (inputs.size() == 4) ctx.masks.push_back(Tensor());
  detail::AttentionCallFlags::Scope scope(
      this, {args.return_attention_scores, args.use_causal_mask});
  return Layer::operator()(inputs, ctx);
}

std::vector<KerasTensor> MultiHeadAttentionBase::call_with(
    const KerasTensor& query, const KerasTensor& value, const SymbolicMultiHeadAttentionCall& args) {
  check(query.defined() && value.defined(), class_name(), " '", name(),
        "': query and value must be defined KerasTensors.");
  std::vector<KerasTensor> inputs{query, value, args.key.defined() ? args.key : value};
  if (args.attention_mask.defined()) inputs.push_back(args.attention_mask);
  CallContext ctx;
  ctx.training = args.training;
  detail::AttentionFlags flags{args.return_attention_scores, args.use_causal_mask};
  std::vector<KerasTensor> out;
  {
    detail::AttentionCallFlags::Scope scope(this, flags);
    out = Layer::operator()(inputs, ctx);
  }
  flags_.record(out.at(0).node(), flags);
  return out;
}

Tensor MultiHeadAttentionBase::operator()(const Tensor& query, const Tensor& value,
                                          const MultiHeadAttentionCall& args) {
  check(!args.return_attention_scores, class_name(), " '", name(),
        "': layer(query, value, ...) returns the attention output alone; use "
        "call_with(query, value, {.return_attention_scores = true}) for the scores too.");
  return call_with(query, value, args).at(0);
}

KerasTensor MultiHeadAttentionBase::operator()(const KerasTensor& query, const KerasTensor& value,
                                               const SymbolicMultiHeadAttentionCall& args) {
  check(!args.return_attention_scores, class_name(), " '", name(),
        "': layer(query, value, ...) returns the attention output alone; use "
        "call_with(query, value, {.return_attention_scores = true}) for the scores too.");
  return call_with(query, value, args).at(0);
}

TensorList MultiHeadAttentionBase::compute_mask_list(const TensorList&,
                                                     const TensorList& masks) const {
  return {masks.empty() ? Tensor() : masks[0]};
}

MultiHeadAttentionBase::Inputs MultiHeadAttentionBase::unpack(const TensorList& inputs,
                                                              const CallContext& ctx) const {
  check(inputs.size() >= 2 && inputs.size() <= 4, class_name(), " '", name(),
        "' takes [query, value], [query, value, key] or [query, value, key, attention_mask]; "
        "got ", inputs.size(), " inputs.");
  Inputs in;
  in.query = ops::cast(inputs[0], compute_dtype());
  in.value = ops::cast(inputs[1], compute_dtype());
  in.key = inputs.size() > 2 ? ops::cast(inputs[2], compute_dtype()) : in.value;
  if (inputs.size() > 3) in.attention_mask = ops::cast(inputs[3], DType::Bool);
  auto mask = [&](size_t i) {
    return i < ctx.masks.size() && ctx.masks[i].defined() ? ops::cast(ctx.masks[i], DType::Bool)
                                                           : Tensor();
  };
  in.query_mask = mask(0);
  in.value_mask = mask(1);
  if (inputs.size() > 2) in.key_mask = mask(2);
  return in;
}

bool MultiHeadAttentionBase::causal_only(const Inputs& in, bool use_causal_mask,
                                         std::optional<int64_t> sliding_window) {
  return use_causal_mask && !in.query_mask.defined() && !in.value_mask.defined() &&
         !in.key_mask.defined() && !in.attention_mask.defined() && !sliding_window;
}

Tensor MultiHeadAttentionBase::merge_masks(const Inputs& in, bool use_causal_mask,
                                           std::optional<int64_t> sliding_window) const {
  Tensor mask;
  auto merge = [&](const Tensor& m) { mask = mask.defined() ? ops::logical_and(mask, m) : m; };
  if (in.query_mask.defined()) merge(ops::expand_dims(in.query_mask, -1));  // (B, T, 1)
  if (in.value_mask.defined()) merge(ops::expand_dims(in.value_mask, -2));  // (B, 1, S)
  if (in.key_mask.defined()) merge(ops::expand_dims(in.key_mask, -2));      // (B, 1, S)
  const int64_t T = in.query.ndim() > 1 ? in.query.shape()[1] : 1;
  const int64_t S = in.value.ndim() > 1 ? in.value.shape()[1] : 1;
  if (use_causal_mask) merge(detail::causal_mask(T, S));
  if (sliding_window) merge(detail::sliding_window_mask(T, S, *sliding_window));
  if (in.attention_mask.defined())
    mask = mask.defined() ? ops::logical_and(in.attention_mask, mask) : in.attention_mask;
  return mask;
}

void MultiHeadAttentionBase::check_value_key_shapes(const Shape& value_shape,
                                                    const Shape& key_shape) const {
  bool same = value_shape.rank() == key_shape.rank();
  for (int i = 1; same && i + 1 < value_shape.rank(); ++i) same = value_shape[i] == key_shape[i];
  check(same, class_name(), " '", name(),
        "': all dimensions of `value` and `key`, except the last one, must be equal. Received: "
        "value_shape=", shape_string(value_shape), " and key_shape=", shape_string(key_shape), ".");
}

}  // namespace keras::layers

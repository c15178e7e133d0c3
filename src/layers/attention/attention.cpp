#include "keras/layers/attention/attention.h"

#include "keras/layers/attention/additive_attention.h"
#include "keras/ops/ops.h"
#include "layers/attention/attention_utils.h"

namespace keras::layers {
// ---- Attention -------------------------------------------------------------------------------

AttentionLayer::AttentionLayer(AttentionOptions options)
    : AttentionLayer(std::move(options), "attention") {}

AttentionLayer::AttentionLayer(AttentionOptions options, std::string default_name)
    : Layer(base_options(options), std::move(default_name)),
      options_(std::move(options)),
      seed_generator_(detail::as_seed(options_.seed)) {
  check(options_.score_mode == "dot" || options_.score_mode == "concat", class_name(),
        ": invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
        "Received: score_mode=", options_.score_mode);
  check(options_.dropout >= 0 && options_.dropout < 1, class_name(),
        ": `dropout` must be in [0, 1); received dropout=", options_.dropout);
  set_supports_masking(true);
}

void AttentionLayer::validate(size_t num_inputs, const TensorList* masks) const {
  check(num_inputs >= 2 && num_inputs <= 3, class_name(), " layer '", name(),
        "' accepts a list of 2 or 3 inputs, namely [query, value] or [query, value, key]. "
        "Received length: ", num_inputs, ".");
  if (masks && !masks->empty())
    check(masks->size() >= 2 && masks->size() <= 3, class_name(), " layer '", name(),
          "' accepts a mask list of length 2 or 3, namely [query_mask, value_mask]. Received "
          "length: ", masks->size(), ".");
}

void AttentionLayer::build(const Shape& input_shape) {
  throw ValueError(class_name() + " layer '" + name() +
                   "' must be called on a list of inputs, namely [query, value] or [query, "
                   "value, key]. Received a single input of shape " +
                   shape_string(input_shape) + ".");
}

void AttentionLayer::build_list(const std::vector<Shape>& input_shapes) {
  validate(input_shapes.size());
  if (options_.use_scale)
    scale_ = add_weight({.shape = {}, .initializer = "ones", .name = "scale"});
  if (options_.score_mode == "concat")
    concat_score_weight_ =
        add_weight({.shape = {}, .initializer = "ones", .name = "concat_score_weight"});
}

Tensor AttentionLayer::calculate_scores(const Tensor& query, const Tensor& key) {
  if (options_.score_mode == "dot") {
    Tensor scores = ops::matmul(query, ops::swapaxes(key, -2, -1));
    return options_.use_scale ? ops::multiply(scores, scale_) : scores;
  }
  // concat: (batch, Tq, 1, dim) + (batch, 1, Tv, dim).
  Tensor sum = ops::add(ops::expand_dims(query, -2), ops::expand_dims(key, -3));
  if (options_.use_scale) sum = ops::multiply(scale_, sum);
  return ops::multiply(concat_score_weight_, ops::sum(ops::tanh(sum), -1));
}

TensorList AttentionLayer::call_list(const TensorList& inputs, const CallContext& ctx) {
  validate(inputs.size(), &ctx.masks);
  detail::AttentionFlags f = flags_.current(*this);
  const DType dtype = compute_dtype();
  Tensor query = ops::cast(inputs[0], dtype), value = ops::cast(inputs[1], dtype);
  Tensor key = inputs.size() > 2 ? ops::cast(inputs[2], dtype) : value;
  check(query.ndim() >= 2 && value.ndim() == query.ndim() && key.ndim() == query.ndim() &&
            value.shape()[value.ndim() - 2] == key.shape()[key.ndim() - 2],
        class_name(), " layer '", name(), "': expected query (batch, Tq, dim), value (batch, Tv, "
        "dim) and key (batch, Tv, dim); got shapes ", query.shape(), ", ", value.shape(), " and ",
        key.shape(), ".");
  auto mask = [&](size_t i) {
    return i < ctx.masks.size() && ctx.masks[i].defined() ? ops::cast(ctx.masks[i], DType::Bool)
                                                           : Tensor();
  };
  Tensor query_mask = mask(0), value_mask = mask(1);

  Tensor scores = calculate_scores(query, key);  // (batch, Tq, Tv)
  Tensor score_mask;
  if (value_mask.defined()) score_mask = ops::expand_dims(value_mask, -2);  // (batch, 1, Tv)
  if (f.use_causal_mask) {
    const Shape& s = scores.shape();
    Tensor causal = detail::causal_mask(s[s.rank() - 2], s[s.rank() - 1]);  // (1, Tq, Tv)
    score_mask = score_mask.defined() ? ops::logical_and(score_mask, causal) : causal;
  }
  if (score_mask.defined()) {
    // Keras biases the masked scores by -1e9 (-65504 in float16) rather than replacing them.
    const double max_value = scores.dtype() == DType::Float16 ? 65504.0 : 1.0e9;
    scores = ops::where(score_mask, scores, ops::subtract(scores, max_value));
  }
  Tensor weights = ops::softmax(scores, -1);
  if (ctx.training.value_or(false) && options_.dropout > 0)
    weights = random::dropout(weights, options_.dropout, std::nullopt, seed_generator_);
  Tensor output = ops::matmul(weights, value);
  if (query_mask.defined())
    output = ops::where(ops::expand_dims(query_mask, -1), output, 0.0);
  if (f.return_attention_scores) return {output, weights};
  return {output};
}

TensorList AttentionLayer::compute_mask_list(const TensorList& inputs,
                                             const TensorList& masks) const {
  validate(inputs.size(), &masks);
  return {masks.empty() ? Tensor() : masks[0]};
}

TensorList AttentionLayer::call_with(const TensorList& inputs, const AttentionCall& args) {
  validate(inputs.size(), &args.mask);
  CallContext ctx;
  ctx.training = args.training;
  if (!args.mask.empty()) {
    // Keras's `mask` list; an undefined entry falls back to the input's attached mask.
    for (size_t i = 0; i < inputs.size(); ++i)
      ctx.masks.push_back(i < args.mask.size() && args.mask[i].defined()
                              ? args.mask[i]
                              : detail::attached_mask(inputs[i]));
  }
  detail::AttentionCallFlags::Scope scope(this,
                                          {args.return_attention_scores, args.use_causal_mask});
  return Layer::operator()(inputs, ctx);
}

std::vector<KerasTensor> AttentionLayer::call_with(const std::vector<KerasTensor>& inputs,
                                                   const AttentionCall& args) {
  validate(inputs.size());
  check(args.mask.empty(), class_name(), " layer '", name(),
        "': a symbolic call takes no explicit masks; masks attached to the model's tensors "
        "(Embedding(mask_zero), Masking) reach the layer when the model runs.");
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

Config AttentionLayer::get_config() const {
  Config c = Layer::get_config();
  c["use_scale"] = options_.use_scale;
  c["score_mode"] = options_.score_mode;
  c["dropout"] = options_.dropout;
  c["seed"] = options_.seed ? Config(*options_.seed) : Config(nullptr);  // Keras 3.11+
  return c;
}

std::shared_ptr<Layer> AttentionLayer::from_config(const Config& c) {
  AttentionOptions o;
  read_base_config(c, o);
  o.use_scale = c.value("use_scale", false);
  o.score_mode = c.value("score_mode", std::string("dot"));
  o.dropout = c.value("dropout", 0.0);
  if (c.contains("seed") && !c["seed"].is_null()) o.seed = c["seed"].get<int64_t>();
  return std::make_shared<AttentionLayer>(o);
}

LayerPtr<AttentionLayer> Attention(AttentionOptions options) {
  return make_layer<AttentionLayer>(std::move(options));
}

// ---- AdditiveAttention -----------------------------------------------------------------------

namespace {

AttentionOptions additive_base(const AdditiveAttentionOptions& o) {
  return AttentionOptions{.use_scale = o.use_scale,
                          .score_mode = "dot",
                          .dropout = o.dropout,
                          .seed = o.seed,
                          .name = o.name,
                          .trainable = o.trainable,
                          .dtype = o.dtype};
}

}  // namespace

AdditiveAttentionLayer::AdditiveAttentionLayer(AdditiveAttentionOptions options)
    : AttentionLayer(additive_base(options), "additive_attention") {}

void AdditiveAttentionLayer::build_list(const std::vector<Shape>& input_shapes) {
  validate(input_shapes.size());
  const int64_t dim = input_shapes[0].back();
  check(dim > 0, class_name(), " layer '", name(),
        "': the last axis of the query must be known; got shape ",
        shape_string(input_shapes[0]), ".");
  if (options_.use_scale)
    scale_ = add_weight({.shape = {dim}, .initializer = "glorot_uniform", .name = "scale"});
}

Tensor AdditiveAttentionLayer::calculate_scores(const Tensor& query, const Tensor& key) {
  // (batch, Tq, 1, dim) + (batch, 1, Tv, dim).
  Tensor t = ops::tanh(ops::add(ops::expand_dims(query, -2), ops::expand_dims(key, -3)));
  if (options_.use_scale) t = ops::multiply(scale_, t);
  return ops::sum(t, -1);
}

Config AdditiveAttentionLayer::get_config() const {
  Config c = AttentionLayer::get_config();
  c.erase("score_mode");
  return c;
}

std::shared_ptr<Layer> AdditiveAttentionLayer::from_config(const Config& c) {
  AdditiveAttentionOptions o;
  read_base_config(c, o);
  o.use_scale = c.value("use_scale", true);
  o.dropout = c.value("dropout", 0.0);
  if (c.contains("seed") && !c["seed"].is_null()) o.seed = c["seed"].get<int64_t>();
  return std::make_shared<AdditiveAttentionLayer>(o);
}

LayerPtr<AdditiveAttentionLayer> AdditiveAttention(AdditiveAttentionOptions options) {
  return make_layer<AdditiveAttentionLayer>(std::move(options));
}

}  // namespace keras::layers

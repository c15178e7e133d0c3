#include "keras/layers/attention/multi_head_attention.h"

#include <cmath>
#include <numeric>

#include "keras/ops/ops.h"
#include "layers/attention/attention_utils.h"
#include "layers/attention/projection.h"

namespace keras::layers {
namespace {

constexpr const char* kMhaKind = "MultiHeadAttention";

// Keras's _get_output_shape: unknown axes, then the known trailing ones.
Shape partial_shape(int rank, const Shape& known) {
  Shape out;
  for (int i = 0; i < rank - known.rank(); ++i) out.push_back(kUnknownDim);
  for (int64_t d : known) out.push_back(d);
  return out;
}

std::vector<int64_t> int_list(const Config& c, const char* key) {
  std::vector<int64_t> out;
  if (!c.contains(key) || c[key].is_null()) return out;
  if (c[key].is_number_integer()) return {c[key].get<int64_t>()};
  for (const auto& d : c[key]) out.push_back(d.get<int64_t>());
  return out;
}

}  // namespace

MultiHeadAttentionLayer::MultiHeadAttentionLayer(int64_t num_heads, int64_t key_dim,
                                                 MultiHeadAttentionOptions options)
    : MultiHeadAttentionBase(base_options(options), "multi_head_attention"),
      num_heads_(num_heads),
      key_dim_(key_dim),
      value_dim_(options.value_dim.value_or(key_dim)),
      options_(std::move(options)),
      attention_axes_(options_.attention_axes),
      seed_generator_(detail::as_seed(options_.seed)) {
  check(num_heads > 0, kMhaKind,
        ": received an invalid value for argument `num_heads`, expected "
        "a positive integer. Received: num_heads=",
        num_heads);
  check(key_dim > 0, kMhaKind,
        ": received an invalid value for argument `key_dim`, expected a "
        "positive integer. Received: key_dim=",
        key_dim);
  check(value_dim_ > 0, kMhaKind,
        ": received an invalid value for argument `value_dim`, expected "
        "a positive integer or None. Received: value_dim=",
        value_dim_);
  check(options_.dropout >= 0 && options_.dropout < 1, kMhaKind,
        ": `dropout` must be in [0, 1); received dropout=", options_.dropout);
  for (int64_t d : options_.output_shape)
    check(d > 0, kMhaKind, ": `output_shape` must hold positive integers; received output_shape=",
          Shape(options_.output_shape));
  check(!options_.sliding_window || *options_.sliding_window > 0, kMhaKind,
        ": `sliding_window` must be None or a positive integer. Received: sliding_window=",
        options_.sliding_window.value_or(0));
  check(!(options_.flash_attention.value_or(false) && options_.dropout > 0), kMhaKind,
        ": dropout is not supported when flash attention is enabled. Please set dropout to 0.0 "
        "to use flash attention.");
}

MultiHeadAttentionLayer::~MultiHeadAttentionLayer() = default;

void MultiHeadAttentionLayer::build_list(const std::vector<Shape>& shapes) {
  check(shapes.size() >= 2 && shapes.size() <= 4, kMhaKind, " '", name(),
        "' takes [query, value], [query, value, key] or [query, value, key, attention_mask]; "
        "got ",
        shapes.size(), " inputs.");
  const Shape& query_shape = shapes[0];
  const Shape& value_shape = shapes[1];
  const Shape& key_shape = shapes.size() > 2 ? shapes[2] : shapes[1];
  check_value_key_shapes(value_shape, key_shape);
  const int q_rank = query_shape.rank();
  check(q_rank >= 3, kMhaKind, " '", name(),
        "': the query must have rank >= 3 (batch, <attention "
        "axes>, features); got shape ",
        shape_string(query_shape), ".");
  check(query_shape.back() > 0 && value_shape.back() > 0 && key_shape.back() > 0, kMhaKind, " '",
        name(), "': the last axes of query, value and key must be known; got shapes ",
        shape_string(query_shape), ", ", shape_string(value_shape), " and ",
        shape_string(key_shape), ".");

  // Attention axes of the projected (rank q_rank + 1) tensors; negative ones count from the
  // query's end (Keras 3.11+).
  std::vector<int> axes;
  if (attention_axes_) {
    for (int a : *attention_axes_) {
      int axis = a < 0 ? q_rank + a : a;
      check(axis >= 1 && axis <= q_rank - 2, kMhaKind, " '", name(), "': attention axis ", a,
            " is out of range for a query of shape ", shape_string(query_shape),
            "; expected axes in [1, ", q_rank - 2, "] (or [", 3 - q_rank, ", -2]).");
      check(std::find(axes.begin(), axes.end(), axis) == axes.end(), kMhaKind, " '", name(),
            "': repeated attention axis ", a, ".");
      axes.push_back(axis);
    }
    check(!axes.empty(), kMhaKind, " '", name(), "': `attention_axes` is empty.");
  } else {
    for (int i = 1; i <= q_rank - 2; ++i) axes.push_back(i);
  }
  attention_axes_ = axes;

  auto spec = [&](int in_rank, int bound, Shape out_dims, bool gate = false) {
    detail::AttentionProjection::Spec s;
    auto [eq, bias] = detail::projection_equation(in_rank - bound, bound, out_dims.rank());
    s.equation = eq;
    s.output_shape = partial_shape(in_rank - bound + out_dims.rank() - 1, out_dims);
    s.bound_dims = bound;
    s.out_dims = out_dims;
    s.use_bias = options_.use_bias;
    if (gate) s.activation = "sigmoid";
    s.kernel_initializer = options_.kernel_initializer;
    s.bias_initializer = options_.bias_initializer;
    s.kernel_regularizer = options_.kernel_regularizer;
    s.bias_regularizer = options_.bias_regularizer;
    s.activity_regularizer = options_.activity_regularizer;
    s.kernel_constraint = options_.kernel_constraint;
    s.bias_constraint = options_.bias_constraint;
    return s;
  };
  const std::string& policy = dtype_policy().name;
  auto make = [&](const char* sub_name, detail::AttentionProjection::Spec s, const Shape& in) {
    auto p = std::make_shared<detail::AttentionProjection>(sub_name, policy, std::move(s));
    p->ensure_built({in}, false);
    return p;
  };
  query_dense_ = make("query", spec(q_rank, 1, {num_heads_, key_dim_}), query_shape);
  key_dense_ = make("key", spec(key_shape.rank(), 1, {num_heads_, key_dim_}), key_shape);
  if (options_.use_gate)
    gate_dense_ = make("gate", spec(q_rank, 1, {num_heads_, value_dim_}, true), query_shape);
  value_dense_ = make("value", spec(value_shape.rank(), 1, {num_heads_, value_dim_}), value_shape);
  Shape out_dims = options_.output_shape.empty() ? Shape{query_shape.back()}
                                                 : Shape(options_.output_shape);
  Shape heads_shape(query_shape.begin(), query_shape.end() - 1);
  heads_shape.push_back(num_heads_);
  heads_shape.push_back(value_dim_);
  output_dense_ = make("attention_output", spec(q_rank + 1, 2, out_dims), heads_shape);

  // Tracked under the attribute names Keras's saver files them by (MultiHeadAttention's
  // public query_dense ... properties come first; the gate has no property).
  track_layer("query_dense", query_dense_);
  track_layer("key_dense", key_dense_);
  if (gate_dense_) track_layer("_gate_dense", gate_dense_);
  track_layer("value_dense", value_dense_);
  track_layer("output_dense", output_dense_);
}

TensorList MultiHeadAttentionLayer::call_list(const TensorList& inputs, const CallContext& ctx) {
  Inputs in = unpack(inputs, ctx);
  detail::AttentionFlags f = flags();
  check(in.query.ndim() == query_dense_->build_input_shapes()[0].rank(), kMhaKind, " '", name(),
        "' was built for queries of rank ", query_dense_->build_input_shapes()[0].rank(),
        "; got shape ", in.query.shape(), ".");
  check(in.value.ndim() == in.key.ndim() &&
            std::equal(in.value.shape().begin() + 1, in.value.shape().end() - 1,
                       in.key.shape().begin() + 1),
        kMhaKind, " '", name(),
        "': all dimensions of `value` and `key`, except the last one, must "
        "be equal. Received: value shape ",
        in.value.shape(), " and key shape ", in.key.shape(), ".");
  const bool causal = causal_only(in, f.use_causal_mask, options_.sliding_window);
  Tensor mask = causal ? Tensor() : merge_masks(in, f.use_causal_mask, options_.sliding_window);

  Tensor gate = gate_dense_ ? (*gate_dense_)(in.query) : Tensor();
  Tensor query = (*query_dense_)(in.query);  // (B, T, N, key_dim)
  Tensor key = (*key_dense_)(in.key);        // (B, S, N, key_dim)
  Tensor value = (*value_dense_)(in.value);  // (B, S, N, value_dim)
  auto [output, scores] = compute_attention(query, key, value, mask, causal,
                                            ctx.training.value_or(false),
                                            f.return_attention_scores);
  if (gate.defined()) output = ops::multiply(output, gate);
  output = (*output_dense_)(output);
  if (f.return_attention_scores) return {output, scores};
  return {output};
}

std::pair<Tensor, Tensor> MultiHeadAttentionLayer::compute_attention(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& attention_mask,
    bool causal, bool training, bool return_scores) {
  check(!(options_.flash_attention.value_or(false) && return_scores), kMhaKind, " '", name(),
        "': returning attention scores is not supported when flash attention is enabled. Please "
        "disable flash attention to access attention scores.");
  const double scale = 1.0 / std::sqrt(static_cast<double>(key_dim_));
  const std::vector<int>& axes = *attention_axes_;
  const int n_axes = static_cast<int>(axes.size());
  const int rank = query.ndim();
  // ops::dot_product_attention needs value heads as wide as key heads; otherwise (value_dim !=
  // key_dim, which Keras's torch backend accepts there) the explicit path computes the same.
  if (!return_scores && options_.dropout == 0.0 && rank == 4 && axes == std::vector<int>{1} &&
      key.shape().back() == value.shape().back()) {
    // The fused path (Keras uses ops.dot_product_attention here too).
    ops::DotProductAttentionOptions o;
    if (attention_mask.defined()) o.mask = detail::expand_mask(attention_mask, 4, -3, kMhaKind);
    o.scale = scale;
    o.is_causal = causal;
    o.flash_attention = options_.flash_attention;
    return {ops::dot_product_attention(query, key, value, o), Tensor()};
  }

  Tensor mask = attention_mask;
  if (causal) mask = detail::causal_mask(query.shape()[1], value.shape()[1]);
  // Move the attention axes next to the channels: (batch..., heads, <attention axes>, channels),
  // then flatten the attention axes so both products are batched matmuls.
  std::vector<int> perm;
  for (int i = 0; i < rank - 1; ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) perm.push_back(i);
  const int n_batch = static_cast<int>(perm.size());
  for (int a : axes) perm.push_back(a);
  perm.push_back(rank - 1);
  auto flatten = [&](const Tensor& t, Shape* batch, Shape* attn) {
    Tensor p = ops::transpose(t, perm);
    Shape b(p.shape().begin(), p.shape().begin() + n_batch);
    Shape a(p.shape().begin() + n_batch, p.shape().end() - 1);
    Shape flat = b;
    flat.push_back(a.numel());
    flat.push_back(p.shape().back());
    if (batch) *batch = b;
    if (attn) *attn = a;
    return ops::reshape(p, flat);
  };
  Shape batch_shape, q_attn, k_attn;
  Tensor q = flatten(ops::multiply(query, scale), &batch_shape, &q_attn);
  Tensor k = flatten(key, nullptr, &k_attn);
  Tensor v = flatten(value, nullptr, nullptr);
  Tensor logits = ops::matmul(q, ops::swapaxes(k, -1, -2));  // (batch..., Tq, Sk)
  Shape scores_shape = batch_shape;
  for (int64_t d : q_attn) scores_shape.push_back(d);
  for (int64_t d : k_attn) scores_shape.push_back(d);
  if (mask.defined()) {
    mask = detail::expand_mask(mask, scores_shape.rank(), -2 * n_axes - 1, kMhaKind);
    if (n_axes > 1) mask = ops::reshape(ops::broadcast_to(mask, scores_shape), logits.shape());
  }
  Tensor probs = detail::masked_softmax(logits, mask);
  Tensor dropped = training && options_.dropout > 0
                       ? random::dropout(probs, options_.dropout, std::nullopt, seed_generator_)
                       : probs;
  Tensor out = ops::matmul(dropped, v);  // (batch..., Tq, value_dim)
  Shape out_shape = batch_shape;
  for (int64_t d : q_attn) out_shape.push_back(d);
  out_shape.push_back(value.shape().back());
  std::vector<int> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
  out = ops::transpose(ops::reshape(out, out_shape), inverse);
  Tensor scores = n_axes > 1 ? ops::reshape(probs, scores_shape) : probs;
  return {out, scores};
}

std::shared_ptr<Layer> MultiHeadAttentionLayer::query_dense() const { return query_dense_; }
std::shared_ptr<Layer> MultiHeadAttentionLayer::key_dense() const { return key_dense_; }
std::shared_ptr<Layer> MultiHeadAttentionLayer::value_dense() const { return value_dense_; }
std::shared_ptr<Layer> MultiHeadAttentionLayer::output_dense() const { return output_dense_; }
std::shared_ptr<Layer> MultiHeadAttentionLayer::gate_dense() const { return gate_dense_; }

Config MultiHeadAttentionLayer::get_config() const {
  Config c = Layer::get_config();
  c["num_heads"] = num_heads_;
  c["key_dim"] = key_dim_;
  c["value_dim"] = value_dim_;
  c["dropout"] = options_.dropout;
  c["use_bias"] = options_.use_bias;
  c["use_gate"] = options_.use_gate;  // Keras 3.13+ keys, as 3.15 writes them

  c["output_shape"] = options_.output_shape.empty() ? Config(nullptr) : Config(options_.output_shape);
  c["attention_axes"] = attention_axes_ ? Config(*attention_axes_) : Config(nullptr);
  c["sliding_window"] =
      options_.sliding_window ? Config(*options_.sliding_window) : Config(nullptr);
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["kernel_regularizer"] = regularizers::serialize(options_.kernel_regularizer.get());
  c["bias_regularizer"] = regularizers::serialize(options_.bias_regularizer.get());
  c["activity_regularizer"] = regularizers::serialize(options_.activity_regularizer.get());
  c["kernel_constraint"] = constraints::serialize(options_.kernel_constraint.get());
  c["bias_constraint"] = constraints::serialize(options_.bias_constraint.get());
  c["seed"] = options_.seed ? Config(*options_.seed) : Config(nullptr);
  return c;
}

std::shared_ptr<Layer> MultiHeadAttentionLayer::from_config(const Config& c) {
  MultiHeadAttentionOptions o;
  read_base_config(c, o);
  if (c.contains("value_dim") && !c["value_dim"].is_null())
    o.value_dim = c["value_dim"].get<int64_t>();
  o.dropout = c.value("dropout", 0.0);
  o.use_bias = c.value("use_bias", true);
  o.output_shape = int_list(c, "output_shape");
  if (c.contains("attention_axes") && !c["attention_axes"].is_null()) {
    std::vector<int> axes;
    for (int64_t a : int_list(c, "attention_axes")) axes.push_back(static_cast<int>(a));
    o.attention_axes = axes;
  }
  if (c.contains("sliding_window") && !c["sliding_window"].is_null())
    o.sliding_window = c["sliding_window"].get<int64_t>();
  if (c.contains("flash_attention") && !c["flash_attention"].is_null())
    o.flash_attention = c["flash_attention"].get<bool>();
  if (c.contains("kernel_initializer")) o.kernel_initializer = initializers::deserialize(c["kernel_initializer"]);
  if (c.contains("bias_initializer")) o.bias_initializer = initializers::deserialize(c["bias_initializer"]);
  if (c.contains("kernel_regularizer")) o.kernel_regularizer = regularizers::deserialize(c["kernel_regularizer"]);
  if (c.contains("bias_regularizer")) o.bias_regularizer = regularizers::deserialize(c["bias_regularizer"]);
  if (c.contains("activity_regularizer")) o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  if (c.contains("kernel_constraint")) o.kernel_constraint = constraints::deserialize(c["kernel_constraint"]);
  if (c.contains("bias_constraint")) o.bias_constraint = constraints::deserialize(c["bias_constraint"]);
  o.use_gate = c.value("use_gate", false);
  if (c.contains("seed") && !c["seed"].is_null()) o.seed = c["seed"].get<int64_t>();
  return std::make_shared<MultiHeadAttentionLayer>(c.at("num_heads").get<int64_t>(),
                                                   c.at("key_dim").get<int64_t>(), o);
}

AttentionLayerPtr<MultiHeadAttentionLayer> MultiHeadAttention(int64_t num_heads, int64_t key_dim,
                                                              MultiHeadAttentionOptions options) {
  return AttentionLayerPtr<MultiHeadAttentionLayer>(
      std::make_shared<MultiHeadAttentionLayer>(num_heads, key_dim, std::move(options)));
}

}  // namespace keras::layers

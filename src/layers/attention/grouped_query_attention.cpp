#include "keras/layers/attention/grouped_query_attention.h"

#include <cmath>

#include "keras/ops/ops.h"
#include "layers/attention/attention_utils.h"
#include "layers/attention/projection.h"

namespace keras::layers {
namespace {

constexpr const char* kGqaKind = "GroupedQueryAttention";

}  // namespace

GroupedQueryAttentionLayer::GroupedQueryAttentionLayer(int64_t head_dim, int64_t num_query_heads,
                                                       int64_t num_key_value_heads,
                                                       GroupedQueryAttentionOptions options)
    : MultiHeadAttentionBase(base_options(options), "grouped_query_attention"),
      head_dim_(head_dim),
      num_query_heads_(num_query_heads),
      num_key_value_heads_(num_key_value_heads),
      options_(std::move(options)),
      seed_generator_(detail::as_seed(options_.seed)) {
  check(head_dim > 0, kGqaKind,
        ": `head_dim` must be a positive integer; received head_dim=", head_dim);
  check(num_query_heads > 0 && num_key_value_heads > 0, kGqaKind,
        ": `num_query_heads` and `num_key_value_heads` must be positive integers; received "
        "num_query_heads=",
        num_query_heads, ", num_key_value_heads=", num_key_value_heads);
  check(num_query_heads % num_key_value_heads == 0, kGqaKind,
        ": `num_query_heads` must be divisible by `num_key_value_heads`; received "
        "num_query_heads=",
        num_query_heads, ", num_key_value_heads=", num_key_value_heads);
  check(options_.dropout >= 0 && options_.dropout < 1, kGqaKind,
        ": `dropout` must be in [0, 1); received dropout=", options_.dropout);
  check(!options_.sliding_window || *options_.sliding_window > 0, kGqaKind,
        ": `sliding_window` must be None or a positive integer. Received: sliding_window=",
        options_.sliding_window.value_or(0));
  check(!(options_.flash_attention.value_or(false) && options_.dropout > 0), kGqaKind,
        ": dropout is not supported when flash attention is enabled. Please set dropout to 0.0 "
        "to use flash attention.");
  // Keras sets the layer's own activity regularizer too (it applies to the outputs).
  set_activity_regularizer(options_.activity_regularizer);
}

GroupedQueryAttentionLayer::~GroupedQueryAttentionLayer() = default;

void GroupedQueryAttentionLayer::build_list(const std::vector<Shape>& shapes) {
  check(shapes.size() >= 2 && shapes.size() <= 4, kGqaKind, " '", name(),
        "' takes [query, value], [query, value, key] or [query, value, key, attention_mask]; "
        "got ",
        shapes.size(), " inputs.");
  const Shape& query_shape = shapes[0];
  const Shape& value_shape = shapes[1];
  const Shape& key_shape = shapes.size() > 2 ? shapes[2] : shapes[1];
  for (const Shape* s : {&query_shape, &value_shape, &key_shape})
    check(s->rank() == 3 && s->back() > 0, kGqaKind, " '", name(),
          "': query, value and key must be (batch, length, features) with known features; got "
          "shapes ",
          shape_string(query_shape), ", ", shape_string(value_shape), " and ",
          shape_string(key_shape), ".");
  check_value_key_shapes(value_shape, key_shape);

  auto spec = [&](const char* equation, Shape output_shape, int bound, Shape out_dims,
                  bool gate = false) {
    detail::AttentionProjection::Spec s;
    s.equation = equation;
    s.output_shape = std::move(output_shape);
    s.bound_dims = bound;
    s.out_dims = std::move(out_dims);
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
  const int64_t Nq = num_query_heads_, Nkv = num_key_value_heads_, H = head_dim_;
  query_dense_ = make("query", spec("bqm,muh->bquh", {kUnknownDim, Nq, H}, 1, {Nq, H}),
                      query_shape);
  key_dense_ = make("key", spec("bkm,mvh->bkvh", {kUnknownDim, Nkv, H}, 1, {Nkv, H}), key_shape);
  if (options_.use_gate)
    gate_dense_ = make("gate", spec("bqm,muh->bquh", {kUnknownDim, Nq, H}, 1, {Nq, H}, true),
                       query_shape);
  value_dense_ = make("value", spec("bkm,mvh->bkvh", {kUnknownDim, Nkv, H}, 1, {Nkv, H}),
                      value_shape);
  const int64_t feature_dim = query_shape.back();
  output_dense_ = make("attention_output",
                       spec("bquh,uhm->bqm", {kUnknownDim, feature_dim}, 2, {feature_dim}),
                       Shape{kUnknownDim, kUnknownDim, Nq, H});
  // Keras's attribute names (GroupedQueryAttention has no public properties for them).
  track_layer("_query_dense", query_dense_);
  track_layer("_key_dense", key_dense_);
  if (gate_dense_) track_layer("_gate_dense", gate_dense_);
  track_layer("_value_dense", value_dense_);
  track_layer("_output_dense", output_dense_);
}

TensorList GroupedQueryAttentionLayer::call_list(const TensorList& inputs,
                                                 const CallContext& ctx) {
  Inputs in = unpack(inputs, ctx);
  detail::AttentionFlags f = flags();
  check(in.query.ndim() == 3 && in.value.ndim() == 3 && in.key.ndim() == 3 &&
            in.value.shape()[1] == in.key.shape()[1],
        kGqaKind, " '", name(),
        "': expected query (batch, T, dim), value and key (batch, S, dim); "
        "got shapes ",
        in.query.shape(), ", ", in.value.shape(), " and ", in.key.shape(), ".");
  check(!(options_.flash_attention.value_or(false) && f.return_attention_scores), kGqaKind, " '",
        name(),
        "': returning attention scores is not supported when flash attention is "
        "enabled. Please disable flash attention to access attention scores.");
  const bool causal = causal_only(in, f.use_causal_mask, options_.sliding_window);
  Tensor mask = causal ? Tensor() : merge_masks(in, f.use_causal_mask, options_.sliding_window);

  Tensor gate = gate_dense_ ? (*gate_dense_)(in.query) : Tensor();
  Tensor query = (*query_dense_)(in.query);  // (B, T, Nq, H)
  Tensor key = (*key_dense_)(in.key);        // (B, S, Nkv, H)
  Tensor value = (*value_dense_)(in.value);  // (B, S, Nkv, H)
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim_));
  const bool training = ctx.training.value_or(false);
  Tensor output, scores;
  if (!f.return_attention_scores && options_.dropout == 0.0) {
    // dot_product_attention shares each key/value head among its group of query heads, as
    // Keras's ops.repeat of the keys and values does.
    ops::DotProductAttentionOptions o;
    if (mask.defined()) o.mask = detail::expand_mask(mask, 4, -3, kGqaKind);
    o.scale = scale;
    o.is_causal = causal;
    o.flash_attention = options_.flash_attention;
    output = ops::dot_product_attention(query, key, value, o);
  } else {
    if (causal) mask = detail::causal_mask(query.shape()[1], value.shape()[1]);
    const int64_t B = query.shape()[0], T = query.shape()[1], S = key.shape()[1];
    const int64_t K = num_key_value_heads_, G = num_query_heads_ / K, H = head_dim_;
    // Query head n = k * G + g uses key/value head k (Keras repeats each key/value head G
    // times): (B, K, G, T, H) @ (B, K, 1, H, S) -> (B, K, G, T, S).
    Tensor q = ops::transpose(ops::reshape(ops::multiply(query, scale), {B, T, K, G, H}),
                              {0, 2, 3, 1, 4});
    Tensor k = ops::expand_dims(ops::transpose(key, {0, 2, 3, 1}), 2);
    Tensor v = ops::expand_dims(ops::transpose(value, {0, 2, 1, 3}), 2);  // (B, K, 1, S, H)
    Tensor logits = ops::reshape(ops::matmul(q, k), {B, K * G, T, S});
    if (mask.defined()) mask = detail::expand_mask(mask, 4, -3, kGqaKind);
    scores = detail::masked_softmax(logits, mask);  // (B, Nq, T, S)
    Tensor dropped = training && options_.dropout > 0
                         ? random::dropout(scores, options_.dropout, std::nullopt, seed_generator_)
                         : scores;
    Tensor out = ops::matmul(ops::reshape(dropped, {B, K, G, T, S}), v);  // (B, K, G, T, H)
    output = ops::reshape(ops::transpose(out, {0, 3, 1, 2, 4}), {B, T, K * G, H});
  }
  if (gate.defined()) output = ops::multiply(output, gate);
  output = (*output_dense_)(output);
  if (f.return_attention_scores) return {output, scores};
  return {output};
}

std::shared_ptr<Layer> GroupedQueryAttentionLayer::query_dense() const { return query_dense_; }
std::shared_ptr<Layer> GroupedQueryAttentionLayer::key_dense() const { return key_dense_; }
std::shared_ptr<Layer> GroupedQueryAttentionLayer::value_dense() const { return value_dense_; }
std::shared_ptr<Layer> GroupedQueryAttentionLayer::output_dense() const { return output_dense_; }
std::shared_ptr<Layer> GroupedQueryAttentionLayer::gate_dense() const { return gate_dense_; }

Config GroupedQueryAttentionLayer::get_config() const {
  Config c = Layer::get_config();
  c["head_dim"] = head_dim_;
  c["num_query_heads"] = num_query_heads_;
  c["num_key_value_heads"] = num_key_value_heads_;
  c["use_bias"] = options_.use_bias;
  // Keras 3.13+ keys, as 3.15 writes them.
  c["use_gate"] = options_.use_gate;
  c["sliding_window"] =
      options_.sliding_window ? Config(*options_.sliding_window) : Config(nullptr);
  c["dropout"] = options_.dropout;
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

std::shared_ptr<Layer> GroupedQueryAttentionLayer::from_config(const Config& c) {
  GroupedQueryAttentionOptions o;
  read_base_config(c, o);
  o.dropout = c.value("dropout", 0.0);
  o.use_bias = c.value("use_bias", true);
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
  return std::make_shared<GroupedQueryAttentionLayer>(
      c.at("head_dim").get<int64_t>(), c.at("num_query_heads").get<int64_t>(),
      c.at("num_key_value_heads").get<int64_t>(), o);
}

AttentionLayerPtr<GroupedQueryAttentionLayer> GroupedQueryAttention(
    int64_t head_dim, int64_t num_query_heads, int64_t num_key_value_heads,
    GroupedQueryAttentionOptions options) {
  return AttentionLayerPtr<GroupedQueryAttentionLayer>(std::make_shared<GroupedQueryAttentionLayer>(
      head_dim, num_query_heads, num_key_value_heads, std::move(options)));
}

AttentionLayerPtr<GroupedQueryAttentionLayer> GroupQueryAttention(
    int64_t head_dim, int64_t num_query_heads, int64_t num_key_value_heads,
    GroupedQueryAttentionOptions options) {
  return GroupedQueryAttention(head_dim, num_query_heads, num_key_value_heads,
                               std::move(options));
}

}  // namespace keras::layers

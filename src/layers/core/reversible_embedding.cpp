// keras.layers.ReversibleEmbedding (keras/src/layers/core/reversible_embedding.py): build,
// call(inputs, reverse), get_config, and the int8 mode (quantize, _int8_build, _int8_call).

#include "keras/layers/core/reversible_embedding.h"

#include "keras/ops/ops.h"
#include "layers/quantization/quantized_layer.h"

namespace keras::layers {
namespace {

// Keras passes reverse=True as a call argument; keras-cpp's generic call has no room for it,
// so reverse() marks the layer for the duration of its call on this thread (calls on other
// threads, forward or reverse, are unaffected).
thread_local const Layer* g_reversing = nullptr;

class ReverseScope {
 public:
  explicit ReverseScope(const Layer* layer) : previous_(g_reversing) { g_reversing = layer; }
  ~ReverseScope() { g_reversing = previous_; }
  ReverseScope(const ReverseScope&) = delete;
  ReverseScope& operator=(const ReverseScope&) = delete;

 private:
  const Layer* previous_;
};

EmbeddingOptions embedding_options(const ReversibleEmbeddingOptions& o) {
  EmbeddingOptions e;
  e.embeddings_initializer = o.embeddings_initializer;
  e.embeddings_regularizer = o.embeddings_regularizer;
  e.activity_regularizer = o.activity_regularizer;
  e.embeddings_constraint = o.embeddings_constraint;
  e.mask_zero = o.mask_zero;
  e.lora_rank = o.lora_rank;
  e.lora_alpha = o.lora_alpha;
  e.quantization_config = o.quantization_config;
  e.name = o.name;
  e.trainable = o.trainable;
  e.dtype = o.dtype;
  return e;
}

}  // namespace

ReversibleEmbeddingLayer::ReversibleEmbeddingLayer(int64_t input_dim, int64_t output_dim,
                                                   ReversibleEmbeddingOptions options)
    : EmbeddingLayer(input_dim, output_dim, embedding_options(options)),
      options_(std::move(options)) {
  if (!options_.reverse_dtype.empty()) {
    const DType dt = dtype_from_string(options_.reverse_dtype);  // ValueError for a bad name
    options_.reverse_dtype = std::string(dtype_name(dt));
  }
  if (options_.logit_soft_cap)
    check(*options_.logit_soft_cap != 0, "ReversibleEmbedding '", name(),
          "': logit_soft_cap must be a nonzero number or unset; got 0.");
}

void ReversibleEmbeddingLayer::build(const Shape& input_shape) {
  EmbeddingLayer::build(input_shape);
  build_reverse();
}

void ReversibleEmbeddingLayer::build_reverse() {
  if (options_.tie_weights) return;
  const std::string& mode = quantization_mode();
  check<NotImplementedError>(mode.empty() || mode == "int8", "ReversibleEmbedding '", name(),
                             "': mode '", mode,
                             "' with tie_weights=false is not implemented in keras-cpp (int8 "
                             "is); Keras 3.15 also has int4.");
  if (mode.empty()) {
    reverse_embeddings_ = add_weight({.shape = {output_dim(), input_dim()},
                                      .initializer = options_.embeddings_initializer,
                                      .name = "reverse_embeddings"});
    return;
  }
  reverse_embeddings_ = add_weight({.shape = {output_dim(), input_dim()},
                                    .initializer = "zeros",
                                    .trainable = false,
                                    .dtype = DType::Int8,
                                    .name = "reverse_embeddings"});
  reverse_embeddings_scale_ = add_weight({.shape = {input_dim()},
                                          .initializer = "ones",
                                          .trainable = false,
                                          .name = "reverse_embeddings_scale"});
}

Tensor ReversibleEmbeddingLayer::call(const Tensor& inputs, const CallContext& ctx) {
  if (g_reversing != this) return EmbeddingLayer::call(inputs, ctx);
  check(inputs.ndim() >= 1 && inputs.shape()[inputs.ndim() - 1] == output_dim(),
        "ReversibleEmbedding '", name(),
        "': reverse=True takes inputs whose last axis is output_dim=", output_dim(), "; got shape ",
        inputs.shape(), ".");
  if (quantization_mode() == "int8") return soft_cap(int8_reverse_call(inputs));
  check<NotImplementedError>(quantization_mode().empty(), "ReversibleEmbedding '", name(),
                             "': the reverse call in mode '", quantization_mode(),
                             "' is not implemented in keras-cpp (int8 is).");
  return soft_cap(reverse_call(inputs));
}

Tensor ReversibleEmbeddingLayer::reverse_call(const Tensor& inputs) const {
  Tensor kernel = options_.tie_weights ? ops::transpose(embeddings()) : reverse_embeddings_.value();
  Tensor x = inputs;
  if (!options_.reverse_dtype.empty()) {
    const DType dt = dtype_from_string(options_.reverse_dtype);
    x = ops::cast(x, dt);
    kernel = ops::cast(kernel, dt);
  }
  return ops::matmul(x, kernel);
}

Tensor ReversibleEmbeddingLayer::int8_reverse_call(const Tensor& inputs) const {
  // Keras's _int8_call(reverse=True): the int8 table (transposed) or reverse matrix, inputs
  // quantized per row, an int8 @ int8 product, then divided by both scales. Keras does not
  // apply LoRA on this path.
  Tensor kernel = options_.tie_weights ? ops::transpose(embeddings_variable().value())
                                       : reverse_embeddings_.value();
  Tensor scale =
      options_.tie_weights ? embeddings_scale().value() : reverse_embeddings_scale_.value();
  const auto& config = quantized_with_ ? quantized_with_ : options_.quantization_config;
  Tensor x = inputs;
  Tensor inputs_scale = ops::ones({1}, compute_dtype());
  if (auto quantizer = detail::inputs_quantizer(config, "int8")) {
    quantizers::Quantized q = (*quantizer)(inputs);
    x = q.values;
    inputs_scale = q.scale;
  }
  Tensor logits = ops::cast(ops::matmul(x, kernel), compute_dtype());
  return ops::divide(logits, ops::multiply(inputs_scale, scale));
}

Tensor ReversibleEmbeddingLayer::soft_cap(const Tensor& logits) const {
  if (!options_.logit_soft_cap) return logits;
  const double cap = *options_.logit_soft_cap;
  return ops::multiply(ops::tanh(ops::divide(logits, cap)), cap);
}

Tensor ReversibleEmbeddingLayer::compute_mask(const Tensor& inputs, const Tensor& mask) const {
  if (g_reversing == this) return Tensor();
  return EmbeddingLayer::compute_mask(inputs, mask);
}

Tensor ReversibleEmbeddingLayer::reverse(const Tensor& inputs) {
  ReverseScope scope(this);
  return (*this)(inputs);
}

KerasTensor ReversibleEmbeddingLayer::reverse(const KerasTensor&) {
  throw NotImplementedError(
      "ReversibleEmbedding '" + name() +
      "': reverse=True on a symbolic tensor is not supported yet: keras-cpp's Functional graph "
      "cannot record the reverse argument. Call reverse() eagerly, e.g. in a subclassed "
      "model's call().");
}

void ReversibleEmbeddingLayer::quantize_weights(const std::string& mode,
                                                const quantizers::QuantizationConfigPtr& config) {
  check<NotImplementedError>(mode == "int8", "ReversibleEmbedding '", name(), "': quantize('", mode,
                             "') is not implemented in keras-cpp (int8 is; Keras 3.15 also "
                             "has int4).");
  check<NotImplementedError>(options_.lora_rank == 0 && !lora_enabled(), "ReversibleEmbedding '",
                             name(), "': quantize with LoRA is not implemented in keras-cpp.");
  // Keras: the table with one scale per row (axis -1), the reverse matrix with one per column
  // (axis 0), or the config's weight quantizer for both.
  auto table_quantizer =
      config->weight_quantizer.value_or(quantizers::AbsMaxQuantizer{.axis = std::vector{-1}});
  quantizers::Quantized table = table_quantizer(embeddings_variable().value());
  quantizers::Quantized rev;
  if (!options_.tie_weights) {
    auto reverse_quantizer =
        config->weight_quantizer.value_or(quantizers::AbsMaxQuantizer{.axis = std::vector{0}});
    rev = reverse_quantizer(reverse_embeddings_.value());
    remove_weight(reverse_embeddings_);
  }
  remove_weight(embeddings_variable());
  set_dtype_policy(detail::quantized_policy(dtype_policy(), mode));
  quantized_with_ = config;
  EmbeddingLayer::build(Shape{kUnknownDim});  // the int8 table and its scale
  build_reverse();
  Variable e = embeddings_variable(), s = embeddings_scale();
  e.assign(table.values);
  s.assign(ops::squeeze(table.scale, -1));
  if (!options_.tie_weights) {
    reverse_embeddings_.assign(rev.values);
    reverse_embeddings_scale_.assign(ops::squeeze(rev.scale, 0));
  }
}

Config ReversibleEmbeddingLayer::get_config() const {
  Config c = EmbeddingLayer::get_config();
  c["tie_weights"] = options_.tie_weights;
  c["reverse_dtype"] = options_.reverse_dtype.empty() ? Config() : Config(options_.reverse_dtype);
  c["logit_soft_cap"] = options_.logit_soft_cap ? Config(*options_.logit_soft_cap) : Config();
  if (quantized_with_) c["quantization_config"] = quantized_with_->serialize();
  return c;
}

std::shared_ptr<Layer> ReversibleEmbeddingLayer::from_config(const Config& c) {
  ReversibleEmbeddingOptions o;
  read_base_config(c, o);
  if (c.contains("embeddings_initializer"))
    o.embeddings_initializer = initializers::deserialize(c["embeddings_initializer"]);
  if (c.contains("embeddings_regularizer"))
    o.embeddings_regularizer = regularizers::deserialize(c["embeddings_regularizer"]);
  if (c.contains("activity_regularizer"))
    o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  if (c.contains("embeddings_constraint"))
    o.embeddings_constraint = constraints::deserialize(c["embeddings_constraint"]);
  o.mask_zero = c.value("mask_zero", false);
  o.tie_weights = c.value("tie_weights", true);
  if (c.contains("reverse_dtype") && !c["reverse_dtype"].is_null()) {
    const Config& d = c["reverse_dtype"];
    // Keras accepts a dtype name; a serialized DTypePolicy record carries it in its config.
    o.reverse_dtype = d.is_string() ? d.get<std::string>() : DTypePolicy::deserialize(d).name;
  }
  if (c.contains("logit_soft_cap") && !c["logit_soft_cap"].is_null())
    o.logit_soft_cap = c["logit_soft_cap"].get<double>();
  if (c.contains("lora_rank") && !c["lora_rank"].is_null()) {
    o.lora_rank = c["lora_rank"].get<int64_t>();
    if (c.contains("lora_alpha") && !c["lora_alpha"].is_null())
      o.lora_alpha = c["lora_alpha"].is_number_integer() ? Scalar(c["lora_alpha"].get<int64_t>())
                                                         : Scalar(c["lora_alpha"].get<double>());
  }
  if (c.contains("quantization_config"))
    o.quantization_config = quantizers::QuantizationConfig::deserialize(c["quantization_config"]);
  check(c.contains("input_dim") && c.contains("output_dim"),
        "ReversibleEmbedding.from_config: the config needs 'input_dim' and 'output_dim'; got ",
        c.dump(), ".");
  return std::make_shared<ReversibleEmbeddingLayer>(c["input_dim"].get<int64_t>(),
                                                    c["output_dim"].get<int64_t>(), o);
}

LayerPtr<ReversibleEmbeddingLayer> ReversibleEmbedding(int64_t input_dim, int64_t output_dim,
                                                       ReversibleEmbeddingOptions options) {
  return make_layer<ReversibleEmbeddingLayer>(input_dim, output_dim, std::move(options));
}

}  // namespace keras::layers

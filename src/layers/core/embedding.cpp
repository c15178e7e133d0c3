#include "keras/layers/core/embedding.h"

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::layers {

EmbeddingLayer::EmbeddingLayer(int64_t input_dim, int64_t output_dim, EmbeddingOptions options)
    : LoraLayer(base_options(options), "embedding", options.lora_rank, options.lora_alpha),
      input_dim_(input_dim),
      output_dim_(output_dim),
      options_(std::move(options)) {
  set_autocast(false);  // Keras: gathers float32 rows, then casts them to the compute dtype
  check(input_dim > 0, "Embedding '", name(), "': input_dim must be a positive integer; got ",
        input_dim, ".");
  check(output_dim > 0, "Embedding '", name(), "': output_dim must be a positive integer; got ",
        output_dim, ".");
  set_activity_regularizer(options_.activity_regularizer);
  set_supports_masking(options_.mask_zero);
  if (options_.weights.defined()) {
    check(options_.weights.shape() == Shape{input_dim, output_dim}, "Embedding '", name(),
          "': weights must have shape (input_dim, output_dim) = (", input_dim, ", ", output_dim,
          "); got ", options_.weights.shape(), ".");
    build(Shape{kUnknownDim});
    set_built(true);
    embeddings_.assign(ops::cast(options_.weights, variable_dtype()));
    options_.weights = Tensor();  // The variable holds it now.
  }
}

void EmbeddingLayer::build(const Shape&) {
  if (!quantization_mode().empty()) quantized_build();
  else
    embeddings_ = add_weight({.shape = {input_dim_, output_dim_},
                              .initializer = options_.embeddings_initializer,
                              .regularizer = options_.embeddings_regularizer,
                              .constraint = options_.embeddings_constraint,
                              .name = "embeddings"});
  enable_configured_lora(/*pass_alpha=*/false);  // Keras's Embedding.build: enable_lora(rank)
}

LoraLayer::LoraTarget EmbeddingLayer::lora_target() const {
  return {.base = &embeddings_,
          .prefix = "lora_embeddings",
          .regularizer = options_.embeddings_regularizer,
          .constrained = static_cast<bool>(options_.embeddings_constraint),
          .constraint_argument = "embeddings_constraint",
          // int4 stores the table packed: the adapters follow its float shape.
          .shape = {input_dim_, output_dim_}};
}

Tensor EmbeddingLayer::call(const Tensor& inputs, const CallContext&) {
  Tensor ids = inputs.dtype() == DType::Int32 || inputs.dtype() == DType::Int64
                   ? inputs
                   : ops::cast(inputs, DType::Int32);
  if (ids.size() > 0) {
    // One range check here (symbolic tensors read back as zeros, so it passes there).
    ops::detail::check_range_on_host(
        ids, [layer = name(), dim = input_dim_, shape = inputs.shape()](int64_t lo, int64_t hi) {
          if (lo < 0 || hi >= dim)
            throw ValueError(keras::detail::cat(
                "Embedding '", layer, "': id ", lo < 0 ? lo : hi, " is out of range for input_dim=",
                dim, " (ids of shape ", shape, " range over [", lo, ", ", hi,
                "]; valid ids are 0 to ", dim - 1, ")."));
        });
  }
  if (!quantization_mode().empty()) return quantized_call(ids);
  return ops::cast(lookup(embeddings(), ids), compute_dtype());
}

Tensor EmbeddingLayer::lookup(Tensor table, const Tensor& ids) const {
  // Shape inference: the table joins the symbolic call as a data-free stand-in (index_select
  // reads its input on the input's own backend).
  if (ids.backend().is_symbolic() && &table.backend() != &ids.backend())
    table = ops::detail::prepare(table, table.dtype(), ids.backend());
  Tensor rows = ops::detail::index_select(table, ops::ravel(ids), 0);
  Shape out_shape = ids.shape();
  for (int axis = 1; axis < table.ndim(); ++axis) out_shape.push_back(table.shape()[axis]);
  return ops::reshape(rows, out_shape);
}

Tensor EmbeddingLayer::compute_mask(const Tensor& inputs, const Tensor&) const {
  if (!options_.mask_zero) return Tensor();
  return ops::not_equal(inputs, 0);
}

Config EmbeddingLayer::get_config() const {
  Config c = Layer::get_config();
  c["input_dim"] = input_dim_;
  c["output_dim"] = output_dim_;
  c["embeddings_initializer"] = initializers::serialize(*options_.embeddings_initializer);
  c["embeddings_regularizer"] = regularizers::serialize(options_.embeddings_regularizer.get());
  c["activity_regularizer"] = regularizers::serialize(options_.activity_regularizer.get());
  c["embeddings_constraint"] = constraints::serialize(options_.embeddings_constraint.get());
  c["mask_zero"] = options_.mask_zero;
  c["quantization_config"] =
      options_.quantization_config ? options_.quantization_config->serialize() : Config();
  add_lora_config(c);
  return c;
}

std::shared_ptr<Layer> EmbeddingLayer::from_config(const Config& c) {
  EmbeddingOptions o;
  read_base_config(c, o);
  if (c.contains("embeddings_initializer")) o.embeddings_initializer = initializers::deserialize(c["embeddings_initializer"]);
  if (c.contains("embeddings_regularizer")) o.embeddings_regularizer = regularizers::deserialize(c["embeddings_regularizer"]);
  if (c.contains("activity_regularizer")) o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  if (c.contains("embeddings_constraint")) o.embeddings_constraint = constraints::deserialize(c["embeddings_constraint"]);
  o.mask_zero = c.value("mask_zero", false);
  read_lora_config(c, o.lora_rank, o.lora_alpha);
  // input_length (Keras 2) is read and dropped.
  if (c.contains("quantization_config"))
    o.quantization_config = quantizers::QuantizationConfig::deserialize(c["quantization_config"]);
  check(c.contains("input_dim") && c.contains("output_dim"),
        "Embedding.from_config: the config needs 'input_dim' and 'output_dim'; got ", c.dump(),
        ".");
  return std::make_shared<EmbeddingLayer>(c["input_dim"].get<int64_t>(),
                                          c["output_dim"].get<int64_t>(), o);
}

LayerPtr<EmbeddingLayer> Embedding(int64_t input_dim, int64_t output_dim,
                                   EmbeddingOptions options) {
  return make_layer<EmbeddingLayer>(input_dim, output_dim, std::move(options));
}

}  // namespace keras::layers

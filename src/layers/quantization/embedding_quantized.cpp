// The quantized modes of Embedding (keras/src/layers/core/embedding.py: quantize, _int8_build,
// _int8_call, variable_serialization_spec), kept apart from the float layer.

#include "keras/layers/core/embedding.h"
#include "keras/ops/ops.h"
#include "layers/quantization/int4_layer.h"
#include "layers/quantization/lora_requantize.h"
#include "layers/quantization/quantized_layer.h"

namespace keras::layers {

void EmbeddingLayer::quantized_build() {
  detail::require_implemented_mode(*this, quantization_mode());
  if (quantization_mode() == "int4") return int4_build();
  embeddings_ = add_weight({.shape = {input_dim_, output_dim_},
                            .initializer = "zeros",
                            .trainable = false,
                            .dtype = DType::Int8,
                            .name = "embeddings"});
  // One scale per row (Keras reduces over output_dim, usually the smaller axis).
  embeddings_scale_ = add_weight({.shape = {input_dim_},
                                  .initializer = "ones",
                                  .trainable = false,
                                  .name = "embeddings_scale"});
}

Tensor EmbeddingLayer::quantized_call(const Tensor& ids) {
  if (quantization_mode() == "int4") return int4_call(ids);
  Tensor scale = lookup(embeddings_scale_.value(), ids);
  Tensor rows = lookup(embeddings_.value(), ids);
  return with_lora_rows(ops::cast(rows, compute_dtype()) / ops::expand_dims(scale, -1), ids);
}

Tensor EmbeddingLayer::with_lora_rows(const Tensor& rows, const Tensor& ids) const {
  // Keras's quantized calls: + (lora_alpha / rank) * take(A, ids) @ B.
  return lora_enabled() ? add_lora_output(rows, lookup(lora_embeddings_a().value(), ids)) : rows;
}

Tensor EmbeddingLayer::dequantized_embeddings() const {
  const DType dtype = compute_dtype();
  const Tensor values = ops::cast(
      quantization_mode() == "int4" ? int4_embeddings() : embeddings_.value(), dtype);
  if (embeddings_zero_.defined())
    return quantizers::dequantize_with_sz_map(values, embeddings_scale_.value(),
                                              embeddings_zero_.value(), g_idx_.value(),
                                              /*group_axis=*/-1);
  return values / ops::expand_dims(embeddings_scale_.value(), -1);
}

std::vector<std::pair<Variable, Tensor>> EmbeddingLayer::lora_requantized() const {
  // Keras's _get_embeddings_with_merged_lora: dequantized, the update added, quantized again
  // with the default quantizers (one scale per row, or groups along output_dim).
  const Tensor merged = dequantized_embeddings() + lora_update();
  const detail::RequantizedKernel q =
      quantize_table(merged, quantization_mode(),
                     detail::int4_block_size(*this, options_.quantization_config), std::nullopt);
  std::vector<std::pair<Variable, Tensor>> out{{embeddings_, q.values},
                                               {embeddings_scale_, q.scale}};
  if (q.zero.defined()) out.emplace_back(embeddings_zero_, q.zero);
  return out;
}

void EmbeddingLayer::quantize_weights(const std::string& mode,
                                      const quantizers::QuantizationConfigPtr& config) {
  detail::require_exact_class(*this, "Embedding");
  detail::require_implemented_mode(*this, mode);
  if (mode == "int4") return int4_quantize(config);
  const detail::RequantizedKernel q =
      quantize_table(embeddings_.value(), mode, -1, config->weight_quantizer);
  remove_weight(embeddings_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), mode));
  quantized_build();
  embeddings_.assign(q.values);
  embeddings_scale_.assign(q.scale);
}

detail::RequantizedKernel EmbeddingLayer::quantize_table(
    const Tensor& table, const std::string& mode, int64_t block_size,
    const std::optional<quantizers::AbsMaxQuantizer>& weight_quantizer) {
  if (mode == "int4" && block_size > 0) {
    // Groups run along output_dim: Keras quantizes the transposed table and transposes back.
    quantizers::GroupedQuantized q =
        quantizers::abs_max_quantize_grouped_with_zero_point(ops::transpose(table), block_size);
    return {quantizers::pack_int4(ops::transpose(q.values), -1), ops::transpose(q.scale),
            ops::transpose(q.zero)};
  }
  // One scale per row (Keras reduces over output_dim, usually the smaller axis).
  const std::pair<double, double> range =
      mode == "int4" ? std::pair{-8.0, 7.0} : std::pair{-127.0, 127.0};
  const quantizers::Quantized q = weight_quantizer.value_or(quantizers::AbsMaxQuantizer{
      .axis = std::vector{-1}, .value_range = range})(table);
  return {mode == "int4" ? quantizers::pack_int4(q.values, -1) : q.values,
          ops::squeeze(q.scale, -1), Tensor()};
}

}  // namespace keras::layers

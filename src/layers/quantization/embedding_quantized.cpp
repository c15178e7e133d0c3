// The quantized modes of Embedding (keras/src/layers/core/embedding.py: quantize, _int8_build,
// _int8_call, variable_serialization_spec), kept apart from the float layer.

#include "keras/layers/core/embedding.h"
#include "keras/ops/ops.h"
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
  return ops::cast(rows, compute_dtype()) / ops::expand_dims(scale, -1);
}

void EmbeddingLayer::quantize_weights(const std::string& mode,
                                      const quantizers::QuantizationConfigPtr& config) {
  detail::require_exact_class(*this, "Embedding");
  detail::require_implemented_mode(*this, mode);
  if (mode == "int4") return int4_quantize(config);
  quantizers::AbsMaxQuantizer weight_quantizer =
      config->weight_quantizer.value_or(quantizers::AbsMaxQuantizer{.axis = std::vector{-1}});
  quantizers::Quantized q = weight_quantizer(embeddings_.value());
  remove_weight(embeddings_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), mode));
  quantized_build();
  embeddings_.assign(q.values);
  embeddings_scale_.assign(ops::squeeze(q.scale, -1));
}

}  // namespace keras::layers

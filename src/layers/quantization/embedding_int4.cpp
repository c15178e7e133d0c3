// int4 Embedding (keras/src/layers/core/embedding.py: _int4_build, _int4_call,
// quantize("int4")): the table's int4 values packed two per byte along output_dim,
// (input_dim, ceil(output_dim / 2)) int8, with
//   per channel: embeddings_scale (input_dim,), one per row;
//   sub-channel: embeddings_scale and embeddings_zero (input_dim, ceil(output_dim / block_size))
//     over groups of columns, g_idx (output_dim,) = each column's group.

#include "keras/layers/core/embedding.h"
#include "keras/ops/ops.h"
#include "layers/quantization/int4_layer.h"
#include "layers/quantization/lora_requantize.h"
#include "layers/quantization/quantized_layer.h"

namespace keras::layers {

void EmbeddingLayer::int4_build() {
  const int64_t block_size = detail::int4_block_size(*this, options_.quantization_config);
  embeddings_ = add_weight({.shape = {input_dim_, (output_dim_ + 1) / 2},
                            .initializer = "zeros",
                            .trainable = false,
                            .dtype = DType::Int8,
                            .name = "embeddings"});
  const Shape scale_shape =
      block_size > 0 ? Shape{input_dim_, detail::int4_groups(output_dim_, block_size)}
                     : Shape{input_dim_};
  embeddings_scale_ = add_weight({.shape = scale_shape,
                                  .initializer = "ones",
                                  .trainable = false,
                                  .name = "embeddings_scale"});
  if (block_size <= 0) return;
  embeddings_zero_ = add_weight({.shape = scale_shape,
                                 .initializer = "zeros",
                                 .trainable = false,
                                 .dtype = DType::Int8,
                                 .name = "embeddings_zero"});
  g_idx_ = add_weight({.shape = {output_dim_},
                       .initializer = "zeros",
                       .trainable = false,
                       .dtype = DType::Float32,
                       .name = "g_idx"});
  g_idx_.assign(quantizers::group_index(output_dim_, block_size));
}

Tensor EmbeddingLayer::int4_embeddings() const {
  return quantizers::unpack_int4(embeddings_.value(), output_dim_, -1);
}

Tensor EmbeddingLayer::int4_call(const Tensor& ids) {
  // Keras unpacks the whole table and then looks rows up; the rows are looked up packed and
  // unpacked alone here (the same values: packing runs along each row).
  const Tensor rows = ops::cast(
      quantizers::unpack_int4(lookup(embeddings_.value(), ids), output_dim_, -1), compute_dtype());
  const Tensor scale = lookup(embeddings_scale_.value(), ids);
  if (!embeddings_zero_.defined()) return with_lora_rows(rows / ops::expand_dims(scale, -1), ids);
  return with_lora_rows(
      quantizers::dequantize_with_sz_map(rows, scale, lookup(embeddings_zero_.value(), ids),
                                         g_idx_.value(), /*group_axis=*/-1),
      ids);
}

void EmbeddingLayer::int4_quantize(const quantizers::QuantizationConfigPtr& config) {
  const int64_t block_size = detail::int4_block_size(*config);
  const detail::RequantizedKernel q =
      quantize_table(embeddings_.value(), "int4", block_size, config->weight_quantizer);
  remove_weight(embeddings_);
  options_.quantization_config = config;
  set_dtype_policy(detail::quantized_policy(dtype_policy(), detail::int4_policy_mode(block_size)));
  quantized_build();
  embeddings_.assign(q.values);
  embeddings_scale_.assign(q.scale);
  if (q.zero.defined()) embeddings_zero_.assign(q.zero);
}

}  // namespace keras::layers

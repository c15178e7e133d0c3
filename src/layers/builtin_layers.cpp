// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/attention/additive_attention.h"
#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/grouped_query_attention.h"
#include "keras/layers/attention/multi_head_attention.h"
#include "keras/layers/core/dense.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"AdditiveAttention", AdditiveAttentionLayer::from_config},
      {"Attention", AttentionLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"GroupQueryAttention", GroupedQueryAttentionLayer::from_config},
      {"GroupedQueryAttention", GroupedQueryAttentionLayer::from_config},
      {"MultiHeadAttention", MultiHeadAttentionLayer::from_config},
  };
}

}  // namespace keras::layers::detail

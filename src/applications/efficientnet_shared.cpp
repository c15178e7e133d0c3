#include "efficientnet_shared.h"

#include <algorithm>

#include "application_builder.h"
#include "keras/initializers/initializers.h"
#include "keras/layers/layers.h"

namespace keras::applications::detail {

initializers::InitializerPtr efficientnet_conv_initializer() {
  return std::make_shared<initializers::VarianceScaling>(2.0, "fan_out", "truncated_normal");
}

initializers::InitializerPtr efficientnet_dense_initializer() {
  return std::make_shared<initializers::VarianceScaling>(1.0 / 3.0, "fan_out", "uniform");
}

KerasTensor squeeze_excite(const KerasTensor& x, int64_t filters_in, int64_t filters,
                           double se_ratio, const std::string& activation,
                           const std::string& name) {
  const int64_t filters_se = std::max<int64_t>(1, static_cast<int64_t>(filters_in * se_ratio));
  auto se = layers::GlobalAveragePooling2D({.name = name + "se_squeeze"})(x);
  const Shape se_shape = bn_axis() == 1 ? Shape{filters, 1, 1} : Shape{1, 1, filters};
  se = layers::Reshape(se_shape, {.name = name + "se_reshape"})(se);
  se = layers::Conv2D(filters_se, 1, {.padding = "same", .activation = activation,
                                      .kernel_initializer = efficientnet_conv_initializer(),
                                      .name = name + "se_reduce"})(se);
  se = layers::Conv2D(filters, 1, {.padding = "same", .activation = "sigmoid",
                                   .kernel_initializer = efficientnet_conv_initializer(),
                                   .name = name + "se_expand"})(se);
  return merge(layers::Multiply({.name = name + "se_excite"}), {x, se});
}

KerasTensor efficientnet_head(const KerasTensor& x, const ApplicationOptions& options,
                              double dropout_rate,
                              const initializers::InitializerArg& bias_initializer) {
  if (!options.include_top) return pooling_head(x, options);
  auto y = layers::GlobalAveragePooling2D({.name = "avg_pool"})(x);
  if (dropout_rate > 0) y = layers::Dropout(dropout_rate, {.name = "top_dropout"})(y);
  return layers::Dense(options.classes, {.activation = options.classifier_activation,
                                         .kernel_initializer = efficientnet_dense_initializer(),
                                         .bias_initializer = bias_initializer,
                                         .name = "predictions"})(y);
}

}  // namespace keras::applications::detail

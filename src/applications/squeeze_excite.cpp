#include "squeeze_excite.h"

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

}  // namespace keras::applications::detail

#pragma once
// What EfficientNet and EfficientNetV2 share: their initializers and the squeeze-and-excitation
// step of their blocks (keras/src/applications/efficientnet.py and efficientnet_v2.py write
// both out identically).

#include <string>

#include "keras/initializers/initializer.h"
#include "keras/layers/keras_tensor.h"

namespace keras::applications::detail {

/// CONV_KERNEL_INITIALIZER: VarianceScaling(2.0, "fan_out", "truncated_normal").
initializers::InitializerPtr efficientnet_conv_initializer();
/// DENSE_KERNEL_INITIALIZER: VarianceScaling(1/3, "fan_out", "uniform").
initializers::InitializerPtr efficientnet_dense_initializer();

/// Global average pooling, two 1x1 convolutions (`activation`, then sigmoid) down to
/// max(1, int(filters_in * se_ratio)) channels and back to `filters`, and the product with
/// `x`; layers named name + "se_squeeze", "se_reshape", "se_reduce", "se_expand", "se_excite".
KerasTensor squeeze_excite(const KerasTensor& x, int64_t filters_in, int64_t filters,
                           double se_ratio, const std::string& activation,
                           const std::string& name);

}  // namespace keras::applications::detail

#pragma once
// What EfficientNet and EfficientNetV2 share: their initializers, the squeeze-and-excitation
// step of their blocks and the classifier (keras/src/applications/efficientnet.py and
// efficientnet_v2.py write them out identically).

#include <string>

#include "keras/applications/application_options.h"
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

/// With top: GlobalAveragePooling2D "avg_pool", Dropout "top_dropout" (when dropout_rate > 0)
/// and the Dense "predictions" (DENSE_KERNEL_INITIALIZER, `bias_initializer`); without: the
/// pooling options.pooling asks for.
KerasTensor efficientnet_head(const KerasTensor& x, const ApplicationOptions& options,
                              double dropout_rate,
                              const initializers::InitializerArg& bias_initializer = "zeros");

}  // namespace keras::applications::detail

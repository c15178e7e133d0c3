#pragma once
// MeanMetricWrapper.from_config for the records Keras writes (see the .cpp).

#include "keras/metrics/metrics.h"

namespace keras::metrics::detail {

/// The MeanMetricWrapper a Keras record describes; ValueError naming the function when it is not
/// one of keras-cpp's loss functions.
MetricPtr mean_metric_wrapper_from_config(const Config& config);

}  // namespace keras::metrics::detail

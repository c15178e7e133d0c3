#pragma once
// The `value_range` argument of the colour augmentation layers (Solarization, RandomInvert):
// a (low, high) pair in configs, and Keras's _transform_value_range between two ranges.

#include <string>
#include <utility>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

namespace keras::layers::preprocessing_detail {

/// [low, high] as Keras writes it.
Config value_range_to_config(const std::pair<double, double>& range);
/// A list of two numbers; ValueError naming `what` otherwise.
std::pair<double, double> value_range_from_config(const Config& c, const std::string& what);

/// images mapped linearly from range `from` to range `to` (unchanged when they are equal).
Tensor transform_value_range(const Tensor& images, const std::pair<double, double>& from,
                             const std::pair<double, double>& to);

}  // namespace keras::layers::preprocessing_detail

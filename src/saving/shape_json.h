#pragma once
// Shapes as Keras writes them in configs: a list of sizes with null for unknown dimensions
// (keras-cpp's -1), and back with checks, since configs come from files.

#include <string>

#include "keras/core/json.h"
#include "keras/core/shape.h"

namespace keras::saving {

/// [null, 28, 28, 1] for (-1, 28, 28, 1).
Config shape_to_json(const Shape& shape);
/// The shape a config list describes; ValueError naming `where` for anything but a list of
/// non-negative integers and nulls (at most 64 of them).
Shape shape_from_json(const Config& json, const std::string& where);

}  // namespace keras::saving

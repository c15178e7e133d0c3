#pragma once
// The from_config factories of the built-in layers, listed in one place so that none of them
// can be dropped by the linker (a static library keeps only what is referenced).

#include <string>
#include <utility>
#include <vector>

#include "keras/layers/registry.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers();

}  // namespace keras::layers::detail

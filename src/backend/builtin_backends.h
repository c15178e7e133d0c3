#pragma once
// The backends compiled into the keras library itself. The registry asks for them when it is
// first used, so no static initializer order or linker flag is involved.

#include <string>
#include <utility>
#include <vector>

#include "keras/backend/registry.h"

namespace keras::backend::detail {

std::vector<std::pair<std::string, BackendFactory>> builtin_backends();

std::unique_ptr<Backend> make_cpu_backend();
std::unique_ptr<Backend> make_stub_backend();
std::unique_ptr<Backend> make_symbolic_backend();

}  // namespace keras::backend::detail

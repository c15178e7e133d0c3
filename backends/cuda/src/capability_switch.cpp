#include "capability_switch.h"

#include <cstdlib>
#include <sstream>
#include <string>

#include "keras/backend/primitives.h"
#include "keras/core/errors.h"

namespace keras::cuda {

uint32_t disabled_capabilities(const char* text) {
  using backend::Capability;
  constexpr int count = static_cast<int>(Capability::kCount);
  uint32_t bits = 0;
  std::stringstream list(text ? text : "");
  std::string name;
  while (std::getline(list, name, ',')) {
    if (name.empty()) continue;
    if (name == "all") return ((uint32_t{1} << count) - 1) | kGraphsBit;
    if (name == "graphs") {
      bits |= kGraphsBit;
      continue;
    }
    int found = -1;
    for (int c = 0; c < count; ++c)
      if (backend::name_of(static_cast<Capability>(c)) == name) found = c;
    if (found < 0) {
      std::string known = "all, graphs";
      for (int c = 0; c < count; ++c)
        known += ", " + std::string(backend::name_of(static_cast<Capability>(c)));
      throw ValueError("KERAS_CUDA_DISABLE: '" + name + "' is not a capability; use a comma-" +
                       "separated list of " + known + ".");
    }
    bits |= uint32_t{1} << found;
  }
  return bits;
}

uint32_t disabled_by_environment() {
  static const uint32_t bits = disabled_capabilities(std::getenv("KERAS_CUDA_DISABLE"));
  return bits;
}

}  // namespace keras::cuda

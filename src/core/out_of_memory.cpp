#include "core/out_of_memory.h"

#include <cstdio>

#include "keras/core/runtime_errors.h"

namespace keras::detail {

std::string byte_count(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  std::string text = std::to_string(bytes) + " bytes";
  if (unit > 0) {
    char scaled[32];
    std::snprintf(scaled, sizeof scaled, " (%.2f %s)", value, units[unit]);
    text += scaled;
  }
  return text;
}

void throw_out_of_memory(uint64_t bytes) {
  throw ResourceExhaustedError(
      "Out of memory: cannot allocate " + byte_count(bytes) +
      " of host memory (the machine's memory or the process's limit, ulimit -v, is reached). "
      "Free what is no longer needed (tensors, models, keras::backend::clear_session()), use a "
      "smaller model or batch size, or raise the limit.");
}

}  // namespace keras::detail

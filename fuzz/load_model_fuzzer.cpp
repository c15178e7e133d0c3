// libFuzzer target for the keras-cpp loaders: see fuzz/README.md.

#include <cstddef>
#include <cstdint>

#include "load_model_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  keras::fuzz::load_model_one_input(data, size);
  return 0;
}

// libFuzzer target for keras-cpp serve's request handler: see fuzz/README.md.

#include <cstddef>
#include <cstdint>

#include "serve_request_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  keras::fuzz::serve_request_one_input(data, size);
  return 0;
}

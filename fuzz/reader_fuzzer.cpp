// The libFuzzer main of the data-reader targets: KERAS_FUZZ_ENTRY names the body
// (reader_entries.h), set per target in fuzz/CMakeLists.txt. See fuzz/README.md.

#include <cstddef>
#include <cstdint>

#include "reader_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  keras::fuzz::KERAS_FUZZ_ENTRY(data, size);
  return 0;
}

// idx_fuzzer's body: the bytes as an IDX file, through a scratch file (load_idx opens a path
// with zlib's gzopen, which reads gzipped and plain files alike).

#include "fuzz_input_file.h"
#include "keras/datasets/datasets.h"
#include "keras/keras.h"
#include "reader_entries.h"

namespace keras::fuzz {

void idx_one_input(const uint8_t* data, size_t size) {
  try {
    Tensor x = datasets::load_idx(write_input_file("idx", data, size));
    (void)x.numel();
  } catch (const Error&) {
  }
}

}  // namespace keras::fuzz

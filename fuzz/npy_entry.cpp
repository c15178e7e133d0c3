// npy_fuzzer's body: the bytes as a .npy file (parse_npy, what load_npy runs on a file's
// bytes) and, when they start like a zip archive, as a .npz file (load_npz, through a scratch
// file: libzip opens a path). A loaded array is read back to the host, so a tensor whose
// shape, strides and storage disagree shows up here rather than in a user's program.

#include <cstring>
#include <span>
#include <vector>

#include "fuzz_input_file.h"
#include "keras/keras.h"
#include "keras/utils/npy.h"
#include "reader_entries.h"

namespace keras::fuzz {
namespace {

void touch(const Tensor& x) {
  std::vector<uint8_t> host(static_cast<size_t>(x.numel()) * itemsize(x.dtype()));
  x.copy_to_host(host.data(), x.dtype());
}

}  // namespace

void npy_one_input(const uint8_t* data, size_t size) {
  try {
    touch(utils::parse_npy(std::span<const uint8_t>(data, size), "fuzz-input.npy"));
  } catch (const Error&) {
  }
  if (size < 4 || std::memcmp(data, "PK", 2) != 0) return;
  try {
    for (const auto& [name, array] : utils::load_npz(write_input_file("npz", data, size)))
      touch(array);
  } catch (const Error&) {
  }
}

}  // namespace keras::fuzz

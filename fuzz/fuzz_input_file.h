#pragma once
// load_csv, load_idx and load_npz read a path, not bytes: the fuzz bodies hand them the input
// through a file of this process's own (reused for every input, removed when the process exits).

#include <cstddef>
#include <cstdint>
#include <string>

namespace keras::fuzz {

/// Writes `data` to this process's scratch file for `kind` ("csv", "idx", "npz") and returns
/// its path. Throws keras::IOError when the file cannot be written.
std::string write_input_file(const char* kind, const uint8_t* data, size_t size);

}  // namespace keras::fuzz

#pragma once
// NumPy's .npy and .npz files (format versions 1.0 to 3.0), read and written without Python.
// Little- and big-endian files and Fortran-order arrays load; bfloat16 loads from files that
// ml_dtypes wrote (descr "bfloat16") and is written the same way.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// Reads one array from a .npy file onto the current backend; NumPy's fixed-width strings
/// ("<U", "|S") give a string tensor (keras/utils/npy_strings.h).
Tensor load_npy(const std::string& path);
/// Writes `x` as a version 1.0 .npy file (little-endian, C order; a string tensor as "<U" of its
/// longest string, as NumPy writes it).
void save_npy(const std::string& path, const Tensor& x);

/// Parses the bytes of a .npy file; `source` names it in error messages.
Tensor parse_npy(std::span<const uint8_t> bytes, const std::string& source = "<memory>");
/// The bytes of a .npy file holding `x`.
std::vector<uint8_t> serialize_npy(const Tensor& x);

/// Reads every array of a .npz archive, keyed by name (without ".npy").
std::map<std::string, Tensor> load_npz(const std::string& path);
/// Writes a .npz archive (stored like numpy.savez, or deflated like savez_compressed).
void save_npz(const std::string& path, const std::map<std::string, Tensor>& arrays,
              bool compressed = false);

}  // namespace keras::utils

#pragma GCC visibility pop

#pragma once
// String arrays in NumPy's .npy files: fixed-width unicode ("<U8", UTF-32 code points, as
// numpy.save writes a str array) and fixed-width bytes ("|S8", as a bytes array), read into a
// StringTensor; written as "<U" of the longest string. Trailing NULs are padding (NumPy strips
// them too). Object arrays ("|O") are pickles and are refused.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "keras/tensor/string_tensor.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// Reads a .npy file holding a "<U"/">U" or "|S" array.
StringTensor load_npy_strings(const std::string& path);
/// Writes `x` as a version 1.0 .npy file of dtype "<U<longest>" (C order).
void save_npy(const std::string& path, const StringTensor& x);

/// Parses the bytes of a .npy file of strings; `source` names it in errors.
StringTensor parse_npy_strings(std::span<const uint8_t> bytes,
                               const std::string& source = "<memory>");
/// The bytes of a .npy file holding `x`.
std::vector<uint8_t> serialize_npy(const StringTensor& x);

}  // namespace keras::utils

#pragma GCC visibility pop

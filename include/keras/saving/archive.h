#pragma once
// The .keras container: a zip of metadata.json, config.json, model.weights.h5 (and assets/).
// Reading refuses archives whose members claim to inflate absurdly (zip bombs), as Keras does.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::saving {

/// The whole file read into memory; IOError naming it when it cannot be read.
std::vector<uint8_t> read_file_bytes(const std::string& path);

/// True when `bytes` start like a zip archive (PK\3\4).
bool is_zip(const std::vector<uint8_t>& bytes);

/// Every member of a zip archive held in `bytes`, by name; `source` names it in errors.
std::map<std::string, std::vector<uint8_t>> read_zip_members(const std::vector<uint8_t>& bytes,
                                                             const std::string& source);

}  // namespace keras::saving

#pragma GCC visibility pop

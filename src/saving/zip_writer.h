#pragma once
// A zip archive built in memory, for writers that then place the bytes with
// write_file_atomically: libzip never writes (or leaves) temporary files of its own, and the
// one write to disk reports the path and the cause of a failure.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keras::saving {

/// One member: its name in the archive and its bytes (which must outlive the call).
struct ZipMember {
  std::string name;
  std::string_view data;
  bool deflate = false;  ///< stored (Python zipfile's default) unless true
};

/// The archive holding `members` in order. `who` (e.g. "save_model") and `path` name the
/// destination in errors.
std::vector<uint8_t> zip_in_memory(const std::vector<ZipMember>& members, const std::string& who,
                                   const std::string& path);

}  // namespace keras::saving

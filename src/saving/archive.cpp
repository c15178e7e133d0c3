#include "keras/saving/archive.h"

#include <zip.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "keras/core/errors.h"

namespace keras::saving {
namespace {

// Members declaring more than 4 GiB and more than 100 times their stored size are refused
// (keras/src/saving/saving_lib.py).
constexpr uint64_t kBombBytes = uint64_t{4} << 30;
constexpr uint64_t kBombRatio = 100;

}  // namespace

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IOError("Cannot open " + path + " for reading.");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

bool is_zip(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0;
}

std::map<std::string, std::vector<uint8_t>> read_zip_members(const std::vector<uint8_t>& bytes,
                                                             const std::string& source) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (!src) throw IOError("Cannot read " + source + " as a zip archive.");
  zip_t* z = zip_open_from_source(src, ZIP_RDONLY, &error);
  if (!z) {
    zip_source_free(src);
    std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw IOError("Cannot read " + source + " as a zip archive: " + why + ".");
  }
  std::unique_ptr<zip_t, int (*)(zip_t*)> guard(z, zip_close);
  std::map<std::string, std::vector<uint8_t>> members;
  zip_int64_t count = zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t st;
    if (zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    std::string name = st.name;
    if (st.size > kBombBytes && st.size > kBombRatio * std::max<zip_uint64_t>(st.comp_size, 1))
      throw IOError("Refusing " + source + ": member '" + name + "' declares " +
                    std::to_string(st.size) + " bytes from " + std::to_string(st.comp_size) +
                    " compressed (a zip bomb?).");
    zip_file_t* f = zip_fopen_index(z, static_cast<zip_uint64_t>(i), 0);
    if (!f) throw IOError("Cannot read member '" + name + "' of " + source + ".");
    std::vector<uint8_t> data(st.size);
    zip_int64_t got = zip_fread(f, data.data(), st.size);
    zip_fclose(f);
    if (got < 0 || static_cast<zip_uint64_t>(got) != st.size)
      throw IOError("Member '" + name + "' of " + source + " is truncated or corrupt.");
    members[name] = std::move(data);
  }
  return members;
}

}  // namespace keras::saving

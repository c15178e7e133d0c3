// zip_in_memory: libzip writing into a buffer source that outlives the archive.

#include "saving/zip_writer.h"

#include <zip.h>

#include <cstdio>

#include "keras/core/errors.h"

namespace keras::saving {

std::vector<uint8_t> zip_in_memory(const std::vector<ZipMember>& members, const std::string& who,
                                   const std::string& path) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  zip_t* z = buffer ? zip_open_from_source(buffer, ZIP_CREATE | ZIP_TRUNCATE, &error) : nullptr;
  if (!z) {
    std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    if (buffer) zip_source_free(buffer);
    throw IOError(who + ": cannot start the archive for " + path + ": " + why + ".");
  }
  zip_error_fini(&error);
  zip_source_keep(buffer);  // the bytes outlive zip_close
  auto fail = [&](const std::string& what) {
    std::string why = zip_strerror(z);
    zip_discard(z);
    zip_source_free(buffer);
    throw IOError(who + ": cannot " + what + " for " + path + ": " + why + ".");
  };
  for (const ZipMember& m : members) {
    zip_source_t* src = zip_source_buffer(z, m.data.data(), m.data.size(), 0);
    if (!src) fail("add " + m.name);
    zip_int64_t index = zip_file_add(z, m.name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(src);
      fail("add " + m.name);
    }
    if (zip_set_file_compression(z, static_cast<zip_uint64_t>(index),
                                 m.deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) != 0)
      fail("store " + m.name);
  }
  if (zip_close(z) != 0) fail("build the archive");

  std::vector<uint8_t> bytes;
  bool ok = zip_source_open(buffer) == 0;
  if (ok) {
    ok = zip_source_seek(buffer, 0, SEEK_END) == 0;
    zip_int64_t size = ok ? zip_source_tell(buffer) : -1;
    ok = size >= 0 && zip_source_seek(buffer, 0, SEEK_SET) == 0;
    if (ok) {
      bytes.resize(static_cast<size_t>(size));
      ok = bytes.empty() || zip_source_read(buffer, bytes.data(), bytes.size()) == size;
    }
    zip_source_close(buffer);
  }
  zip_source_free(buffer);
  check<IOError>(ok, who, ": cannot read back the archive built for ", path, ".");
  return bytes;
}

}  // namespace keras::saving

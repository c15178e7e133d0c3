#include "keras/saving/archive.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "keras/core/errors.h"

namespace keras::saving {
namespace {

// Every allocation must be justified by the archive's bytes (zip bombs, lying headers):
// - a stored member holds exactly its declared size;
// - a deflated member inflates at most ~1032 times (deflate's maximum ratio) its compressed
//   size (plus a little for tiny members), and all deflated members together at most
//   kMaxInflatedTotal;
// - other methods (bzip2, xz, zstd ... ratios without a useful bound) are refused: Keras
//   writes ZIP_STORED, numpy's savez_compressed ZIP_DEFLATED.
// Data is read in chunks, so even a member whose declared size passed these checks allocates
// only what actually inflates. Keras's own rule (more than 4 GiB and 100 times the stored
// size, keras/src/saving/saving_lib.py) is stricter here.
constexpr uint64_t kDeflateRatio = 1032;
constexpr uint64_t kDeflateSlack = 1024;
constexpr uint64_t kMaxInflatedTotal = uint64_t{4} << 30;
constexpr zip_int64_t kMaxMembers = 10000;  // Keras writes 3 plus its asset files
constexpr size_t kMaxNameBytes = 4096;
constexpr size_t kChunk = size_t{1} << 20;

// Why `name` cannot be a member name of a file keras-cpp reads, or "" when it is fine:
// absolute paths, ".." anywhere, backslashes, drive letters, control characters.
std::string bad_name(const std::string& name) {
  if (name.empty()) return "an empty name";
  if (name.size() > kMaxNameBytes) return "a name longer than 4096 bytes";
  if (name.front() == '/') return "an absolute path";
  if (name.find('\\') != std::string::npos) return "a backslash";
  if (name.size() >= 2 && name[1] == ':') return "a drive letter";
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return "a control character";
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    std::string part = name.substr(start, slash == std::string::npos ? std::string::npos
                                                                     : slash - start);
    if (part == "..") return "a '..' path component (path traversal)";
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return "";
}

// A member name as it can be printed in an error message.
std::string printable(const std::string& name) {
  std::string out;
  for (unsigned char c : name.substr(0, 200)) {
    if (c < 0x20 || c == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (name.size() > 200) out += "...";
  return out;
}

}  // namespace

// The whole file in one pass, up to its end as it is while read (a file that grows or shrinks
// meanwhile gives whatever bytes were there; the parsers then accept or refuse them). A failed
// read is an error naming the cause, never a silently short buffer.
std::vector<uint8_t> read_file_bytes(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IOError("Cannot open " + path + " for reading: " + std::strerror(errno) + ".");
  std::vector<uint8_t> bytes;
  struct stat info {};
  if (::fstat(fd, &info) != 0) info.st_mode = 0;
  if (S_ISDIR(info.st_mode)) {
    ::close(fd);
    throw IOError("Cannot read " + path + ": it is a folder.");
  }
  if (S_ISREG(info.st_mode) && info.st_size > 0) bytes.reserve(static_cast<size_t>(info.st_size));
  uint8_t chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::string why = std::strerror(errno);
      ::close(fd);
      throw IOError("Cannot read " + path + ": " + why + ".");
    }
    if (n == 0) break;
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  ::close(fd);
  return bytes;
}

bool is_zip(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0;
}

std::map<std::string, std::vector<uint8_t>> read_zip_members(const std::vector<uint8_t>& bytes,
                                                             const std::string& source) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (!src) {
    zip_error_fini(&error);
    throw IOError("Cannot read " + source + " as a zip archive.");
  }
  zip_t* z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!z) {
    zip_source_free(src);
    if (zip_error_code_zip(&error) == ZIP_ER_EXISTS) {
      zip_error_fini(&error);
      throw IOError("Refusing " + source + ": two of its members have the same name.");
    }
    std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw IOError("Cannot read " + source + " as a zip archive: " + why + ".");
  }
  zip_error_fini(&error);
  std::unique_ptr<zip_t, void (*)(zip_t*)> guard(z, zip_discard);
  std::map<std::string, std::vector<uint8_t>> members;
  const zip_int64_t count = zip_get_num_entries(z, 0);
  check<IOError>(count >= 0, "Cannot read the member list of ", source, ".");
  check<IOError>(count <= kMaxMembers, "Refusing ", source, ": it has ", count,
                 " members, more than the limit of ", kMaxMembers, ".");
  // First every member's name and declared size, so nothing is read from a bad archive.
  struct Entry {
    zip_uint64_t index;
    std::string name;
    zip_uint64_t size;
  };
  std::vector<Entry> entries;
  uint64_t inflated_total = 0;
  uint64_t stored_total = 0;
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    // The raw name: libzip would otherwise translate CP437 bytes (control characters too).
    if (zip_stat_index(z, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW, &st) != 0 || !st.name)
      throw IOError("Cannot read entry " + std::to_string(i) + " of " + source + ".");
    const std::string name(st.name);
    check<IOError>((st.valid & ZIP_STAT_SIZE) && (st.valid & ZIP_STAT_COMP_SIZE) &&
                       (st.valid & ZIP_STAT_COMP_METHOD),
                   "Member '", printable(name), "' of ", source, " has no size information.");
    const std::string why = bad_name(name);
    check<IOError>(why.empty(), "Refusing ", source, ": member '", printable(name), "' has ", why,
                   ".");
    check<IOError>(!members.count(name), "Refusing ", source, ": member '", printable(name),
                   "' appears more than once.");
    members[name];  // reserves the name; filled below
    if (name.back() == '/') continue;  // a directory entry: no data
    check<IOError>(st.comp_size <= bytes.size(), "Refusing ", source, ": member '",
                   printable(name), "' declares ", st.comp_size,
                   " compressed bytes, more than the archive holds.");
    // Members must not share bytes: many entries pointing at the same data (an overlapping
    // zip bomb) would multiply what a small archive can make us allocate.
    stored_total += st.comp_size;
    check<IOError>(stored_total <= bytes.size(), "Refusing ", source,
                   ": its members declare more compressed bytes than the archive holds; they "
                   "overlap (a zip bomb?). The limit ends at member '",
                   printable(name), "'.");
    if (st.comp_method == ZIP_CM_STORE) {
      check<IOError>(st.size == st.comp_size, "Refusing ", source, ": member '", printable(name),
                     "' is stored uncompressed but declares ", st.size, " bytes in ",
                     st.comp_size, ".");
    } else if (st.comp_method == ZIP_CM_DEFLATE) {
      check<IOError>(st.size <= st.comp_size * kDeflateRatio + kDeflateSlack, "Refusing ",
                     source, ": member '", printable(name), "' declares ", st.size,
                     " bytes from ", st.comp_size,
                     " compressed, more than deflate can produce (a zip bomb?).");
      inflated_total += st.size;
      check<IOError>(inflated_total <= kMaxInflatedTotal, "Refusing ", source,
                     ": its compressed members declare more than ", kMaxInflatedTotal,
                     " bytes in all (a zip bomb?); the limit ends at member '", printable(name),
                     "'.");
    } else {
      throw IOError(detail::cat("Refusing ", source, ": member '", printable(name),
                                "' uses zip compression method ", st.comp_method,
                                "; Keras files are stored or deflated."));
    }
    entries.push_back({static_cast<zip_uint64_t>(i), name, st.size});
  }
  for (const Entry& e : entries) {
    zip_file_t* f = zip_fopen_index(z, e.index, 0);
    if (!f) throw IOError("Cannot read member '" + printable(e.name) + "' of " + source + ".");
    std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file_guard(f, zip_fclose);
    std::vector<uint8_t>& data = members[e.name];
    // Grow with what actually arrives: a lying size costs at most one chunk.
    while (data.size() < e.size) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, e.size - data.size()));
      const size_t old = data.size();
      data.resize(old + want);
      zip_int64_t got = zip_fread(f, data.data() + old, want);
      data.resize(old + static_cast<size_t>(std::max<zip_int64_t>(got, 0)));
      if (got <= 0) break;
    }
    if (data.size() != e.size)
      throw IOError("Member '" + printable(e.name) + "' of " + source +
                    " is truncated or corrupt (" + std::to_string(data.size()) + " of " +
                    std::to_string(e.size) + " bytes).");
    // Reading one byte more makes libzip check the CRC at the end of the data.
    uint8_t extra;
    if (zip_fread(f, &extra, 1) != 0)
      throw IOError("Member '" + printable(e.name) + "' of " + source +
                    " is corrupt (more data than declared, or a bad checksum).");
  }
  return members;
}

}  // namespace keras::saving

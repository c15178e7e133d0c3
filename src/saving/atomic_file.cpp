// write_atomically: temporary file (O_EXCL, same folder), fsync, rename, fsync of the folder.

#include "keras/saving/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include "keras/core/errors.h"

namespace keras::saving {
namespace {

namespace fs = std::filesystem;

std::string errno_text() { return std::strerror(errno); }

// fsync of the file or folder at `path`; false (with errno set) on failure.
bool sync_path(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return false;
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  errno = saved;
  return rc == 0;
}

// Creates a fresh temporary file next to `target`; returns its path.
std::string create_temporary(const fs::path& target, mode_t mode) {
  std::random_device device;
  std::mt19937_64 rng((uint64_t{device()} << 32) ^ device() ^ static_cast<uint64_t>(::getpid()));
  const fs::path folder = target.parent_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = "." + target.filename().string() + ".tmp" + std::to_string(::getpid()) +
                       "-" + std::to_string(rng() % 1000000000);
    std::string tmp = (folder / name).string();
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) {
      ::close(fd);
      return tmp;
    }
    if (errno != EEXIST)
      throw IOError("Cannot create a temporary file " + tmp + " to write " + target.string() +
                    ": " + errno_text() + ".");
  }
  throw IOError("Cannot create a temporary file next to " + target.string() + ".");
}

}  // namespace

void write_atomically(const std::string& path,
                      const std::function<void(const std::string& tmp_path)>& writer) {
  const fs::path target(path);
  check<IOError>(!target.filename().empty(), "Cannot write ", path, ": it names a folder.");
  // Keep the permission bits of a file being replaced; a new file gets 0666 minus the umask.
  mode_t mode = 0666;
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0) {
    check<IOError>(!S_ISDIR(existing.st_mode), "Cannot write ", path, ": it is a folder.");
    mode = existing.st_mode & 07777;
  }
  const std::string tmp = create_temporary(target, mode);
  auto discard = [&] {
    std::error_code ec;
    fs::remove(tmp, ec);
  };
  // What every failure before the rename leaves, said so the user need not check.
  const std::string unchanged = " " + path + " is unchanged (the temporary file is removed).";
  try {
    writer(tmp);
  } catch (const IOError& e) {
    discard();
    throw IOError(e.what() + unchanged);
  } catch (...) {
    discard();
    throw;
  }
  if (!sync_path(tmp, O_RDONLY)) {
    std::string why = errno_text();
    discard();
    throw IOError("Cannot flush " + tmp + " (for " + path + ") to disk: " + why + "." + unchanged);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = errno_text();
    discard();
    throw IOError("Cannot move " + tmp + " over " + path + ": " + why + "." + unchanged);
  }
  // Make the rename itself durable. The new file is in place; a failure here is reported.
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (!sync_path(folder.string(), O_RDONLY | O_DIRECTORY))
    throw IOError("Wrote " + path + " but cannot flush its folder to disk: " + errno_text() +
                  ".");
}

void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_atomically(path, [&](const std::string& tmp) {
    int fd = ::open(tmp.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) throw IOError("Cannot open " + tmp + " for writing: " + errno_text() + ".");
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        std::string why = errno_text();
        ::close(fd);
        throw IOError("Cannot write " + path + ": " + why + ".");
      }
      done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0) throw IOError("Cannot write " + path + ": " + errno_text() + ".");
  });
}

}  // namespace keras::saving

#pragma once
// Atomic file replacement: a crash (or SIGKILL) at any moment of a save leaves either the old
// file or the new one at `path`, never a mix. The data goes to a temporary file in the same
// folder, is fsynced, renamed over `path`, and the folder is fsynced so the rename is durable.
//
//   keras::saving::write_atomically("run/model.weights.h5", [&](const std::string& tmp) {
//     write_hdf5_to(tmp);   // any writer that takes a path
//   });

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::saving {

/// Calls `writer` with the path of a fresh, empty temporary file in the folder of `path`
/// (named ".<file name>.tmp<pid>-<random>", so no loader mistakes it for the target), then
/// fsyncs it, renames it over `path` and fsyncs the folder. If `writer` throws or any step
/// fails, the temporary file is removed, `path` is left as it was, and the error is rethrown
/// (an IOError naming `path` for failures of this function itself). An existing target keeps
/// its permission bits.
void write_atomically(const std::string& path,
                      const std::function<void(const std::string& tmp_path)>& writer);

/// `bytes` written to `path` atomically (see write_atomically).
void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace keras::saving

#pragma GCC visibility pop

#include "serve/version_folders.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "keras/core/errors.h"

namespace keras::serving {

namespace fs = std::filesystem;

namespace {

// The version a folder name stands for: a non-negative integer written in digits only.
bool version_of(const std::string& name, int64_t& version) {
  if (name.empty() || name.size() > 18 || name.find_first_not_of("0123456789") != std::string::npos)
    return false;
  version = std::strtoll(name.c_str(), nullptr, 10);
  return true;
}

}  // namespace

std::map<int64_t, std::string> version_folders(const std::string& base) {
  std::map<int64_t, std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    int64_t version = 0;
    if (it->is_directory(ec) && version_of(it->path().filename().string(), version))
      out[version] = it->path().string();
  }
  return out;
}

std::string model_file_in(const std::string& version_folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(version_folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string ext = it->path().extension().string();
    if (it->is_regular_file(ec) && (ext == ".keras" || ext == ".h5"))
      files.push_back(it->path().string());
  }
  if (files.size() != 1)
    throw ValueError("the version folder " + version_folder + " holds " +
                     std::to_string(files.size()) +
                     " model files (.keras or .h5); a version folder holds exactly one");
  return files[0];
}

}  // namespace keras::serving

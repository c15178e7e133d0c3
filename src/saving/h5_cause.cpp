// hdf5_cause: the errno of the innermost failed system call on libhdf5's error stack.

#include "saving/h5_cause.h"

#include <hdf5.h>

#include <cstdlib>
#include <cstring>

namespace keras::saving::detail {
namespace {

// Walked innermost first: the first entry naming an errno is the system call that failed.
herr_t find_errno(unsigned, const H5E_error2_t* entry, void* data) {
  int& found = *static_cast<int*>(data);
  if (found != 0 || entry == nullptr || entry->desc == nullptr) return 0;
  if (const char* at = std::strstr(entry->desc, "errno = ")) {
    int value = std::atoi(at + 8);
    if (value > 0) found = value;
  }
  return 0;
}

}  // namespace

std::string hdf5_cause() {
  int found = 0;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, find_errno, &found);
  if (found == 0) return "";
  return std::string(": ") + std::strerror(found);
}

}  // namespace keras::saving::detail

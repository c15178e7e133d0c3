#pragma once
// Why an HDF5 call failed, in words a user can act on. libhdf5 reports a failed system call
// (write, open, ...) on its error stack as "..., errno = 28, error message = '...'" (a format
// h5py and others parse too); the caller's errno is not reliable after the library unwinds.

#include <string>

namespace keras::saving::detail {

/// ": <strerror>" for the system error on the current thread's HDF5 error stack, or "" when
/// the last HDF5 failure was not a system call. Call it right after the failing HDF5 call: the
/// next HDF5 call clears the stack.
std::string hdf5_cause();

}  // namespace keras::saving::detail

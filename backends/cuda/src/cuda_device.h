#pragma once
// Whether this machine has CUDA devices (and a driver): the cuda backend registers one backend
// per device, and the GPU tests skip with one line where there is none.

#include <string>

namespace keras::cuda {

/// The number of CUDA devices the driver shows (0 without a driver).
int device_count();
bool device_present();

/// The backend name of a device: "cuda" for the first (alias "cuda:0"), "cuda:1", ...
std::string backend_name_of_device(int device);

}  // namespace keras::cuda

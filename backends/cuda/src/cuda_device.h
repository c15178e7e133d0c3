#pragma once
// Whether this machine has a CUDA device (and a driver): the cuda backend registers only then,
// and the GPU tests skip with one line otherwise.

namespace keras::cuda {

bool device_present();

}  // namespace keras::cuda

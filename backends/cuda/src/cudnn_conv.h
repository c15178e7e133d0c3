#pragma once
// The cuda backend's convolutions through cuDNN (built when CMake finds it): forward, gradient
// of the input, gradient of the filter, on packed device arrays described by CudnnConv. Float32
// runs in FMA math (no TF32: the cpu backend's arithmetic, as PyTorch with allow_tf32 off);
// float64 in double; float16 and bfloat16 data on tensor cores accumulating in float32. The
// algorithm is cuDNN's heuristic choice, deterministic ones first, so a step gives the same bits
// every run; it is asked once per problem shape and remembered. Calls are serialized (a cuDNN
// handle serves one thread at a time).

#include <cstddef>
#include <memory>
#include <vector>

#include "conv_geometry.h"
#include "keras/core/dtype.h"
#include "kernels.h"  // Scratch

namespace keras::cuda {

/// The output dims (N, C, *spatial) cuDNN derives from `c`'s descriptors, which it validates
/// (host only: no device or handle needed, so tests run it anywhere).
std::vector<int> cudnn_output_dims(const CudnnConv& c, DType dtype);

class Cudnn {
 public:
  /// A cuDNN handle on the current device (created on first use).
  Cudnn();
  ~Cudnn();
  Cudnn(const Cudnn&) = delete;
  Cudnn& operator=(const Cudnn&) = delete;

  /// y = conv(x, w).
  void forward(const CudnnConv& c, DType dtype, const void* x, const void* w, void* y,
               const Scratch& workspace);
  /// dx = the gradient of conv(., w) applied to dy.
  void backward_data(const CudnnConv& c, DType dtype, const void* dy, const void* w, void* dx,
                     const Scratch& workspace);
  /// dw = the gradient of conv(x, .) applied to dy.
  void backward_filter(const CudnnConv& c, DType dtype, const void* x, const void* dy, void* dw,
                       const Scratch& workspace);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace keras::cuda

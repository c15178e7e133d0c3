#pragma once
// Whether the torch backend runs on GPUs in this program: it does where keras-cpp was built
// against a CUDA LibTorch (a PyTorch wheel's) whose CUDA library loads, and the machine has
// GPUs; the backends are then "torch:cuda" (alias "torch:cuda:0"), "torch:cuda:1", ...

#include <string>

#pragma GCC visibility push(default)
namespace keras::torch_interop {

/// Why no torch backend runs on a GPU here ("" when "torch:cuda" is registered): LibTorch is a
/// CPU-only build, its CUDA library does not load (the loader's message), or no GPU is seen.
std::string torch_cuda_unavailable_reason();

}  // namespace keras::torch_interop
#pragma GCC visibility pop

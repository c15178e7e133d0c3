// The torch backend's devices: "torch" on the CPU (alias "torch:cpu"), and "torch:cuda", ... on
// the GPUs of a CUDA LibTorch. The GPU tests compare torch:cuda with ATen's own CPU results and
// skip with one line where no GPU backend is registered (here: why, from the backend itself).

#include <gtest/gtest.h>

#include <ATen/ATen.h>

#include <algorithm>
#include <string>
#include <vector>

#include "keras/backend/registry.h"
#include "keras/keras.h"
#include "keras/torch/cuda.h"
#include "keras/torch/interop.h"

namespace keras {
namespace {

bool torch_cuda_registered() {
  const std::vector<std::string> names = backend::available();
  return std::find(names.begin(), names.end(), "torch:cuda") != names.end();
}

#define KERAS_REQUIRE_TORCH_CUDA()                              \
  if (!torch_cuda_registered())                                 \
  GTEST_SKIP() << "no torch backend on a GPU in this program (" \
               << torch_interop::torch_cuda_unavailable_reason() << "): skipped"

TEST(TorchDevices, CpuNamesAndDevice) {
  EXPECT_EQ(&backend::get("torch:cpu"), &backend::get("torch"));
  EXPECT_EQ(backend::get("torch").device(), "cpu:0");
  EXPECT_TRUE(backend::get("torch").is_host());
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2}, Shape{2}).to("torch:cpu");
  EXPECT_EQ(x.backend_name(), "torch");
}

TEST(TorchDevices, EitherAGpuBackendOrTheReasonWhyNot) {
  const std::string why = torch_interop::torch_cuda_unavailable_reason();
  EXPECT_EQ(why.empty(), torch_cuda_registered()) << why;
  if (!torch_cuda_registered()) {
    // The reasons this program can have: a CPU-only LibTorch, a CUDA one whose library does not
    // load (no nvidia-* libraries), or one that sees no GPU.
    EXPECT_TRUE(why.find("libtorch_cuda.so") != std::string::npos ||
                why.find("no GPU") != std::string::npos)
        << why;
    EXPECT_THROW(backend::get("torch:cuda:0"), ValueError);
  }
}

TEST(TorchDevices, GpuTensorsLiveOnTheGpuAndShareWithATen) {
  KERAS_REQUIRE_TORCH_CUDA();
  backend::Backend& gpu = backend::get("torch:cuda");
  EXPECT_EQ(&backend::get("torch:cuda:0"), &gpu);
  EXPECT_EQ(gpu.device(), "cuda:0");
  EXPECT_FALSE(gpu.is_host());
  const std::vector<std::string> devices = backend::list_devices();
  EXPECT_NE(std::find(devices.begin(), devices.end(), "cuda:0"), devices.end());

  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}).to("torch:cuda");
  at::Tensor t = torch_interop::to_torch(x);
  EXPECT_TRUE(t.is_cuda());
  EXPECT_EQ(t.data_ptr(), x.array().data());  // the same device memory
  t.mul_(10);
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{10, 20, 30, 40, 50, 60}));
  Tensor back = torch_interop::from_torch(t, "torch:cuda");
  EXPECT_EQ(back.array().data(), t.data_ptr());         // no copy
  Tensor on_cpu = torch_interop::from_torch(t, "cpu");  // copied to the host
  EXPECT_EQ(on_cpu.to_vector<float>(), x.to_vector<float>());
}

TEST(TorchDevices, GpuPrimitivesAgreeWithATenOnTheCpu) {
  KERAS_REQUIRE_TORCH_CUDA();
  // Random bits are ours on every device; products and reductions against ATen's CPU kernels.
  Tensor r_cpu, r_gpu;
  {
    backend::BackendScope scope("torch");
    r_cpu = random::uniform({64, 32}, 0, 1, DType::Float32, 7);
  }
  {
    backend::BackendScope scope("torch:cuda");
    r_gpu = random::uniform({64, 32}, 0, 1, DType::Float32, 7);
    EXPECT_EQ(r_gpu.backend_name(), "torch:cuda");
  }
  EXPECT_EQ(r_gpu.to_vector<float>(), r_cpu.to_vector<float>());
  Tensor w = r_gpu.slice({{0, 32}});  // (32, 32)
  Tensor y = ops::sum(ops::relu(ops::matmul(r_gpu, w)), ops::Axes{1});
  at::Tensor a = torch_interop::to_torch(r_cpu).to(at::kDouble);
  at::Tensor expected = at::relu(at::matmul(a, a.narrow(0, 0, 32))).sum(1);
  const std::vector<float> got = y.to("cpu").to_vector<float>();
  ASSERT_EQ(static_cast<int64_t>(got.size()), expected.numel());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[static_cast<int64_t>(i)].item<double>(), 1e-4) << i;
}

}  // namespace
}  // namespace keras

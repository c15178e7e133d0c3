// Compiled steps as CUDA graphs (keras/backend/capture.h): a Program records its calls once
// through CUDA stream capture and launches the graph on every later replay, one launch instead
// of one per kernel. The recording thread's calls go to the capture stream (select_device), with
// a cuBLAS handle of its own; memory the recording allocates stays in an allocator pool that the
// graph owns. Capture runs in relaxed mode, so the allocator may still call cudaMalloc while
// recording (it is not captured; the block simply becomes the pool's).

#include <memory>
#include <string>

#include "capability_switch.h"
#include "cuda_backend.h"

namespace keras::cuda {

// A graph ready to launch on the backend's stream, and the memory its kernels use.
class CudaGraph final : public backend::CapturedWork {
 public:
  CudaGraph(CudaBackend& backend, cudaGraphExec_t exec, uint64_t pool)
      : backend_(backend), exec_(exec), pool_(pool) {}
  ~CudaGraph() override {
    // A launch may still be running: it finishes before its memory can go to anyone else.
    cudaSetDevice(backend_.device_);
    cudaStreamSynchronize(backend_.stream_);
    cudaGraphExecDestroy(exec_);
    backend_.allocator_.release_pool(pool_);
  }
  void launch() override {
    backend_.select_device();
    check(cudaGraphLaunch(exec_, backend_.stream_), "launching a CUDA graph");
  }

 private:
  CudaBackend& backend_;
  cudaGraphExec_t exec_;
  uint64_t pool_;
};

bool CudaBackend::capture_enabled() const {
  return (disabled_by_environment() & kGraphsBit) == 0;
}

void CudaBackend::begin_capture() {
  std::unique_lock<std::mutex> lock(capture_mutex_);
  capture_idle_.wait(lock, [this] { return !capturing_; });
  capturing_ = true;
  try {
    check(cudaSetDevice(device_), "cudaSetDevice");
    if (!capture_stream_) {
      // Made outside any capture: creating handles and their memory cannot be recorded.
      constexpr size_t kWorkspace = size_t{32} << 20;  // cuBLAS's advice for Hopper
      check(cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking),
            "creating the capture stream");
      check(cublasCreate(&capture_cublas_), "cublasCreate");
      check(cublasSetStream(capture_cublas_, capture_stream_), "cublasSetStream");
      check(cublasSetMathMode(capture_cublas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
      check(cudaMalloc(&capture_workspace_, kWorkspace), "cuBLAS's workspace for graphs");
      check(cublasSetWorkspace(capture_cublas_, capture_workspace_, kWorkspace),
            "cublasSetWorkspace");
    }
    allocator_.begin_pool();
    const cudaError_t begun = cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeRelaxed);
    if (begun != cudaSuccess) {
      allocator_.release_pool(allocator_.end_pool());
      check(begun, "cudaStreamBeginCapture");
    }
  } catch (...) {
    capturing_ = false;
    capture_idle_.notify_all();
    throw;
  }
  capture_thread_.store(std::this_thread::get_id(), std::memory_order_release);
}

uint64_t CudaBackend::finish_recording() {
  const uint64_t pool = allocator_.end_pool();
  capture_thread_.store(std::thread::id(), std::memory_order_release);
  std::lock_guard<std::mutex> lock(capture_mutex_);
  capturing_ = false;
  capture_idle_.notify_all();
  return pool;
}

std::unique_ptr<backend::CapturedWork> CudaBackend::end_capture() {
  cudaSetDevice(device_);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(capture_stream_, &graph);
  const uint64_t pool = finish_recording();
  cudaGraphExec_t exec = nullptr;
  cudaError_t made = ended;
  if (made == cudaSuccess) made = cudaGraphInstantiate(&exec, graph, 0);
  if (graph) cudaGraphDestroy(graph);
  if (made != cudaSuccess) {
    cudaGetLastError();  // clear it: the calls will run one by one instead
    allocator_.release_pool(pool);
    throw RuntimeError(std::string("cuda backend: the step could not be made a CUDA graph (") +
                       cudaGetErrorString(made) + ")");
  }
  return std::make_unique<CudaGraph>(*this, exec, pool);
}

void CudaBackend::abort_capture() noexcept {
  cudaSetDevice(device_);
  cudaGraph_t graph = nullptr;
  cudaStreamEndCapture(capture_stream_, &graph);
  if (graph) cudaGraphDestroy(graph);
  cudaGetLastError();
  allocator_.release_pool(finish_recording());
}

}  // namespace keras::cuda

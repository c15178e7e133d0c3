// The cuda backend: storage in device memory (a caching allocator over cudaMalloc), every
// primitive of the contract as a kernel (kernels.cu) or cuBLAS (float matmul), in order on one
// stream of its device. Host reads copy back with cudaMemcpy on the legacy default stream,
// which waits for the backend's stream. The fused capabilities are in cuda_fused.cpp and
// cuda_conv.cpp; compiled steps become CUDA graphs in cuda_graphs.cpp.
//
// Linking keras_cuda registers "cuda" when the machine has a CUDA device; elsewhere the name is
// absent and programs run on the other backends.

#include "cuda_backend.h"

#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "gemm_layout.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/core/half.h"
#include "keras/cuda/memory.h"

namespace keras::cuda {

// The bytes of `value` in `dtype`, as the cpu backend's fill writes them.
void scalar_bytes(const Scalar& value, DType dtype, unsigned char* out) {
  auto put = [&](auto v) { std::memcpy(out, &v, sizeof(v)); };
  switch (dtype) {
    case DType::Bool: return put(value.to<bool>());
    case DType::Int8: return put(value.to<int8_t>());
    case DType::Int16: return put(value.to<int16_t>());
    case DType::Int32: return put(value.to<int32_t>());
    case DType::Int64: return put(value.to<int64_t>());
    case DType::UInt8: return put(value.to<uint8_t>());
    case DType::Float16: return put(value.to<float16_t>());
    case DType::BFloat16: return put(value.to<bfloat16_t>());
    case DType::Float32: return put(value.to<float>());
    case DType::Float64: return put(value.to<double>());
    case DType::Complex64:
    case DType::Complex128:
      keras::detail::throw_complex_not_supported(dtype);  // kernels see real views only
    case DType::String:
      keras::detail::throw_string_not_supported();  // strings live on their own host backend
  }
}

namespace {

// c (batch, M, N) packed = a (batch, M, K) @ b (batch, K, N), each operand as cuBLAS reads it
// in place (gemm_layout.h): cuBLAS's S/DGEMM in plain FP32/FP64 math.
template <typename T>
void strided_batched_gemm(cublasHandle_t handle, const GemmMatrix& ma, const char* a,
                          const GemmMatrix& mb, const char* b, char* c, int64_t batch, int64_t M,
                          int64_t N, int64_t K) {
  const GemmCall g = gemm_call(ma, mb, M, N, K);
  const T one = 1, zero = 0;
  const cublasOperation_t op_first = g.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_second = g.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N;
  const T* first = reinterpret_cast<const T*>(b);
  const T* second = reinterpret_cast<const T*>(a);
  T* cp = reinterpret_cast<T*>(c);
  if constexpr (std::is_same_v<T, double>)
    check(cublasDgemmStridedBatched(handle, op_first, op_second, g.m, g.n, g.k, &one, first,
                                    g.ld_first, g.stride_first, second, g.ld_second,
                                    g.stride_second, &zero, cp, g.ldc, g.stride_c, batch),
          "cublasDgemmStridedBatched");
  else
    check(cublasSgemmStridedBatched(handle, op_first, op_second, g.m, g.n, g.k, &one, first,
                                    g.ld_first, g.stride_first, second, g.ld_second,
                                    g.stride_second, &zero, cp, g.ldc, g.stride_c, batch),
          "cublasSgemmStridedBatched");
}

// The same for float16 or bfloat16 operands and result (`type`), accumulating in float32
// (CUBLAS_COMPUTE_32F: the products of half values are exact in float32, as cpu computes them;
// the sum is rounded once into the result's dtype), on tensor cores.
void strided_batched_gemm_half(cublasHandle_t handle, cudaDataType type, const GemmMatrix& ma,
                               const char* a, const GemmMatrix& mb, const char* b, char* c,
                               int64_t batch, int64_t M, int64_t N, int64_t K) {
  const GemmCall g = gemm_call(ma, mb, M, N, K);
  const float one = 1, zero = 0;
  check(cublasGemmStridedBatchedEx(handle, g.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N,
                                   g.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N, g.m, g.n, g.k, &one,
                                   b, type, g.ld_first, g.stride_first, a, type, g.ld_second,
                                   g.stride_second, &zero, c, type, g.ldc, g.stride_c, batch,
                                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx");
}

}  // namespace

CudaBackend::CudaBackend(int device)
    : device_(device),
      name_(backend_name_of_device(device)),
      allocator_(
          [this](size_t n) -> void* {
            select_device();
            void* p = nullptr;
            if (cudaMalloc(&p, n) != cudaSuccess) {
              cudaGetLastError();  // clear the sticky out-of-memory error
              return nullptr;
            }
            return p;
          },
          [](void* p) { cudaFree(p); }) {
  check(cudaSetDevice(device_), "cudaSetDevice");
  // Blocking (the default flags): the legacy stream's copies order with it.
  check(cudaStreamCreate(&stream_), "cudaStreamCreate");
  check(cublasCreate(&cublas_), "cublasCreate");
  check(cublasSetStream(cublas_, stream_), "cublasSetStream");
  // Plain float32 products (no TF32), as the cpu backend computes them.
  check(cublasSetMathMode(cublas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

CudaBackend::~CudaBackend() {
  cublasDestroy(cublas_);
  if (capture_cublas_) cublasDestroy(capture_cublas_);
  if (capture_workspace_) cudaFree(capture_workspace_);
  if (capture_stream_) cudaStreamDestroy(capture_stream_);
  cudaStreamDestroy(stream_);
}

// out (..., M, N) = a (..., M, K) @ b (..., K, N), batch axes broadcast by strides: each operand
// read in place when cuBLAS can (gemm_layout.h), else packed in out's dtype; one strided-batched
// cuBLAS product (float16 and bfloat16 accumulating in float32, as cpu computes them), and a
// copy into out when out is not packed.
void CudaBackend::matmul(const Array& out, const Array& a, const Array& b) {
  select_device();
  const int r = out.rank();
  const int64_t M = out.shape[r - 2], N = out.shape[r - 1], K = a.shape[r - 1];
  int64_t batch = 1;
  for (int d = 0; d < r - 2; ++d) batch *= out.shape[d];
  if (M == 0 || N == 0 || batch == 0) return;
  if (K == 0) return fill(out, Scalar(0));
  const DType work = out.dtype;
  const bool floating = is_floating(work);
  const Shape batch_shape(out.shape.begin(), out.shape.end() - 2);
  // `x` as a batch of rows x cols matrices over the product's batch axes (its own extent-1
  // batch axes broadcast), read in place when cuBLAS can, else packed into `held`.
  auto prepare = [&](const Array& x, int64_t rows, int64_t cols, Array& held) {
    Array view = x;
    view.shape = batch_shape;
    view.shape.push_back(rows);
    view.shape.push_back(cols);
    for (int d = 0; d < r - 2; ++d)
      if (x.shape[d] == 1) view.strides[d] = 0;
    std::optional<GemmMatrix> m;
    if (floating && x.dtype == work) m = gemm_matrix(batch_shape, rows, cols, view.strides);
    held = m ? view : contiguous(view, view.shape, work);
    if (!m) m = gemm_matrix(batch_shape, rows, cols, held.strides);
    return *m;
  };
  Array ah, bh;
  const GemmMatrix ma = prepare(a, M, K, ah), mb = prepare(b, K, N, bh);
  const bool direct = out.is_contiguous();
  Array c = direct ? out : empty(out.shape, work);
  const Operand co = operand(c), ao = operand(ah), bo = operand(bh);
  if (!floating) {
    launch_matmul_integer(co, ao, bo, batch, M, N, K);  // (packed operands: see prepare)
  } else if (batch > INT_MAX) {
    throw NotImplementedError("cuda backend: a product of " + std::to_string(batch) +
                              " batches (cuBLAS takes at most 2^31 - 1)");
  } else if (work == DType::Float64) {
    strided_batched_gemm<double>(cublas(), ma, ao.base, mb, bo.base, co.base, batch, M, N, K);
  } else if (work != DType::Float32) {
    strided_batched_gemm_half(cublas(), work == DType::Float16 ? CUDA_R_16F : CUDA_R_16BF, ma,
                              ao.base, mb, bo.base, co.base, batch, M, N, K);
  } else {
    strided_batched_gemm<float>(cublas(), ma, ao.base, mb, bo.base, co.base, batch, M, N, K);
  }
  if (!direct) copy(out, c, backend::CopyMode::Assign);
}

namespace {

// Linking this object (the keras_cuda target) makes "cuda" (the first GPU, also "cuda:0"),
// "cuda:1", ... backend names where devices are.
[[maybe_unused]] const bool registered = [] {
  for (int d = 0; d < device_count(); ++d)
    backend::register_backend(backend_name_of_device(d),
                              [d] { return std::make_unique<CudaBackend>(d); });
  if (device_present()) backend::register_alias("cuda:0", "cuda");
  return true;
}();

// The backend `name` names, when it is a cuda backend.
CudaBackend& cuda_backend(std::string_view name) {
  backend::Backend* named = nullptr;
  try {
    named = &backend::get(name);
  } catch (const ValueError&) {  // not registered: answered below
  }
  if (auto* b = dynamic_cast<CudaBackend*>(named)) return *b;
  throw ValueError(
      "keras::cuda memory functions: '" + std::string(name) + "' is not a cuda backend (" +
      (device_present() ? "use \"cuda\", \"cuda:1\", ..." : "this machine has no GPU") + ").");
}

}  // namespace

MemoryStats memory_stats(std::string_view backend) {
  const CachingAllocator::Stats s = cuda_backend(backend).allocator().stats();
  return {.allocated_bytes = s.in_use_bytes,
          .reserved_bytes = s.in_use_bytes + s.cached_bytes + s.pooled_bytes,
          .peak_allocated_bytes = s.peak_in_use_bytes,
          .device_allocations = s.raw_allocations,
          .cache_hits = s.cache_hits};
}

void reset_peak_memory_stats(std::string_view backend) {
  cuda_backend(backend).allocator().reset_peak();
}

void empty_cache(std::string_view backend) {
  cuda_backend(backend).allocator().empty_cache();
}

int device_count() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  cudaGetLastError();  // no driver or no device: clear the error, leave "cuda" out
  return devices;
}

bool device_present() {
  return device_count() > 0;
}

std::string backend_name_of_device(int device) {
  return device == 0 ? "cuda" : "cuda:" + std::to_string(device);
}

}  // namespace keras::cuda

#include "cudnn_conv.h"

#include <cudnn.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "keras/core/errors.h"
#include "stream.h"

// cuDNN 9 marks the descriptor API deprecated in favour of its graph API; it is present in
// every cuDNN 9 and is the API PyTorch's own convolutions still fall back to.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace keras::cuda {
namespace {

void check(cudnnStatus_t s, const char* what) {
  if (s != CUDNN_STATUS_SUCCESS)
    throw RuntimeError(std::string("cuda backend: ") + what + ": " + cudnnGetErrorString(s));
}

cudnnDataType_t data_type(DType dtype) {
  switch (dtype) {
    case DType::Float64:
      return CUDNN_DATA_DOUBLE;
    case DType::Float32:
      return CUDNN_DATA_FLOAT;
    case DType::Float16:
      return CUDNN_DATA_HALF;
    case DType::BFloat16:
      return CUDNN_DATA_BFLOAT16;
    default:
      throw NotImplementedError(std::string("cuda backend: cuDNN convolution in ") +
                                std::string(dtype_name(dtype)) + " (floating dtypes only)");
  }
}

// A cuDNN descriptor owned for the length of one call.
template <typename T, cudnnStatus_t (*Create)(T*), cudnnStatus_t (*Destroy)(T)>
struct Owned {
  T d = nullptr;
  Owned() { check(Create(&d), "creating a descriptor"); }
  ~Owned() { Destroy(d); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
};

// The descriptors of a convolution, and alpha = 1, beta = 0 in its scaling type (double for
// float64 data, float otherwise, half-precision data included).
struct Described {
  Owned<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor> x, y;
  Owned<cudnnFilterDescriptor_t, cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor> w;
  Owned<cudnnConvolutionDescriptor_t, cudnnCreateConvolutionDescriptor,
        cudnnDestroyConvolutionDescriptor>
      conv;
  float one_f = 1, zero_f = 0;
  double one_d = 1, zero_d = 0;
  const void* one = &one_f;
  const void* zero = &zero_f;

  Described(const CudnnConv& c, DType dtype) {
    const cudnnDataType_t t = data_type(dtype);
    if (t == CUDNN_DATA_DOUBLE) {
      one = &one_d;
      zero = &zero_d;
    }
    check(cudnnSetTensorNdDescriptor(x.d, t, c.x.rank, c.x.dims, c.x.strides), "input descriptor");
    check(cudnnSetTensorNdDescriptor(y.d, t, c.y.rank, c.y.dims, c.y.strides), "output descriptor");
    check(cudnnSetFilterNdDescriptor(w.d, t,
                                     c.filter_channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW,
                                     c.spatial + 2, c.filter),
          "filter descriptor");
    // Half-precision data accumulates in float32 (cuDNN's "pseudo half" configuration), as
    // the cpu backend computes it.
    const cudnnDataType_t compute = t == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    check(cudnnSetConvolutionNdDescriptor(conv.d, c.spatial, c.pad, c.stride, c.dilation,
                                          CUDNN_CROSS_CORRELATION, compute),
          "convolution descriptor");
    check(cudnnSetConvolutionGroupCount(conv.d, c.groups), "group count");
    // FMA math: no TF32 tensor cores for float32 (CUDNN_DEFAULT_MATH would allow them); tensor
    // cores for half-precision data.
    check(cudnnSetConvolutionMathType(conv.d, t == CUDNN_DATA_FLOAT    ? CUDNN_FMA_MATH
                                              : t == CUDNN_DATA_DOUBLE ? CUDNN_DEFAULT_MATH
                                                                       : CUDNN_TENSOR_OP_MATH),
          "math type");
  }
};

// The algorithms cuDNN's heuristics found usable, deterministic ones first (stable: in the
// heuristics' order otherwise).
template <typename Perf>
auto usable(const Perf* perf, int count) {
  std::vector<Perf> found;
  for (int i = 0; i < count; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS) found.push_back(perf[i]);
  std::stable_partition(found.begin(), found.end(),
                        [](const Perf& p) { return p.determinism == CUDNN_DETERMINISTIC; });
  std::vector<decltype(perf->algo)> out;
  for (const Perf& p : found) out.push_back(p.algo);
  return out;
}

// A problem's key in the algorithm cache: its direction, dtype and every descriptor field.
std::vector<int> cache_key(char direction, const CudnnConv& c, DType dtype) {
  std::vector<int> k{direction, static_cast<int>(dtype),        c.spatial,
                     c.groups,  c.filter_channels_last ? 1 : 0, c.x.rank,
                     c.y.rank};
  auto add = [&](const int* v, int n) { k.insert(k.end(), v, v + n); };
  for (const int* v : {c.x.dims, c.x.strides, c.y.dims, c.y.strides, c.filter}) add(v, 5);
  for (const int* v : {c.pad, c.stride, c.dilation}) add(v, 3);
  return k;
}

// Runs the problem with the algorithm that ran it before, else the first of `find()` that
// accepts it (one may still refuse FMA math or the layout: CUDNN_STATUS_NOT_SUPPORTED moves on
// to the next), remembered for the next call: the heuristics are asked once per shape.
template <typename Algo, typename Find, typename Size, typename Run>
void run_cached(std::map<std::vector<int>, int>& cache, const std::vector<int>& key, Find find,
                Size size, Run run, const Scratch& workspace, const char* what) {
  auto attempt = [&](Algo algo) {
    size_t bytes = 0;
    cudnnStatus_t s = size(algo, &bytes);
    if (s == CUDNN_STATUS_SUCCESS) s = run(algo, bytes ? workspace(bytes) : nullptr, bytes);
    if (s != CUDNN_STATUS_SUCCESS && s != CUDNN_STATUS_NOT_SUPPORTED) check(s, what);
    return s == CUDNN_STATUS_SUCCESS;
  };
  if (auto it = cache.find(key); it != cache.end()) {
    if (attempt(static_cast<Algo>(it->second))) return;
    cache.erase(it);
  }
  for (Algo a : find())
    if (attempt(a)) {
      cache[key] = static_cast<int>(a);
      return;
    }
  throw NotImplementedError(std::string("cuda backend: cuDNN has no algorithm for this ") + what);
}

}  // namespace

std::vector<int> cudnn_output_dims(const CudnnConv& c, DType dtype) {
  Described d(c, dtype);
  std::vector<int> dims(static_cast<size_t>(c.spatial + 2));
  check(cudnnGetConvolutionNdForwardOutputDim(d.conv.d, d.x.d, d.w.d, c.spatial + 2, dims.data()),
        "output dims");
  return dims;
}

struct Cudnn::State {
  cudnnHandle_t handle = nullptr;
  // One caller at a time: a cuDNN handle is not to be used by two threads at once (inference
  // from many threads shares the backend).
  std::mutex mutex;
  std::map<std::vector<int>, int> algorithms;  // cache_key -> the algorithm that ran it
};

Cudnn::Cudnn() : state_(std::make_unique<State>()) {}

Cudnn::~Cudnn() {
  if (state_->handle) cudnnDestroy(state_->handle);
}

namespace {
// The handle (made on first use, on the current device), set to the calling thread's stream.
cudnnHandle_t handle_of(cudnnHandle_t& h) {
  if (!h) check(cudnnCreate(&h), "cudnnCreate");
  check(cudnnSetStream(h, launch_stream()), "cudnnSetStream");
  return h;
}
}  // namespace

void Cudnn::forward(const CudnnConv& c, DType dtype, const void* x, const void* w, void* y,
                    const Scratch& workspace) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  cudnnHandle_t h = handle_of(state_->handle);
  Described d(c, dtype);
  run_cached<cudnnConvolutionFwdAlgo_t>(
      state_->algorithms, cache_key('f', c, dtype),
      [&] {
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int count = 0;
        check(cudnnGetConvolutionForwardAlgorithm_v7(
                  h, d.x.d, d.w.d, d.conv.d, d.y.d, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf),
              "choosing a forward algorithm");
        return usable(perf, count);
      },
      [&](cudnnConvolutionFwdAlgo_t a, size_t* bytes) {
        return cudnnGetConvolutionForwardWorkspaceSize(h, d.x.d, d.w.d, d.conv.d, d.y.d, a, bytes);
      },
      [&](cudnnConvolutionFwdAlgo_t a, void* ws, size_t bytes) {
        return cudnnConvolutionForward(h, d.one, d.x.d, x, d.w.d, w, d.conv.d, a, ws, bytes, d.zero,
                                       d.y.d, y);
      },
      workspace, "convolution");
}

void Cudnn::backward_data(const CudnnConv& c, DType dtype, const void* dy, const void* w, void* dx,
                          const Scratch& workspace) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  cudnnHandle_t h = handle_of(state_->handle);
  Described d(c, dtype);
  run_cached<cudnnConvolutionBwdDataAlgo_t>(
      state_->algorithms, cache_key('d', c, dtype),
      [&] {
        cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        int count = 0;
        check(cudnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w.d, d.y.d, d.conv.d, d.x.d,
                                                          CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
                                                          &count, perf),
              "choosing an input-gradient algorithm");
        return usable(perf, count);
      },
      [&](cudnnConvolutionBwdDataAlgo_t a, size_t* bytes) {
        return cudnnGetConvolutionBackwardDataWorkspaceSize(h, d.w.d, d.y.d, d.conv.d, d.x.d, a,
                                                            bytes);
      },
      [&](cudnnConvolutionBwdDataAlgo_t a, void* ws, size_t bytes) {
        return cudnnConvolutionBackwardData(h, d.one, d.w.d, w, d.y.d, dy, d.conv.d, a, ws, bytes,
                                            d.zero, d.x.d, dx);
      },
      workspace, "convolution's input gradient");
}

void Cudnn::backward_filter(const CudnnConv& c, DType dtype, const void* x, const void* dy,
                            void* dw, const Scratch& workspace) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  cudnnHandle_t h = handle_of(state_->handle);
  Described d(c, dtype);
  run_cached<cudnnConvolutionBwdFilterAlgo_t>(
      state_->algorithms, cache_key('w', c, dtype),
      [&] {
        cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        int count = 0;
        check(cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x.d, d.y.d, d.conv.d, d.w.d,
                                                            CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT,
                                                            &count, perf),
              "choosing a kernel-gradient algorithm");
        return usable(perf, count);
      },
      [&](cudnnConvolutionBwdFilterAlgo_t a, size_t* bytes) {
        return cudnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x.d, d.y.d, d.conv.d, d.w.d, a,
                                                              bytes);
      },
      [&](cudnnConvolutionBwdFilterAlgo_t a, void* ws, size_t bytes) {
        return cudnnConvolutionBackwardFilter(h, d.one, d.x.d, x, d.y.d, dy, d.conv.d, a, ws, bytes,
                                              d.zero, d.w.d, dw);
      },
      workspace, "convolution's kernel gradient");
}

}  // namespace keras::cuda

// The cuda backend's sorts, stable and in cpu's order (backend::math::sort_key: NaN last, -0
// with +0, ties by position; descending inverts the key). Short lines rank each element by
// counting the keys before it (a thread per element, O(n) each: no scratch, one launch). Longer
// lines sort (key, position) pairs with CUB's radix sort, which is stable (one line:
// DeviceRadixSort over the device; several: DeviceSegmentedRadixSort), then gather the values.

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include <climits>
#include <string>

#include "backend/scalar_math.h"
#include "element_access.cuh"
#include "kernels.h"
#include "launch.h"
#include "stream.h"

namespace keras::cuda {
namespace {

// Lines up to this length rank by counting; longer ones go to the radix sort.
constexpr int64_t kCountingSortMax = 256;

// One thread per element: its place in the sorted line is the number of keys before it (smaller,
// or equal and earlier): a stable sort in O(n) per element, for lines of moderate length.
template <typename C>
__global__ void sort_kernel(Dims elements, Operand values, Operand indices, Operand x, int64_t n,
                            int64_t values_step, int64_t indices_step, int64_t x_step,
                            bool descending) {
  const int64_t xs = element_bytes(x.dtype);
  KERAS_GRID_STRIDE(e, elements.numel) {
    const int64_t line = e / n, i = e % n;
    Dims lines = elements;  // the line axes: every axis of `elements` but the last
    lines.rank -= 1;
    lines.numel = elements.numel / n;
    const char* p = address(x, lines, line);
    auto key = [&](int64_t j) {
      const auto k = backend::math::sort_key<C>(load<C>(p + j * x_step * xs, x.dtype));
      return descending ? ~k : k;
    };
    const auto mine = key(i);
    int64_t rank = 0;
    for (int64_t j = 0; j < n; ++j) {
      const auto k = key(j);
      rank += k < mine || (k == mine && j < i);
    }
    if (values.base) {
      char* to = address(values, lines, line) + rank * values_step * xs;
      const char* from = p + i * x_step * xs;
      for (int64_t b = 0; b < xs; ++b) to[b] = from[b];
    }
    if (indices.base)
      store<int64_t>(
          address(indices, lines, line) + rank * indices_step * element_bytes(indices.dtype),
          indices.dtype, i);
  }
}

// Each element's key (inverted for descending) and its position in its line.
template <typename C>
__global__ void sort_keys_kernel(Dims lines, Operand x, int64_t n, int64_t x_step, bool descending,
                                 int64_t total, backend::math::sort_key_t<C>* keys,
                                 int32_t* positions) {
  const int64_t xs = element_bytes(x.dtype);
  KERAS_GRID_STRIDE(e, total) {
    const int64_t line = e / n, i = e % n;
    const auto k =
        backend::math::sort_key<C>(load<C>(address(x, lines, line) + i * x_step * xs, x.dtype));
    keys[e] = descending ? ~k : k;
    positions[e] = static_cast<int32_t>(i);
  }
}

__global__ void segment_offsets_kernel(int32_t* offsets, int64_t count, int64_t n) {
  KERAS_GRID_STRIDE(l, count) {
    offsets[l] = static_cast<int32_t>(l * n);
  }
}

// values[line, rank] = x[line, i] and indices[line, rank] = i for i the rank-th sorted position.
__global__ void sort_gather_kernel(Dims lines, Operand values, Operand indices, Operand x,
                                   int64_t n, int64_t values_step, int64_t indices_step,
                                   int64_t x_step, int64_t total, const int32_t* positions) {
  const int64_t xs = element_bytes(x.dtype);
  KERAS_GRID_STRIDE(e, total) {
    const int64_t line = e / n, rank = e % n, i = positions[e];
    if (values.base) {
      char* to = address(values, lines, line) + rank * values_step * xs;
      const char* from = address(x, lines, line) + i * x_step * xs;
      for (int64_t b = 0; b < xs; ++b) to[b] = from[b];
    }
    if (indices.base)
      store<int64_t>(
          address(indices, lines, line) + rank * indices_step * element_bytes(indices.dtype),
          indices.dtype, i);
  }
}

void check_cub(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw RuntimeError(std::string("cuda backend: ") + what + ": " + cudaGetErrorString(e));
}

template <typename C>
void radix_sort(const Dims& lines, const Operand& values, const Operand& indices, const Operand& x,
                int64_t n, int64_t values_step, int64_t indices_step, int64_t x_step,
                bool descending, const Scratch& scratch) {
  using K = backend::math::sort_key_t<C>;
  const int64_t total = lines.numel * n;
  const int items = static_cast<int>(total), segments = static_cast<int>(lines.numel);
  K* keys_in = static_cast<K*>(scratch(sizeof(K) * total));
  K* keys_out = static_cast<K*>(scratch(sizeof(K) * total));
  int32_t* pos_in = static_cast<int32_t*>(scratch(sizeof(int32_t) * total));
  int32_t* pos_out = static_cast<int32_t*>(scratch(sizeof(int32_t) * total));
  sort_keys_kernel<C><<<blocks_for(total), kThreads, 0, launch_stream()>>>(
      lines, x, n, x_step, descending, total, keys_in, pos_in);
  check_launch("sort keys");
  size_t bytes = 0;
  if (segments == 1) {
    check_cub(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, pos_in, pos_out,
                                              items, 0, int(sizeof(K) * CHAR_BIT), launch_stream()),
              "cub::DeviceRadixSort (size)");
    void* temp = scratch(bytes ? bytes : 1);
    check_cub(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, pos_in, pos_out,
                                              items, 0, int(sizeof(K) * CHAR_BIT), launch_stream()),
              "cub::DeviceRadixSort");
  } else {
    int32_t* offsets = static_cast<int32_t*>(scratch(sizeof(int32_t) * (lines.numel + 1)));
    segment_offsets_kernel<<<blocks_for(lines.numel + 1), kThreads, 0, launch_stream()>>>(
        offsets, lines.numel + 1, n);
    check_launch("sort offsets");
    check_cub(cub::DeviceSegmentedRadixSort::SortPairs(
                  nullptr, bytes, keys_in, keys_out, pos_in, pos_out, items, segments, offsets,
                  offsets + 1, 0, int(sizeof(K) * CHAR_BIT), launch_stream()),
              "cub::DeviceSegmentedRadixSort (size)");
    void* temp = scratch(bytes ? bytes : 1);
    check_cub(cub::DeviceSegmentedRadixSort::SortPairs(
                  temp, bytes, keys_in, keys_out, pos_in, pos_out, items, segments, offsets,
                  offsets + 1, 0, int(sizeof(K) * CHAR_BIT), launch_stream()),
              "cub::DeviceSegmentedRadixSort");
  }
  sort_gather_kernel<<<blocks_for(total), kThreads, 0, launch_stream()>>>(
      lines, values, indices, x, n, values_step, indices_step, x_step, total, pos_out);
  check_launch("sort gather");
}

}  // namespace

void launch_sort(const Dims& lines, const Operand& values, const Operand& indices, const Operand& x,
                 int64_t n, int64_t values_step, int64_t indices_step, int64_t x_step,
                 bool descending, const Scratch& scratch) {
  // The index space: the lines, then the position along the sorted axis.
  Dims elements = lines;
  if (elements.rank + 1 > kMaxDims)
    throw NotImplementedError("cuda backend: sort of arrays of rank " +
                              std::to_string(elements.rank + 1) + " (at most " +
                              std::to_string(kMaxDims) + ")");
  elements.size[elements.rank++] = n;
  elements.numel = lines.numel * n;
  const int64_t blocks = blocks_for(elements.numel);
  if (!blocks) return;
  // CUB counts items and segment offsets in int.
  const bool radix = n > kCountingSortMax && elements.numel < INT_MAX;
  const Mode mode = ordering_mode(x.dtype);
  with_compute_type(mode, [&](auto c) {
    using C = decltype(c);
    if constexpr (!std::is_same_v<C, bool>) {
      if (radix)
        radix_sort<C>(lines, values, indices, x, n, values_step, indices_step, x_step, descending,
                      scratch);
      else
        sort_kernel<C><<<blocks, kThreads, 0, launch_stream()>>>(
            elements, values, indices, x, n, values_step, indices_step, x_step, descending);
    }
  });
  check_launch("sort");
}

}  // namespace keras::cuda

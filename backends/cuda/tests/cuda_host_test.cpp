// The cuda backend's host-side logic, on any machine: the caching allocator's bookkeeping (with
// a fake device allocator), launch configurations, the strided offsets the kernels compute, how
// products hand their operands to cuBLAS, the descriptors convolutions give cuDNN and the
// pooling windows.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "caching_allocator.h"
#include "capability_switch.h"
#include "chain_program.h"
#include "conv_geometry.h"
#include "cuda_device.h"
#ifdef KERAS_CUDA_WITH_CUDNN
#include "cudnn_conv.h"
#endif
#include "device_layout.h"
#include "gemm_layout.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/cuda/memory.h"
#include "keras/keras.h"
#include "launch.h"
#include "pool_geometry.h"

namespace keras::cuda {
namespace {

// A fake device of `capacity` bytes: blocks from malloc, counted.
struct FakeDevice {
  size_t capacity = 0, used = 0;
  int64_t allocs = 0, frees = 0;
  std::map<void*, size_t> live;
  CachingAllocator make() {
    return CachingAllocator(
        [this](size_t n) -> void* {
          if (used + n > capacity) return nullptr;
          void* p = std::malloc(n);
          live[p] = n;
          used += n;
          ++allocs;
          return p;
        },
        [this](void* p) {
          used -= live.at(p);
          live.erase(p);
          ++frees;
          std::free(p);
        });
  }
};

TEST(CudaCachingAllocator, RoundsRequestsToTheirSizeClass) {
  EXPECT_EQ(CachingAllocator::rounded_size(1), 512u);
  EXPECT_EQ(CachingAllocator::rounded_size(512), 512u);
  EXPECT_EQ(CachingAllocator::rounded_size(513), 1024u);
  EXPECT_EQ(CachingAllocator::rounded_size(1 << 20), size_t{1} << 20);
  EXPECT_EQ(CachingAllocator::rounded_size((1 << 20) + 1), size_t{2} << 20);
  EXPECT_EQ(CachingAllocator::rounded_size((5 << 20) + 7), size_t{6} << 20);
}

TEST(CudaCachingAllocator, ReusesFreedBlocksWithoutTheDevice) {
  FakeDevice dev{.capacity = 64 << 20};
  {
    CachingAllocator a = dev.make();
    void* p = a.allocate(2000);
    a.deallocate(p);
    void* q = a.allocate(1900);  // same class (2048): the cached block again
    EXPECT_EQ(p, q);
    EXPECT_EQ(dev.allocs, 1);
    EXPECT_EQ(a.stats().cache_hits, 1);
    // A request less than half the cached block's size takes a new block.
    a.deallocate(q);
    void* small = a.allocate(100);
    EXPECT_NE(small, q);
    EXPECT_EQ(dev.allocs, 2);
    const auto s = a.stats();
    EXPECT_EQ(s.in_use_bytes, 512u);
    EXPECT_EQ(s.cached_bytes, 2048u);
    EXPECT_EQ(s.peak_in_use_bytes, 2048u);
    a.deallocate(small);
    EXPECT_EQ(a.allocate(0), nullptr);
    a.deallocate(nullptr);
  }
  // The destructor gives the cache back.
  EXPECT_EQ(dev.used, 0u);
  EXPECT_EQ(dev.frees, dev.allocs);
}

TEST(CudaCachingAllocator, PeakStartsOverFromWhatIsInUse) {
  FakeDevice dev{.capacity = 64 << 20};
  CachingAllocator a = dev.make();
  void* big = a.allocate(3 << 20);  // 4 MiB class
  void* small = a.allocate(1000);   // 1 KiB class
  a.deallocate(big);
  EXPECT_EQ(a.stats().peak_in_use_bytes, (size_t{4} << 20) + 1024);
  a.reset_peak();
  EXPECT_EQ(a.stats().peak_in_use_bytes, 1024u);
  void* again = a.allocate(3 << 20);  // from the cache: counts towards the new peak
  EXPECT_EQ(a.stats().peak_in_use_bytes, (size_t{4} << 20) + 1024);
  a.deallocate(again);
  a.deallocate(small);
}

// A CUDA graph's memory (caching_allocator.h): what a recording allocates stays its pool's,
// reused only by the pool, until the graph goes; other threads never get those blocks.
TEST(CudaCachingAllocator, APoolKeepsAGraphsBlocksUntilItIsReleased) {
  FakeDevice dev{.capacity = 64 << 20};
  CachingAllocator a = dev.make();
  void* cached = a.allocate(4000);
  a.deallocate(cached);  // in the cache before the recording starts
  a.begin_pool();
  EXPECT_TRUE(a.pool_open_here());
  void* scratch = a.allocate(4000);  // the pool takes the cached block
  EXPECT_EQ(scratch, cached);
  a.deallocate(scratch);
  EXPECT_EQ(a.allocate(3900), scratch);  // reused within the pool (recorded order)
  a.deallocate(scratch);
  void* other_thread = nullptr;
  std::thread([&] {
    EXPECT_FALSE(a.pool_open_here());
    other_thread = a.allocate(4000);  // not the pool's block
  }).join();
  EXPECT_NE(other_thread, scratch);
  const uint64_t pool = a.end_pool();
  EXPECT_FALSE(a.pool_open_here());
  EXPECT_EQ(a.stats().pooled_bytes, 4096u);
  void* after = a.allocate(4000);  // the graph still owns its block
  EXPECT_NE(after, scratch);
  EXPECT_NE(after, other_thread);
  a.release_pool(pool);
  EXPECT_EQ(a.stats().pooled_bytes, 0u);
  EXPECT_EQ(a.allocate(4000), scratch);  // back in the cache
  for (void* p : {scratch, after, other_thread}) a.deallocate(p);
  EXPECT_EQ(a.stats().in_use_bytes, 0u);
}

TEST(CudaCachingAllocator, APoolBlockStillInUseAtReleaseReturnsToTheCacheWhenFreed) {
  FakeDevice dev{.capacity = 64 << 20};
  CachingAllocator a = dev.make();
  a.begin_pool();
  void* kept = a.allocate(10000);
  a.release_pool(a.end_pool());
  a.deallocate(kept);
  EXPECT_EQ(a.stats().cached_bytes, CachingAllocator::rounded_size(10000));
  EXPECT_EQ(a.stats().pooled_bytes, 0u);
  EXPECT_EQ(a.allocate(10000), kept);
  a.deallocate(kept);
  EXPECT_THROW(
      {
        a.begin_pool();
        a.begin_pool();
      },
      RuntimeError);
  a.release_pool(a.end_pool());
}

// Out of memory while recording: no cudaFree (not allowed during capture); the error names it.
TEST(CudaCachingAllocator, OutOfMemoryInAPoolLeavesTheCacheAlone) {
  FakeDevice dev{.capacity = 5 << 20};
  CachingAllocator a = dev.make();
  a.deallocate(a.allocate(2 << 20));  // 2 MiB cached; 3 MiB requests take 4 MiB blocks
  a.begin_pool();
  EXPECT_THROW(a.allocate(3 << 20), RuntimeError);
  EXPECT_EQ(dev.frees, 0);
  a.release_pool(a.end_pool());
  void* p = a.allocate(3 << 20);  // outside the pool the cache is emptied and it fits
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(dev.frees, 1);
  a.deallocate(p);
}

TEST(CudaMemory, NamesWhatIsNotACudaBackend) {
  for (const char* name : {"cpu", "no_such_backend"}) {
    try {
      memory_stats(name);
      FAIL() << "expected ValueError for " << name;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + name + "' is not a cuda backend"),
                std::string::npos)
          << e.what();
    }
  }
  if (!device_present()) {
    EXPECT_THROW(memory_stats(), ValueError);
  }
}

TEST(CudaCachingAllocator, EmptiesTheCacheBeforeReportingOutOfMemory) {
  FakeDevice dev{.capacity = 5 << 20};
  CachingAllocator a = dev.make();
  void* p = a.allocate(2 << 20);
  a.deallocate(p);                // cached: 2 MiB of the 5
  void* q = a.allocate(3 << 20);  // 4 MiB: fits only once the cache is released
  EXPECT_NE(q, nullptr);
  EXPECT_EQ(a.stats().cached_bytes, 0u);
  EXPECT_EQ(dev.used, size_t{4} << 20);
  try {
    a.allocate(2 << 20);
    FAIL() << "expected RuntimeError";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("out of device memory"), std::string::npos) << e.what();
  }
  a.deallocate(q);
  EXPECT_THROW(a.deallocate(reinterpret_cast<void*>(0x10)), RuntimeError);
}

TEST(CudaLaunch, BlocksCoverEveryElementUpToTheCap) {
  EXPECT_EQ(blocks_for(0), 0);
  EXPECT_EQ(blocks_for(1), 1);
  EXPECT_EQ(blocks_for(kThreads), 1);
  EXPECT_EQ(blocks_for(kThreads + 1), 2);
  EXPECT_EQ(blocks_for(int64_t{1} << 40), kMaxBlocks);  // the rest by grid-stride loops
}

// Few long reductions are cut into chunks that cover every element once, in order; many short
// ones stay one pass (a thread per output).
TEST(CudaLaunch, ReductionChunksCoverEveryElementOnce) {
  for (int64_t outputs : {int64_t{1}, int64_t{3}, int64_t{32}, int64_t{1000}, int64_t{300000}})
    for (int64_t reduced : {int64_t{0}, int64_t{1}, int64_t{255}, int64_t{256}, int64_t{257},
                            int64_t{4096}, int64_t{173056}, int64_t{10000019}}) {
      SCOPED_TRACE(::testing::Message() << outputs << " outputs of " << reduced);
      const ReduceSplit s = reduce_split(outputs, reduced);
      ASSERT_GE(s.splits, 1);
      ASSERT_LE(s.splits, kMaxBlocks);
      if (s.splits == 1) {
        EXPECT_EQ(s.chunk, reduced);
        continue;
      }
      EXPECT_GE(s.chunk, 128);
      EXPECT_GE(s.splits * s.chunk, reduced);        // every element in some chunk
      EXPECT_LT((s.splits - 1) * s.chunk, reduced);  // and no chunk empty
      EXPECT_LE(outputs * s.splits, int64_t{262144} + outputs);
    }
  EXPECT_EQ(reduce_split(32, 173056).splits, 1352);  // a bias gradient: 32 channels
  EXPECT_EQ(reduce_split(300000, 4096).splits, 1);   // plenty of outputs
  EXPECT_EQ(reduce_split(1000, 255).splits, 1);      // short
}

// element_offset against the offsets a plain nested loop visits, for a transposed view with a
// broadcast axis and a flipped one.
TEST(CudaLayout, OffsetsFollowTheStridesInRowMajorOrder) {
  Dims dims;
  dims.rank = 3;
  dims.size[0] = 2;
  dims.size[1] = 3;
  dims.size[2] = 4;
  dims.numel = 24;
  Operand op;
  op.stride[0] = 0;    // broadcast
  op.stride[1] = 1;    // transposed
  op.stride[2] = -3;   // flipped
  int64_t i = 0;
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t c = 0; c < 4; ++c, ++i)
        EXPECT_EQ(element_offset(dims, op, i), a * 0 + b * 1 + c * -3) << i;
  EXPECT_EQ(element_bytes(DType::BFloat16), 2);
  EXPECT_EQ(element_bytes(DType::Bool), 1);
  EXPECT_EQ(element_bytes(DType::Int64), 8);
}

// Merging axes (coalesce) keeps every operand's element at every flat index; contiguous arrays
// become one axis. Random shapes with contiguous, broadcast, transposed, flipped and sliced
// operands, against the offsets before merging.
TEST(CudaLayout, CoalescedAxesAddressTheSameElements) {
  std::mt19937 gen(11);
  int merged_to_one = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Dims dims;
    dims.rank = 1 + static_cast<int>(gen() % 5);
    dims.numel = 1;
    for (int d = 0; d < dims.rank; ++d) {
      dims.size[d] = 1 + static_cast<int64_t>(gen() % 4);
      dims.numel *= dims.size[d];
    }
    Operand ops[3];
    for (Operand& op : ops) {
      int64_t step = 1;  // row-major contiguous, then some axes changed
      for (int d = dims.rank - 1; d >= 0; --d) {
        op.stride[d] = step;
        step *= dims.size[d] + (gen() % 7 == 0 ? 1 : 0);  // sometimes a sliced (wider) row
      }
      for (int d = 0; d < dims.rank; ++d) {
        const unsigned pick = gen() % 10;
        if (pick == 0) op.stride[d] = 0;              // broadcast
        if (pick == 1) op.stride[d] = -op.stride[d];  // flipped
      }
      if (gen() % 8 == 0 && dims.rank >= 2) std::swap(op.stride[0], op.stride[1]);  // transposed
    }
    Dims merged = dims;
    Operand after[3] = {ops[0], ops[1], ops[2]};
    coalesce(merged, after, 3);
    ASSERT_EQ(merged.numel, dims.numel);
    ASSERT_LE(merged.rank, dims.rank);
    merged_to_one += merged.rank <= 1;
    for (int k = 0; k < 3; ++k)
      for (int64_t i = 0; i < dims.numel; ++i)
        ASSERT_EQ(element_offset(merged, after[k], i), element_offset(dims, ops[k], i))
            << "trial " << trial << " operand " << k << " index " << i;
  }
  EXPECT_GT(merged_to_one, 40);  // the contiguous cases do collapse
  // Contiguous (2, 3, 4) with a bias broadcast over the first two axes: two axes remain.
  Dims dims;
  dims.rank = 3;
  dims.size[0] = 2, dims.size[1] = 3, dims.size[2] = 4;
  dims.numel = 24;
  Operand ops[2];
  ops[0].stride[0] = 12, ops[0].stride[1] = 4, ops[0].stride[2] = 1;
  ops[1].stride[0] = 0, ops[1].stride[1] = 0, ops[1].stride[2] = 1;
  coalesce(dims, ops, 2);
  EXPECT_EQ(dims.rank, 2);
  EXPECT_EQ(dims.size[0], 6);
  EXPECT_EQ(dims.size[1], 4);
}

// ---- convolutions as cuDNN's descriptors take them (conv_geometry.h) -------------------------

backend::ConvSpec spec_of(int d, bool channels_last, std::vector<int64_t> before = {},
                          std::vector<int64_t> after = {}) {
  backend::ConvSpec s;
  s.spatial_dims = d;
  s.channels_last = channels_last;
  for (int i = 0; i < d; ++i) {
    s.strides.push_back(1);
    s.dilation.push_back(1);
    s.pad_before.push_back(before.empty() ? 0 : before[i]);
    s.pad_after.push_back(after.empty() ? 0 : after[i]);
  }
  return s;
}

TEST(CudaConvGeometry, ChannelsLastTensorsAreNchwDimsWithNhwcStrides) {
  backend::ConvSpec s = spec_of(2, true, {1, 1}, {1, 1});
  s.strides = {2, 1};
  s.dilation = {1, 2};
  // x (2, 5, 7, 3), kernel (3, 3, 3, 4), y (2, 3, 3, 4), all packed.
  const CudnnConv c = cudnn_conv({2, 5, 7, 3}, {105, 21, 3, 1}, {3, 3, 3, 4}, {2, 3, 3, 4},
                                 {36, 12, 4, 1}, s, false);
  EXPECT_EQ(c.spatial, 2);
  EXPECT_EQ(c.x.rank, 4);
  EXPECT_EQ(std::vector<int>(c.x.dims, c.x.dims + 4), (std::vector<int>{2, 3, 5, 7}));
  EXPECT_EQ(std::vector<int>(c.x.strides, c.x.strides + 4), (std::vector<int>{105, 1, 21, 3}));
  EXPECT_EQ(std::vector<int>(c.y.dims, c.y.dims + 4), (std::vector<int>{2, 4, 3, 3}));
  EXPECT_EQ(std::vector<int>(c.y.strides, c.y.strides + 4), (std::vector<int>{36, 1, 12, 4}));
  EXPECT_EQ(std::vector<int>(c.filter, c.filter + 4), (std::vector<int>{4, 3, 3, 3}));
  EXPECT_TRUE(c.filter_channels_last);
  EXPECT_EQ(std::vector<int>(c.pad, c.pad + 2), (std::vector<int>{1, 1}));
  EXPECT_EQ(std::vector<int>(c.stride, c.stride + 2), (std::vector<int>{2, 1}));
  EXPECT_EQ(std::vector<int>(c.dilation, c.dilation + 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(c.groups, 1);
}

TEST(CudaConvGeometry, OneDimensionalRunsWithAUnitHeight) {
  backend::ConvSpec s = spec_of(1, false);
  s.strides = {3};
  s.groups = 3;
  // x (2, 6, 10) channels_first, kernel (4, 2, 9): 3 groups of 2 channels, 9 outputs.
  const CudnnConv c =
      cudnn_conv({2, 6, 10}, {60, 10, 1}, {4, 2, 9}, {2, 9, 3}, {27, 3, 1}, s, false);
  EXPECT_EQ(c.spatial, 2);
  EXPECT_EQ(std::vector<int>(c.x.dims, c.x.dims + 4), (std::vector<int>{2, 6, 1, 10}));
  EXPECT_EQ(std::vector<int>(c.x.strides, c.x.strides + 4), (std::vector<int>{60, 10, 10, 1}));
  EXPECT_EQ(std::vector<int>(c.y.dims, c.y.dims + 4), (std::vector<int>{2, 9, 1, 3}));
  EXPECT_EQ(std::vector<int>(c.filter, c.filter + 4), (std::vector<int>{9, 2, 1, 4}));
  EXPECT_FALSE(c.filter_channels_last);
  EXPECT_EQ(std::vector<int>(c.stride, c.stride + 2), (std::vector<int>{1, 3}));
  EXPECT_EQ(c.groups, 3);
}

TEST(CudaConvGeometry, AsymmetricPaddingIsWrittenIntoTheInput) {
  const backend::ConvSpec s = spec_of(2, true, {0, 1}, {1, 1});
  EXPECT_FALSE(symmetric_padding(s));
  EXPECT_TRUE(symmetric_padding(spec_of(2, true, {2, 1}, {2, 1})));
  EXPECT_EQ(padded_input_shape({2, 5, 7, 3}, s), (Shape{2, 6, 9, 3}));
  EXPECT_EQ(padded_input_shape({2, 3, 5, 7}, spec_of(2, false, {0, 1}, {1, 1})),
            (Shape{2, 3, 6, 9}));
  const CudnnConv c = cudnn_conv({2, 6, 9, 3}, {162, 27, 3, 1}, {3, 3, 3, 4}, {2, 4, 7, 4},
                                 {112, 28, 4, 1}, s, true);
  EXPECT_EQ(std::vector<int>(c.pad, c.pad + 2), (std::vector<int>{0, 0}));
}

TEST(CudaConvGeometry, TheFilterViewFollowsTheInputsLayout) {
  // kernel (3, 3, 2, 4) packed: strides (24, 8, 4, 1).
  Shape shape;
  const Strides last = filter_view_strides({3, 3, 2, 4}, {24, 8, 4, 1}, spec_of(2, true), &shape);
  EXPECT_EQ(shape, (Shape{4, 3, 3, 2}));  // (O, kh, kw, C/g): cuDNN's NHWC filter
  EXPECT_EQ(std::vector<int64_t>(last.begin(), last.end()), (std::vector<int64_t>{1, 24, 8, 4}));
  const Strides first = filter_view_strides({3, 3, 2, 4}, {24, 8, 4, 1}, spec_of(2, false), &shape);
  EXPECT_EQ(shape, (Shape{4, 2, 3, 3}));  // (O, C/g, kh, kw): NCHW
  EXPECT_EQ(std::vector<int64_t>(first.begin(), first.end()), (std::vector<int64_t>{1, 4, 24, 8}));
}

TEST(CudaConvGeometry, SizesPastThirtyTwoBitsAreNamed) {
  const int64_t huge = int64_t{1} << 32;
  try {
    cudnn_conv({1, huge, 1}, {huge, 1, 1}, {1, 1, 1}, {1, huge, 1}, {huge, 1, 1}, spec_of(1, true),
               false);
    FAIL() << "expected NotImplementedError";
  } catch (const NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("32-bit"), std::string::npos) << e.what();
  }
}

#ifdef KERAS_CUDA_WITH_CUDNN
// cuDNN itself accepts the descriptors (layouts, filter order, groups, the 1-D lift, explicit
// padding) and derives the output size Keras's arithmetic gives: out = (in + before + after -
// dilation * (k - 1) - 1) / stride + 1 along each axis.
TEST(CudaConvGeometry, CudnnDerivesKerasOutputSizes) {
  // "same" at stride 2 on (9, 8) with a 3x3 kernel: pads (1, 1) and (0, 1), so padded
  // explicitly to (11, 9): output (5, 4), 5 channels.
  backend::ConvSpec same2 = spec_of(2, true, {1, 0}, {1, 1});
  same2.strides = {2, 2};
  CudnnConv c = cudnn_conv(padded_input_shape({2, 9, 8, 3}, same2), {297, 27, 3, 1}, {3, 3, 3, 5},
                           {2, 5, 4, 5}, {100, 20, 5, 1}, same2, true);
  EXPECT_EQ(cudnn_output_dims(c, DType::Float32), (std::vector<int>{2, 5, 5, 4}));
  // Half-precision data with float32 accumulation: cuDNN accepts the descriptors too.
  EXPECT_EQ(cudnn_output_dims(c, DType::BFloat16), (std::vector<int>{2, 5, 5, 4}));
  EXPECT_EQ(cudnn_output_dims(c, DType::Float16), (std::vector<int>{2, 5, 5, 4}));
  // 1-D channels_first, dilation 2 (an effective kernel of 5), "same": pads (2, 2).
  backend::ConvSpec dilated = spec_of(1, false, {2}, {2});
  dilated.dilation = {2};
  c = cudnn_conv({2, 4, 11}, {44, 11, 1}, {3, 4, 6}, {2, 6, 11}, {66, 11, 1}, dilated, false);
  EXPECT_EQ(cudnn_output_dims(c, DType::Float32), (std::vector<int>{2, 6, 1, 11}));
  // 3-D, 2 groups of 2 channels, float64, valid.
  backend::ConvSpec grouped = spec_of(3, true);
  grouped.groups = 2;
  c = cudnn_conv({1, 5, 5, 5, 4}, {500, 100, 20, 4, 1}, {2, 2, 2, 2, 6}, {1, 4, 4, 4, 6},
                 {384, 96, 24, 6, 1}, grouped, false);
  EXPECT_EQ(cudnn_output_dims(c, DType::Float64), (std::vector<int>{1, 6, 4, 4, 4}));
}
#endif

// ---- products as cuBLAS reads their operands (gemm_layout.h) ---------------------------------

TEST(CudaGemmLayout, ReadsPackedTransposedSlicedAndBroadcastOperandsInPlace) {
  // Packed (2, 3, 4, 5): row-major, rows 5 apart, matrices 20 apart.
  auto m = gemm_matrix({2, 3}, 4, 5, {60, 20, 5, 1});
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->transposed);
  EXPECT_EQ(m->ld, 5);
  EXPECT_EQ(m->batch_stride, 20);
  // The transpose of a packed (3, 5, 4): column-major, columns 4 apart.
  m = gemm_matrix({3}, 4, 5, {20, 1, 4});
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->transposed);
  EXPECT_EQ(m->ld, 4);
  EXPECT_EQ(m->batch_stride, 20);
  // Columns sliced out of wider rows; one matrix broadcast over the batch.
  m = gemm_matrix({6}, 4, 5, {0, 8, 1});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ld, 8);
  EXPECT_EQ(m->batch_stride, 0);
  // A single row reads as row-major whatever its row stride.
  m = gemm_matrix({}, 1, 7, {3, 1});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ld, 7);
  // What needs a packed copy: an inner stride, batch axes that do not step as one, negative
  // strides, rows overlapping.
  EXPECT_FALSE(gemm_matrix({}, 4, 5, {10, 2}));
  EXPECT_FALSE(gemm_matrix({2, 3}, 4, 5, {100, 20, 5, 1}));
  EXPECT_FALSE(gemm_matrix({}, 4, 5, {-5, 1}));
  EXPECT_FALSE(gemm_matrix({}, 4, 5, {3, 1}));
}

// cublas<T>gemmStridedBatched as its documentation defines it (column-major, op N or T, leading
// dimensions, batch strides), on the host.
void reference_cublas(const GemmCall& g, const std::vector<double>& first,
                      const std::vector<double>& second, std::vector<double>& c, int64_t batch) {
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < g.k; ++l) {
          const double f =
              first[p * g.stride_first + (g.trans_first ? l + i * g.ld_first : i + l * g.ld_first)];
          const double s = second[p * g.stride_second +
                                  (g.trans_second ? j + l * g.ld_second : l + j * g.ld_second)];
          sum += f * s;
        }
        c[p * g.stride_c + i + j * g.ldc] = sum;
      }
}

// A view of a (batch, rows, cols) operand over memory: each matrix row-major with rows `ld`
// apart, or (transposed) column-major with columns `ld` apart; batches `batch_stride` apart.
struct View {
  bool transposed;
  int64_t ld, batch_stride;
  double at(const std::vector<double>& mem, int64_t p, int64_t r, int64_t c) const {
    return mem[p * batch_stride + (transposed ? r + c * ld : r * ld + c)];
  }
  Strides strides(int64_t) const {
    return transposed ? Strides{batch_stride, 1, ld} : Strides{batch_stride, ld, 1};
  }
};

TEST(CudaGemmLayout, TheCallComputesTheRowMajorProductOfTheViews) {
  const int64_t batch = 3, M = 4, N = 5, K = 6;
  std::vector<double> amem(400), bmem(400);
  for (size_t i = 0; i < amem.size(); ++i) {
    amem[i] = static_cast<double>(static_cast<int>(i * 7 % 11) - 5);
    bmem[i] = static_cast<double>(static_cast<int>(i * 5 % 13) - 6);
  }
  // a (M, K) and b (K, N) each packed, transposed, with wider rows, or broadcast.
  const std::vector<View> a_views{
      {false, K, M * K}, {true, M, M * K}, {false, 9, 40}, {true, 7, 0}};
  const std::vector<View> b_views{
      {false, N, K * N}, {true, K, K * N}, {true, 8, 50}, {false, 6, 0}};
  for (const View& av : a_views)
    for (const View& bv : b_views) {
      const auto ma = gemm_matrix({batch}, M, K, av.strides(K));
      const auto mb = gemm_matrix({batch}, K, N, bv.strides(N));
      ASSERT_TRUE(ma && mb);
      std::vector<double> c(static_cast<size_t>(batch * M * N));
      reference_cublas(gemm_call(*ma, *mb, M, N, K), bmem, amem, c, batch);
      for (int64_t p = 0; p < batch; ++p)
        for (int64_t i = 0; i < M; ++i)
          for (int64_t j = 0; j < N; ++j) {
            double expected = 0;
            for (int64_t l = 0; l < K; ++l) expected += av.at(amem, p, i, l) * bv.at(bmem, p, l, j);
            ASSERT_EQ(c[static_cast<size_t>((p * M + i) * N + j)], expected)
                << "a transposed " << av.transposed << " ld " << av.ld << ", b transposed "
                << bv.transposed << " ld " << bv.ld << " at " << p << "," << i << "," << j;
          }
    }
}

// ---- pooling windows (pool_geometry.h) -------------------------------------------------------

// The window arithmetic against enumeration: for every window o and tap t, input index
// o * stride - pad + t is inside [0, in) exactly for the taps taps_inside gives, and each input
// index lies in exactly the windows windows_holding gives.
TEST(CudaPoolGeometry, WindowsAndTapsMatchEnumeration) {
  for (int64_t in = 1; in <= 9; ++in)
    for (int64_t window = 1; window <= 4; ++window)
      for (int64_t stride = 1; stride <= 3; ++stride)
        for (int64_t pad = 0; pad < window; ++pad) {
          const int64_t out = (in + 2 * pad - window) / stride + 1;
          if (out < 1) continue;
          std::vector<std::set<int64_t>> holders(static_cast<size_t>(in));
          for (int64_t o = 0; o < out; ++o) {
            int64_t t0 = 0, t1 = 0;
            taps_inside(o, in, window, stride, pad, t0, t1);
            for (int64_t t = 0; t < window; ++t) {
              const int64_t i = o * stride - pad + t;
              const bool inside = i >= 0 && i < in;
              EXPECT_EQ(inside, t >= t0 && t < t1)
                  << in << " " << window << " " << stride << " " << pad;
              if (inside) holders[static_cast<size_t>(i)].insert(o);
            }
          }
          for (int64_t i = 0; i < in; ++i) {
            int64_t lo = 0, hi = 0;
            windows_holding(i, out, window, stride, pad, lo, hi);
            std::set<int64_t> got;
            for (int64_t o = lo; o <= hi; ++o) got.insert(o);
            EXPECT_EQ(got, holders[static_cast<size_t>(i)])
                << "i " << i << " in " << in << " window " << window << " stride " << stride
                << " pad " << pad;
          }
        }
}

TEST(CudaPoolGeometry, LayoutsMapToImageSpaceAndChannel) {
  backend::PoolSpec s;
  s.spatial_dims = 1;
  s.channels_last = false;
  s.window = {3};
  s.strides = {2};
  s.pad_before = {1};
  s.pad_after = {1};
  // x (2, 5, 9) channels_first pooled to (2, 5, 5): the one spatial axis is the last slot.
  const PoolGeometry g = pool_geometry({2, 5, 9}, {2, 5, 5}, s);
  EXPECT_EQ(g.n, 2);
  EXPECT_EQ(g.c, 5);
  EXPECT_EQ(std::vector<int64_t>(g.in, g.in + 3), (std::vector<int64_t>{1, 1, 9}));
  EXPECT_EQ(std::vector<int64_t>(g.out, g.out + 3), (std::vector<int64_t>{1, 1, 5}));
  EXPECT_EQ(std::vector<int64_t>(g.window, g.window + 3), (std::vector<int64_t>{1, 1, 3}));
  EXPECT_EQ(std::vector<int64_t>(g.stride, g.stride + 3), (std::vector<int64_t>{1, 1, 2}));
  EXPECT_EQ(std::vector<int64_t>(g.pad, g.pad + 3), (std::vector<int64_t>{0, 0, 1}));
  const PoolStrides st = pool_strides({45, 9, 1}, s);
  EXPECT_EQ(st.n, 45);
  EXPECT_EQ(st.c, 9);
  EXPECT_EQ(std::vector<int64_t>(st.s, st.s + 3), (std::vector<int64_t>{0, 0, 1}));
  // channels_last 2-D: (n, h, w, c).
  s.spatial_dims = 2;
  s.channels_last = true;
  s.window = {2, 2};
  s.strides = {2, 2};
  s.pad_before = {0, 0};
  s.pad_after = {0, 0};
  const PoolStrides cl = pool_strides({96, 24, 4, 1}, s);
  EXPECT_EQ(cl.c, 1);
  EXPECT_EQ(std::vector<int64_t>(cl.s, cl.s + 3), (std::vector<int64_t>{0, 24, 4}));
  EXPECT_TRUE(pool_geometry({2, 4, 6, 4}, {2, 2, 3, 4}, s).is_max);
}

// ---- elementwise chains (chain_program.h) ----------------------------------------------------

using backend::ChainLayout;
using backend::ElementwiseChain;
using backend::ElementwiseStep;

ElementwiseStep step(ElementwiseStep::Kind kind, uint8_t op, int out, std::array<int, 3> in,
                     double p0 = 0, double p1 = 0) {
  ElementwiseStep s;
  s.kind = kind;
  s.op = op;
  s.out = out;
  s.in = in;
  s.p0 = p0;
  s.p1 = p1;
  return s;
}

template <typename Op>
uint8_t code(Op op) {
  return static_cast<uint8_t>(op);
}

// A chain as compiled training steps make them: a bias over rows (Column), a scale (Scalar), a
// per-row value (Row), comparisons into bool, where, clip with parameters, accumulating copies,
// logical ops computed in bool.
// Registers 0-5 are arrays: 0 out (dense float), 1 x (dense), 2 bias (column), 3 scale
// (scalar), 4 per-row (row), 5 mask out (dense bool); 6-11 temporaries.
ElementwiseChain training_like_chain(int64_t rows, int64_t p) {
  using K = ElementwiseStep::Kind;
  using backend::BinaryOp;
  using backend::UnaryOp;
  ElementwiseChain c;
  c.num_arrays = 6;
  c.numel = rows * p;
  c.row_length = p;
  c.layouts = {ChainLayout::Dense,  ChainLayout::Dense, ChainLayout::Column,
               ChainLayout::Scalar, ChainLayout::Row,   ChainLayout::Dense};
  c.temp_dtypes = {DType::Float32, DType::Float32, DType::Bool,
                   DType::Float32, DType::Float32, DType::Float32};
  c.steps = {
      step(K::Binary, code(BinaryOp::Add), 6, {1, 2, -1}),
      step(K::Binary, code(BinaryOp::Mul), 7, {6, 3, -1}),
      step(K::Binary, code(BinaryOp::Greater), 8, {7, 4, -1}),
      step(K::Unary, code(UnaryOp::Exp), 9, {7, -1, -1}),
      step(K::Where, 0, 10, {8, 9, 4}),
      step(K::Unary, code(UnaryOp::Clip), 11, {10, -1, -1}, -0.5, 2.0),
      step(K::Copy, code(backend::CopyMode::Assign), 0, {10, -1, -1}),
      step(K::Copy, code(backend::CopyMode::Add), 0, {11, -1, -1}),
      step(K::Unary, code(UnaryOp::IsNan), 5, {1, -1, -1}),
      step(K::Binary, code(BinaryOp::LogicalOr), 5, {5, 8, -1}),
      step(K::Unary, code(UnaryOp::LogicalNot), 8, {8, -1, -1}),    // computed in bool
      step(K::Copy, code(backend::CopyMode::Add), 0, {8, -1, -1}),  // bool into float
  };
  return c;
}

// The fused kernel's per-element program, run on the host, against the cpu backend's own
// chain on the same arrays: the same values bit for bit (one element function per op).
TEST(CudaChainProgram, RunsAChainAsTheCpuBackendDoes) {
  const int64_t rows = 37, p = 29;
  ElementwiseChain chain = training_like_chain(rows, p);
  // Input x has NaNs and values on both sides of the comparisons.
  auto inputs = [&] {
    std::vector<Tensor> t{ops::zeros({rows, p}, DType::Float32),
                          random::normal({rows, p}, 0.0, 2.0, DType::Float32, 1),
                          random::normal({p}, 0.0, 1.0, DType::Float32, 2),
                          ops::convert_to_tensor(std::vector<float>{0.75f}, Shape{1}),
                          random::normal({rows}, 0.0, 1.0, DType::Float32, 3),
                          ops::zeros({rows, p}, DType::Bool)};
    t[1] = ops::where(ops::less(random::uniform({rows, p}, 0.0, 1.0, DType::Float32, 4), 0.05),
                      std::nanf(""), t[1]);
    return t;
  };
  backend::BackendScope scope("cpu");
  std::vector<Tensor> theirs = inputs(), ours = inputs();
  std::vector<backend::Array> a_theirs, a_ours;
  for (auto& t : theirs) a_theirs.push_back(t.array());
  for (auto& t : ours) a_ours.push_back(t.array());
  backend::get("cpu").elementwise(chain, a_theirs);
  ChainProgram program;
  ASSERT_TRUE(make_chain_program(chain, a_ours, program));
  for (int64_t i = 0; i < chain.numel; ++i) run_chain_element(program, i);
  const auto expected = theirs[0].to_vector<float>(), got = ours[0].to_vector<float>();
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
      continue;
    }
    EXPECT_EQ(got[i], expected[i]) << i;
  }
  EXPECT_EQ(ours[5].to_vector<bool>(), theirs[5].to_vector<bool>());
}

// The same chain through the cuda backend on a GPU (the fused kernel) and through a chain the
// kernel does not take (an int32 temporary: step by step), against cpu.
TEST(CudaChainProgram, TheCudaBackendRunsChainsAsCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device on this machine: GPU test skipped";
  const int64_t rows = 37, p = 29;
  for (bool fused : {true, false}) {
    ElementwiseChain chain = training_like_chain(rows, p);
    if (!fused) {  // an int32 round trip of the clipped value (truncating, on both backends)
      chain.temp_dtypes.push_back(DType::Int32);
      chain.steps.insert(chain.steps.begin() + 6,
                         step(ElementwiseStep::Kind::Copy, 0, 12, {11, -1, -1}));
      chain.steps.insert(chain.steps.begin() + 7,
                         step(ElementwiseStep::Kind::Copy, 0, 11, {12, -1, -1}));
    }
    std::vector<Tensor> cpu{ops::zeros({rows, p}, DType::Float32),
                            random::normal({rows, p}, 0.0, 2.0, DType::Float32, 1),
                            random::normal({p}, 0.0, 1.0, DType::Float32, 2),
                            ops::convert_to_tensor(std::vector<float>{0.75f}, Shape{1}),
                            random::normal({rows}, 0.0, 1.0, DType::Float32, 3),
                            ops::zeros({rows, p}, DType::Bool)};
    std::vector<Tensor> gpu;
    std::vector<backend::Array> a_cpu, a_gpu;
    for (auto& t : cpu) {
      gpu.push_back(t.to("cuda"));
      a_cpu.push_back(t.array());
      a_gpu.push_back(gpu.back().array());
    }
    backend::get("cpu").elementwise(chain, a_cpu);
    backend::get("cuda").elementwise(chain, a_gpu);
    const auto expected = cpu[0].to_vector<float>(), got = gpu[0].to("cpu").to_vector<float>();
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_NEAR(got[i], expected[i], 1e-6f * std::max(1.0f, std::abs(expected[i]))) << i;
    EXPECT_EQ(gpu[5].to("cpu").to_vector<bool>(), cpu[5].to_vector<bool>());
  }
}

TEST(CudaChainProgram, LeavesWhatTheKernelDoesNotTakeToTheSteps) {
  std::vector<Tensor> t{ops::zeros({4, 3}, DType::Float32), ops::ones({4, 3}, DType::Float32),
                        ops::ones({3}, DType::Float32),     ops::ones({1}, DType::Float32),
                        ops::ones({4}, DType::Float32),     ops::zeros({4, 3}, DType::Bool)};
  std::vector<backend::Array> arrays;
  for (auto& x : t) arrays.push_back(x.array());
  ChainProgram program;
  ElementwiseChain chain = training_like_chain(4, 3);
  EXPECT_TRUE(make_chain_program(chain, arrays, program));
  ElementwiseChain int_temp = chain;  // an int32 register
  int_temp.temp_dtypes[0] = DType::Int32;
  EXPECT_FALSE(make_chain_program(int_temp, arrays, program));
  ElementwiseChain broadcast_out = chain;  // writing a column array would race
  broadcast_out.steps.push_back(step(ElementwiseStep::Kind::Copy, 0, 2, {6, -1, -1}));
  EXPECT_FALSE(make_chain_program(broadcast_out, arrays, program));
  ElementwiseChain bitwise = chain;  // an op floats do not have
  bitwise.steps.push_back(
      step(ElementwiseStep::Kind::Unary, code(backend::UnaryOp::BitwiseNot), 7, {7, -1, -1}));
  EXPECT_FALSE(make_chain_program(bitwise, arrays, program));
  ElementwiseChain long_chain = chain;
  while (static_cast<int>(long_chain.steps.size()) <= kMaxChainSteps)
    long_chain.steps.push_back(chain.steps[0]);
  EXPECT_FALSE(make_chain_program(long_chain, arrays, program));
}

TEST(CudaCapabilitySwitch, NamesTheCapabilitiesToLeaveToDecompositions) {
  using backend::Capability;
  auto bit = [](Capability c) { return uint32_t{1} << static_cast<int>(c); };
  EXPECT_EQ(disabled_capabilities(nullptr), 0u);
  EXPECT_EQ(disabled_capabilities(""), 0u);
  EXPECT_EQ(disabled_capabilities("conv,elementwise"),
            bit(Capability::Conv) | bit(Capability::Elementwise));
  EXPECT_EQ(disabled_capabilities("all"),
            ((uint32_t{1} << static_cast<int>(Capability::kCount)) - 1) | kGraphsBit);
  EXPECT_EQ(disabled_capabilities("graphs"), kGraphsBit);
  EXPECT_EQ(disabled_capabilities("pool,graphs"), bit(Capability::Pool) | kGraphsBit);
  EXPECT_EQ(kGraphsBit & ((uint32_t{1} << static_cast<int>(Capability::kCount)) - 1), 0u);
  try {
    disabled_capabilities("conv,bogus");
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'bogus' is not a capability"), std::string::npos) << what;
    EXPECT_NE(what.find("int4_matmul"), std::string::npos) << what;  // every name listed
    EXPECT_NE(what.find("graphs"), std::string::npos) << what;
  }
}

TEST(CudaHost, BackendNamesFollowTheDevices) {
  EXPECT_EQ(backend_name_of_device(0), "cuda");
  EXPECT_EQ(backend_name_of_device(3), "cuda:3");
  const std::vector<std::string> names = backend::available();
  const bool listed = std::find(names.begin(), names.end(), "cuda") != names.end();
  EXPECT_EQ(listed, device_present());  // registered exactly where a device is
  if (!device_present()) {
    EXPECT_THROW(backend::get("cuda:0"), ValueError);
    const std::vector<std::string> devices = backend::list_devices();
    EXPECT_EQ(std::find(devices.begin(), devices.end(), "cuda:0"), devices.end());
  }
}

}  // namespace
}  // namespace keras::cuda

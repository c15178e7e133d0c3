// The cuda backend on a GPU against cpu, one primitive family per test (the conformance suite,
// which links keras_cuda too, covers whole models). Every test skips with one line on a
// machine without a CUDA device.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compiler/program.h"
#include "cuda_device.h"
#include "keras/backend/registry.h"
#include "keras/cuda/memory.h"
#include "keras/keras.h"
#include "ops/nn/linear.h"

namespace keras::cuda {
namespace {

#define KERAS_REQUIRE_GPU() \
  if (!device_present()) GTEST_SKIP() << "no CUDA device on this machine: GPU test skipped"

// `make` run on cpu and on cuda; the two results' values.
template <typename F>
std::pair<std::vector<double>, std::vector<double>> on_both(F make) {
  std::vector<double> r[2];
  const char* names[2] = {"cpu", "cuda"};
  for (int k = 0; k < 2; ++k) {
    backend::BackendScope scope(names[k]);
    Tensor y = make();
    EXPECT_EQ(std::string(y.backend_name()), names[k]);
    r[k] = y.astype(DType::Float64).template to_vector<double>();
  }
  return {r[0], r[1]};
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i])) {
      EXPECT_TRUE(std::isnan(b[i])) << i;
      continue;
    }
    EXPECT_NEAR(a[i], b[i], tol * std::max(1.0, std::abs(a[i]))) << i;
  }
}

TEST(CudaDevice, RandomStreamsAreTheSameBitsAsCpu) {
  KERAS_REQUIRE_GPU();
  for (DType d : {DType::Float32, DType::Float64, DType::Float16, DType::Int32}) {
    auto [c, g] = on_both([&] {
      return is_floating(d) ? random::uniform({1001}, 0.0, 1.0, d, 7)
                            : random::randint({1001}, 0, 1000, d, 7);
    });
    EXPECT_EQ(c, g) << dtype_name(d);
  }
  auto [c, g] = on_both([] { return random::normal({1001}, 0.0, 1.0, DType::Float32, 3); });
  expect_close(c, g, 1e-6);
}

TEST(CudaDevice, ElementwiseAndBroadcastingAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  auto [c, g] = on_both([] {
    Tensor x = random::normal({4, 5, 6}, 0.0, 2.0, DType::Float32, 1);
    Tensor b = random::normal({6}, 0.0, 1.0, DType::Float32, 2);
    Tensor y = ops::add(ops::multiply(ops::tanh(x), b), ops::exp(ops::negative(ops::abs(x))));
    return ops::where(ops::greater(x, 0.0), ops::gelu(y), ops::floor_divide(y, 0.7));
  });
  expect_close(c, g, 2e-6);
  auto [ci, gi] = on_both([] {
    Tensor a = random::randint({3, 7}, -100, 100, DType::Int8, 4);
    Tensor b = random::randint({7}, 1, 9, DType::Int8, 5);
    return ops::add(ops::multiply(a, a), ops::mod(a, b));  // wraps in int8
  });
  EXPECT_EQ(ci, gi);
}

// Few long reductions run in chunks (launch.h's reduce_split): sums and means in double as cpu,
// NaN winning max, integers wrapping, over the leading axis and over all but one.
TEST(CudaDevice, LongReductionsInChunksAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  auto [c, g] = on_both([] {
    Tensor x = random::normal({40000, 3, 8}, 0.0, 1.0, DType::Float32, 7);
    Tensor with_nan =
        ops::where(ops::equal(ops::arange(24).astype(DType::Float32), ops::full({24}, 5.0f)),
                   ops::full({24}, NAN), ops::zeros({24}));
    Tensor xn = ops::add(x, ops::reshape(with_nan, {3, 8}));
    Tensor i = ops::multiply(ops::arange(300000), 123457).astype(DType::Int32);
    return ops::concatenate(
        {ops::reshape(ops::sum(x, 0), {-1}), ops::reshape(ops::mean(x, {0, 1}), {-1}),
         ops::reshape(ops::max(xn, 0), {-1}), ops::reshape(ops::min(x, {0, 2}), {-1}),
         ops::reshape(ops::prod(ops::add(ops::multiply(x, 1e-4), 1.0), 0), {-1}),
         ops::reshape(ops::sum(i).astype(DType::Float32), {-1})},
        0);
  });
  expect_close(c, g, 1e-5);
}

TEST(CudaDevice, ReductionsScansAndGathersAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  auto [c, g] = on_both([] {
    Tensor x = random::normal({8, 9, 10}, 0.0, 1.0, DType::Float32, 6);
    return ops::concatenate({ops::reshape(ops::sum(x, {0, 2}), {-1}),
                             ops::reshape(ops::max(x, 1), {-1}),
                             ops::reshape(ops::cumsum(x, 2), {-1}),
                             ops::reshape(ops::argmax(x, 0).astype(DType::Float32), {-1}),
                             ops::reshape(ops::take(x, Tensor::from_vector(std::vector<int64_t>{3, 0, 3}, {3}), 1), {-1})},
                            0);
  });
  expect_close(c, g, 1e-5);
}

TEST(CudaDevice, SortsAndScattersAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  auto [c, g] = on_both([] {
    // Ties and NaN: a stable order with NaN last (first when descending), as cpu sorts.
    Tensor x = ops::floor(random::normal({5, 40}, 0.0, 3.0, DType::Float32, 10));
    x = ops::where(ops::equal(x, 2.0), ops::full_like(x, std::nan("")), x);
    Tensor order = ops::argsort(x, -1).astype(DType::Float32);
    Tensor sorted = ops::sort(ops::negative(x), -1);
    // segment_sum scatters with Add: repeated ids add in order, as on cpu.
    Tensor ids = random::randint({40}, 0, 7, DType::Int32, 11);
    Tensor summed = ops::math::segment_sum(ops::transpose(x), ids, 7);
    return ops::concatenate({ops::reshape(order, {-1}), ops::reshape(sorted, {-1}),
                             ops::reshape(summed, {-1})},
                            0);
  });
  expect_close(c, g, 1e-5);
}

// Lines longer than the counting sort takes (256) go to CUB's radix sort: one line over the
// device, several as segments; ties, NaN, -0 and +0, float64 and int64 keys, top_k.
TEST(CudaDevice, LongSortsAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  for (DType d : {DType::Float32, DType::Float64, DType::Int64}) {
    auto [c, g] = on_both([&] {
      Tensor x = ops::floor(random::normal({3, 5000}, 0.0, 40.0, DType::Float64, 12));
      if (d != DType::Int64) {
        x = ops::where(ops::equal(x, 7.0), ops::full_like(x, std::nan("")), x);
        x = ops::where(ops::equal(x, 3.0), ops::full_like(x, -0.0), x);
      }
      x = x.astype(d);
      Tensor one_line = ops::reshape(x, {-1});
      return ops::concatenate(
          {ops::reshape(ops::argsort(x, -1), {-1}).astype(DType::Float64),
           ops::reshape(ops::sort(x, -1), {-1}).astype(DType::Float64),
           ops::argsort(ops::negative(one_line), -1).astype(DType::Float64),
           ops::reshape(ops::math::top_k(x, 300).second, {-1}).astype(DType::Float64)},
          0);
    });
    expect_close(c, g, 0);
  }
}

TEST(CudaDevice, MatmulAgreesWithCpu) {
  KERAS_REQUIRE_GPU();
  // float16 and bfloat16 on tensor cores with float32 sums: the products are cpu's, the sums in
  // another order, so the results differ by at most one unit of the last place.
  for (DType d : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16}) {
    auto [c, g] = on_both([&] {
      Tensor a = random::normal({3, 33, 65}, 0.0, 1.0, d, 8);
      Tensor b = random::normal({65, 17}, 0.0, 1.0, d, 9);
      return ops::matmul(a, b);
    });
    expect_close(c, g, d == DType::Float16 ? 1e-2 : d == DType::BFloat16 ? 2e-2 : 1e-5);
  }
}

// Operands cuBLAS reads in place (gemm_layout.h): transposed views, as a product's gradients
// pass them, a matrix broadcast over the batch, columns sliced out of wider rows.
TEST(CudaDevice, MatmulOfViewsAgreesWithCpu) {
  KERAS_REQUIRE_GPU();
  auto [c, g] = on_both([&] {
    Tensor a = random::normal({3, 65, 33}, 0.0, 1.0, DType::Float32, 8);
    Tensor b = random::normal({17, 65}, 0.0, 1.0, DType::Float32, 9);
    Tensor wide = random::normal({65, 40}, 0.0, 1.0, DType::Float32, 10);
    Tensor t = ops::matmul(ops::transpose(a, {0, 2, 1}), ops::transpose(b));  // (3, 33, 17)
    Tensor sliced = ops::matmul(ops::transpose(a, {0, 2, 1}), wide.slice({{}, {3, 20}}));
    return ops::concatenate({ops::reshape(t, {-1}), ops::reshape(sliced, {-1})});
  });
  expect_close(c, g, 1e-5);
}

// cuDNN's convolutions (when built with it; the decomposition otherwise) against cpu: output and
// both gradients, for the layouts, paddings (asymmetric "same" at stride 2 is padded
// explicitly), dilation, groups, 1-D to 3-D and the float dtypes.
TEST(CudaDevice, ConvolutionsAndTheirGradientsAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  struct Case {
    Shape x, kernel;
    ops::ConvOptions options;
    DType dtype;
  };
  const std::vector<Case> cases{
      {{2, 9, 8, 3}, {3, 3, 3, 5}, {.strides = 2, .padding = "same"}, DType::Float32},
      {{2, 4, 11},
       {3, 4, 6},
       {.padding = "same", .data_format = "channels_first", .dilation_rate = 2},
       DType::Float32},
      {{1, 7, 7, 4}, {3, 3, 2, 6}, {}, DType::Float32},  // 2 groups
      {{1, 5, 5, 5, 2}, {2, 2, 2, 2, 3}, {}, DType::Float64},
      {{2, 8, 8, 3}, {3, 3, 3, 4}, {.padding = "same"}, DType::Float16},
      {{2, 8, 8, 8}, {3, 3, 8, 16}, {.padding = "same"}, DType::BFloat16},
  };
  for (const Case& t : cases) {
    auto [c, g] = on_both([&] {
      Tensor x = random::normal(t.x, 0.0, 1.0, t.dtype, 1);
      Tensor k = random::normal(t.kernel, 0.0, 1.0, t.dtype, 2);
      Tensor y = ops::conv(x, k, t.options);
      Tensor r = random::normal(y.shape(), 0.0, 1.0, t.dtype, 3);
      std::vector<Tensor> grads = keras::grad(
          [&](const std::vector<Tensor>& in) {
            return ops::sum(ops::multiply(ops::conv(in[0], in[1], t.options), r));
          },
          {x, k});
      return ops::concatenate(
          {ops::reshape(y, {-1}), ops::reshape(grads[0], {-1}), ops::reshape(grads[1], {-1})});
    });
    const double tol = t.dtype == DType::Float16    ? 3e-2
                       : t.dtype == DType::BFloat16 ? 6e-2
                       : t.dtype == DType::Float64  ? 1e-10
                                                    : 1e-4;
    expect_close(c, g, tol);
  }
}

// The fused linear (a product, then the bias-and-activation epilogue kernel) with its gradients
// (the epilogue's backward kernel and the bias sums), and softmax along every axis, against cpu.
TEST(CudaDevice, FusedLinearEpilogueAndSoftmaxAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  ASSERT_TRUE(backend::get("cuda").supports(backend::Capability::Linear));
  using backend::Activation;
  for (Activation act : {Activation::None, Activation::Relu, Activation::Sigmoid, Activation::Tanh,
                         Activation::Gelu, Activation::Silu}) {
    auto [c, g] = on_both([&] {
      Tensor x = random::normal({7, 33}, 0.0, 1.0, DType::Float32, 1);
      Tensor w = random::normal({33, 9}, 0.0, 1.0, DType::Float32, 2);
      Tensor b = random::normal({9}, 0.0, 1.0, DType::Float32, 3);
      Tensor r = random::normal({7, 9}, 0.0, 1.0, DType::Float32, 4);
      std::vector<Tensor> grads = keras::grad(
          [&](const std::vector<Tensor>& in) {
            return ops::sum(
                ops::multiply(ops::detail::linear_bias_activation(in[0], in[1], in[2], act), r));
          },
          {x, w, b});
      Tensor y = ops::detail::linear_bias_activation(x, w, b, act);
      return ops::concatenate({ops::reshape(y, {-1}), ops::reshape(grads[0], {-1}),
                               ops::reshape(grads[1], {-1}), grads[2]});
    });
    expect_close(c, g, 1e-5);
  }
  for (int axis : {0, 1, 2}) {
    for (bool log : {false, true}) {
      auto [c, g] = on_both([&] {
        Tensor x = random::normal({4, 5, 6}, 0.0, 3.0, DType::Float32, 5);
        return log ? ops::log_softmax(x, axis) : ops::softmax(x, axis);
      });
      expect_close(c, g, 1e-6);
    }
  }
}

// Max and average pooling with their gradients against cpu: overlapping windows, "same"
// padding (padded taps never counted), both layouts, 1-D to 3-D, ties after a ReLU (the first
// maximum takes the gradient).
TEST(CudaDevice, PoolingAndItsGradientAgreeWithCpu) {
  KERAS_REQUIRE_GPU();
  struct Case {
    Shape x;
    int pool;
    int stride;
    std::string padding, format;
    bool max;
  };
  const std::vector<Case> cases{
      {{2, 7, 9, 3}, 3, 2, "same", "channels_last", true},
      {{2, 7, 9, 3}, 3, 2, "same", "channels_last", false},
      {{2, 3, 8, 8}, 2, 2, "valid", "channels_first", true},
      {{2, 11, 4}, 3, 1, "same", "channels_last", false},
      {{1, 5, 6, 7, 2}, 2, 2, "valid", "channels_last", true},
  };
  for (const Case& t : cases) {
    auto [c, g] = on_both([&] {
      Tensor x = ops::relu(random::normal(t.x, 0.0, 1.0, DType::Float32, 6));  // ties at 0
      auto pool = [&](const Tensor& in) {
        const ops::PoolOptions options{
            .strides = t.stride, .padding = t.padding, .data_format = t.format};
        return t.max ? ops::max_pool(in, t.pool, options) : ops::average_pool(in, t.pool, options);
      };
      Tensor y = pool(x);
      Tensor r = random::normal(y.shape(), 0.0, 1.0, DType::Float32, 7);
      Tensor dx =
          keras::grad([&](const Tensor& in) { return ops::sum(ops::multiply(pool(in), r)); }, x);
      return ops::concatenate({ops::reshape(y, {-1}), ops::reshape(dx, {-1})});
    });
    expect_close(c, g, 1e-6);
  }
}

TEST(CudaDevice, TensorsMoveBetweenCpuAndCuda) {
  KERAS_REQUIRE_GPU();
  Tensor x = ops::arange(0, 12, 1, DType::Float32);
  Tensor on_gpu = x.to("cuda");
  EXPECT_EQ(std::string(on_gpu.backend_name()), "cuda");
  EXPECT_EQ(on_gpu.to("cpu").to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(backend::get("cuda").device(), "cuda:0");
  EXPECT_EQ(&backend::get("cuda:0"), &backend::get("cuda"));
}

TEST(CudaDevice, EveryDeviceIsABackendAndADevice) {
  KERAS_REQUIRE_GPU();
  const std::vector<std::string> devices = backend::list_devices();
  for (int d = 0; d < device_count(); ++d) {
    backend::Backend& b = backend::get(backend_name_of_device(d));
    const std::string device = "cuda:" + std::to_string(d);
    EXPECT_EQ(b.device(), device);
    EXPECT_FALSE(b.is_host());
    EXPECT_NE(std::find(devices.begin(), devices.end(), device), devices.end()) << device;
    // Each device computes on its own memory (a backend that forgot to select its device would
    // launch on the previous one's and fail or read garbage).
    Tensor x = ops::arange(0, 1000, 1, DType::Float32).to(backend_name_of_device(d));
    EXPECT_FLOAT_EQ(ops::sum(ops::multiply(x, x)).to("cpu").item<float>(), 332833500.0f);
  }
}

// What memory_stats reports against the sizes the tensors have (1 MiB and 3 MiB of float32,
// which the cache serves as 1 MiB and 4 MiB blocks).
TEST(CudaDevice, MemoryStatsFollowTheTensors) {
  KERAS_REQUIRE_GPU();
  backend::BackendScope scope("cuda");
  empty_cache();
  const MemoryStats before = memory_stats();
  reset_peak_memory_stats();
  {
    Tensor a = ops::zeros({1 << 18}, DType::Float32);
    Tensor b = ops::zeros({3 << 18}, DType::Float32);
    const MemoryStats during = memory_stats();
    EXPECT_EQ(during.allocated_bytes - before.allocated_bytes, size_t{5} << 20);
    EXPECT_GE(during.reserved_bytes, during.allocated_bytes);
  }
  const MemoryStats after = memory_stats();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(after.peak_allocated_bytes, before.allocated_bytes + (size_t{5} << 20));
  EXPECT_GE(after.reserved_bytes - after.allocated_bytes, size_t{5} << 20);  // cached
  empty_cache();
  EXPECT_EQ(memory_stats().reserved_bytes, memory_stats().allocated_bytes);
}

// A compiled training step on cuda becomes a CUDA graph (cuda_graphs.cpp) after one replay, and
// every launch sees its new inputs and updates the variables as cpu's replays do.
TEST(CudaDevice, ACompiledStepLaunchedAsACudaGraphAgreesWithCpu) {
  KERAS_REQUIRE_GPU();
  constexpr int64_t n = 64, d = 16;
  std::vector<double> results[2];
  size_t launches[2] = {0, 0};
  const char* names[2] = {"cpu", "cuda"};
  for (int k = 0; k < 2; ++k) {
    backend::BackendScope scope(names[k]);
    Variable w(Tensor::from_vector(std::vector<float>(d, 0.1f), {d, 1}));
    auto step = [&](const TensorList& in) {
      const Tensor err = ops::subtract(ops::matmul(in[0], w.value()), in[1]);
      w.assign_sub(ops::multiply(ops::matmul(ops::transpose(in[0]), err), 0.01 / n));
      return TensorList{ops::mean(ops::square(err))};
    };
    auto batch = [&](int call) {
      std::vector<float> x(n * d), y(n);
      for (int64_t i = 0; i < n * d; ++i) x[i] = std::sin(0.37 * i + call);
      for (int64_t i = 0; i < n; ++i) y[i] = std::cos(0.11 * i * (call + 1));
      return TensorList{Tensor::from_vector(x, {n, d}).to(names[k]),
                        Tensor::from_vector(y, {n, 1}).to(names[k])};
    };
    auto trace = std::make_unique<compiler::detail::Trace>(batch(0));
    TensorList traced = step(trace->inputs);
    trace->stop();
    trace->set_outputs(traced);
    compiler::detail::Program program(std::move(trace));
    for (int call = 1; call <= 6; ++call)
      results[k].push_back(program.replay(batch(call))[0].to_vector<double>()[0]);
    for (double v : w.value().to_vector<double>()) results[k].push_back(v);
    launches[k] = program.stats().graph_launches;
    if (k == 1) {
      EXPECT_EQ(program.stats().graph_problem, "");
    }
  }
  EXPECT_EQ(launches[0], 0u);
  EXPECT_EQ(launches[1], 5u);  // one plain replay, then the graph
  expect_close(results[0], results[1], 1e-5);
}

}  // namespace
}  // namespace keras::cuda

// The front end on a backend whose memory the host cannot read (tests/support/device_emulator.h:
// cpu's kernels behind faulting addresses), as it will be on a GPU: the conformance suite in
// this program runs every case on it too (it is registered before main), and the tests below
// cover what the suite does not (printing, files, data-dependent shapes, the compiled mode,
// callbacks). Any front-end code reading device memory directly crashes here.

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "assertions.h"
#include "device_emulator.h"
#include "keras/backend/registry.h"
#include "keras/keras.h"

namespace keras {
namespace {

using testing::kDeviceEmulator;

[[maybe_unused]] const bool registered = [] {
  testing::register_device_emulator();
  return true;
}();

std::string scratch(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / name).string();
}

TEST(DeviceEmulator, IsADeviceTheHostCannotRead) {
  backend::Backend& b = backend::get(kDeviceEmulator);
  EXPECT_FALSE(b.is_host());
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3}, Shape{3}).to(kDeviceEmulator);
  EXPECT_EQ(x.backend_name(), kDeviceEmulator);
  // A direct read would fault (the address is non-canonical): the emulator is only useful if so.
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the cpu backend's pool has threads
  EXPECT_DEATH(
      {
        volatile float v = *static_cast<const float*>(x.array().data());
        (void)v;
      },
      "");
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(DeviceEmulator, PrintsConvertsAndReadsScalars) {
  backend::BackendScope scope(kDeviceEmulator);
  Tensor x = ops::reshape(ops::arange(0, 6, 1, DType::Float32), {2, 3});
  std::ostringstream printed, expected;
  printed << x;
  expected << x.to("cpu");
  EXPECT_EQ(printed.str(), expected.str());
  EXPECT_EQ(ops::sum(x).item<float>(), 15.0f);
  EXPECT_EQ(x.astype(DType::Int64).to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  const std::string path = scratch("emulated.npy");
  utils::save_npy(path, x);
  EXPECT_EQ(utils::load_npy(path).to_vector<float>(), x.to_vector<float>());
}

TEST(DeviceEmulator, DataDependentShapes) {
  backend::BackendScope scope(kDeviceEmulator);
  Tensor x = Tensor::from_vector(std::vector<float>{3, -1, 3, 0, 7, -1}, Shape{6});
  EXPECT_EQ(ops::unique(x).values.to_vector<float>(), (std::vector<float>{-1, 0, 3, 7}));
  EXPECT_EQ(ops::nonzero(x)[0].to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 2, 4, 5}));
  Tensor mask = ops::greater(x, ops::zeros_like(x));
  EXPECT_EQ(x.index({mask}).to_vector<float>(), (std::vector<float>{3, 3, 7}));
}

// The same small model trained on cpu and on the emulator, eager and compiled: the emulator runs
// cpu's kernels, so the numbers agree to the last bits the front end's paths allow.
void train_on(const std::string& where, bool jit, std::vector<double>& losses,
              std::vector<Tensor>& weights, const std::string& saved = "") {
  backend::BackendScope scope(where);
  utils::set_random_seed(3);
  auto model = Sequential({Input({8, 8, 1}), layers::Conv2D(4, 3, {.activation = "relu"}),
                           layers::MaxPooling2D(), layers::Flatten(), layers::Dropout(0.25),
                           layers::Dense(3)});
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 1e-2}),
                  .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                  .metrics = {"accuracy"},
                  .jit_compile = jit ? "true" : "false"});
  Tensor x = random::normal({48, 8, 8, 1}, 0, 1, DType::Float32, 11);
  Tensor y = random::randint({48}, 0, 3, DType::Int32, 12);
  auto stopping =
      std::make_shared<callbacks::EarlyStopping>(callbacks::EarlyStoppingOptions{.patience = 5});
  auto history = model->fit(x, y,
                            {.batch_size = 16,
                             .epochs = 3,
                             .verbose = 0,
                             .callbacks = {stopping},
                             .validation_split = 0.25});
  losses = history->history.at("loss");
  for (double v : history->history.at("val_loss")) losses.push_back(v);
  losses.push_back(model->evaluate(x, y, {.verbose = 0}).at("loss"));
  weights = model->get_weights();
  weights.push_back(model->predict(x, {.verbose = 0}).single());
  if (!saved.empty()) model->save(saved);
}

TEST(DeviceEmulator, TrainsEvaluatesPredictsAndSavesAsCpuDoes) {
  for (bool jit : {false, true}) {
    SCOPED_TRACE(jit ? "compiled" : "eager");
    std::vector<double> on_cpu, on_device;
    std::vector<Tensor> w_cpu, w_device;
    const std::string path = scratch(jit ? "emulated_jit.keras" : "emulated.keras");
    train_on("cpu", jit, on_cpu, w_cpu);
    train_on(kDeviceEmulator, jit, on_device, w_device, path);
    ASSERT_EQ(on_cpu.size(), on_device.size());
    for (size_t i = 0; i < on_cpu.size(); ++i) EXPECT_NEAR(on_device[i], on_cpu[i], 1e-6) << i;
    ASSERT_EQ(w_cpu.size(), w_device.size());
    for (size_t i = 0; i < w_cpu.size(); ++i) {
      EXPECT_EQ(w_device[i].backend_name(), kDeviceEmulator) << i;
      EXPECT_TENSOR_NEAR(w_device[i].to("cpu"), w_cpu[i], 1e-5, 1e-6);
    }
    // The file written from device memory loads on cpu with the same weights.
    auto loaded = saving::load_model(path);
    std::vector<Tensor> w_loaded = loaded->get_weights();
    for (size_t i = 0; i + 1 < w_device.size(); ++i)
      EXPECT_TENSOR_EQ(w_loaded[i], w_device[i].to("cpu"));
  }
}

}  // namespace
}  // namespace keras

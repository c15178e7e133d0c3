// The registry, backend selection and the stub backend's clean failures.

#include <gtest/gtest.h>

#include <algorithm>

#include "assertions.h"
#include "device_emulator.h"
#include "keras/keras.h"

namespace keras {
namespace {

TEST(Registry, ListsBuiltinBackends) {
  auto names = backend::available();
  EXPECT_NE(std::find(names.begin(), names.end(), "cpu"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "stub"), names.end());
  EXPECT_EQ(backend::get("cpu").name(), "cpu");
}

TEST(Registry, UnknownBackendListsAvailable) {
  try {
    backend::get("tpu");
    FAIL();
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'tpu'"), std::string::npos);
    EXPECT_NE(m.find("cpu"), std::string::npos);
  }
  EXPECT_THROW(backend::register_backend("cpu", nullptr), ValueError);
}

TEST(Registry, AliasesNameTheSameBackend) {
  backend::register_alias("stub:0", "stub");
  EXPECT_EQ(&backend::get("stub:0"), &backend::get("stub"));
  EXPECT_EQ(&backend::get("cpu:0"), &backend::get("cpu"));
  auto names = backend::available();
  EXPECT_EQ(std::find(names.begin(), names.end(), "stub:0"), names.end())
      << "aliases are not listed";
  {
    backend::BackendScope scope("stub:0");
    EXPECT_EQ(backend::backend(), "stub");
  }
  Tensor t = Tensor::from_vector(std::vector<float>{1, 2}, Shape{2}).to("cpu:0");
  EXPECT_EQ(t.backend_name(), "cpu");
  EXPECT_THROW(backend::register_alias("stub:0", "cpu"), ValueError);  // taken
  EXPECT_THROW(backend::register_backend("stub:0", nullptr), ValueError);
  EXPECT_THROW(backend::register_alias("cpu", "stub"), ValueError);  // a backend's own name
  try {
    backend::register_alias("tpu:0", "tpu");
    FAIL() << "an alias of an unknown backend was registered";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("'tpu'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(backend::get("tpu:0"), ValueError);
}

TEST(Registry, ListDevicesNamesEachDeviceOnce) {
  std::vector<std::string> devices = backend::list_devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(devices.front(), "cpu:0");  // "cpu" sorts first among the backends
  EXPECT_EQ(std::count(devices.begin(), devices.end(), "cpu:0"), 1);  // cpu, stub, torch share it
  EXPECT_EQ(std::find(devices.begin(), devices.end(), "none"), devices.end());  // symbolic
  for (const std::string& name : backend::available()) {
    const backend::Backend& b = backend::get(name);
    if (!b.is_symbolic()) {
      EXPECT_NE(std::find(devices.begin(), devices.end(), b.device()), devices.end()) << name;
    }
  }
}

TEST(Registry, ScopeSelectsBackendForNewTensors) {
  EXPECT_EQ(backend::backend(), "cpu");
  {
    backend::BackendScope scope("stub");
    EXPECT_EQ(backend::backend(), "stub");
    EXPECT_EQ(backend::current_source(), "BackendScope");
    Tensor t = Tensor::from_vector(std::vector<float>{1, 2}, Shape{2});
    EXPECT_EQ(t.backend_name(), "stub");
  }
  EXPECT_EQ(backend::backend(), "cpu");
}

TEST(Registry, SetDefault) {
  backend::set_default("stub");
  EXPECT_EQ(backend::backend(), "stub");
  EXPECT_EQ(backend::current_source(), "set_default");
  backend::set_default("cpu");
  EXPECT_EQ(backend::backend(), "cpu");
}

TEST(StubBackend, PrimitivesFailWithTheirName) {
  Tensor a = Tensor::from_vector(std::vector<float>{1, 2, 3}, Shape{3}, "stub");
  try {
    ops::add(a, a);
    FAIL() << "the stub backend computed something";
  } catch (const NotImplementedError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'stub'"), std::string::npos) << m;
    EXPECT_NE(m.find("binary(add)"), std::string::npos) << m;
  }
  EXPECT_THROW(ops::sum(a), NotImplementedError);
  EXPECT_THROW(ops::matmul(a.reshape({1, 3}), a.reshape({3, 1})), NotImplementedError);
  // Memory works, so data moves in and out.
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(Backends, MixingIsAnErrorAndToMoves) {
  Tensor a = Tensor::from_vector(std::vector<float>{1, 2, 3}, Shape{3}, "cpu");
  Tensor b = Tensor::from_vector(std::vector<float>{4, 5, 6}, Shape{3}, "stub");
  try {
    ops::add(a, b);
    FAIL();
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("different backends"), std::string::npos) << m;
    EXPECT_NE(m.find(".to("), std::string::npos) << m;
  }
  // Devices are named too: a GPU's tensors (the emulator stands for one) with the host's.
  testing::register_device_emulator();
  Tensor on_device = a.to(testing::kDeviceEmulator);
  try {
    ops::multiply(a, on_device);
    FAIL();
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'cpu' on cpu:0 and 'device_emulator' on emulated:0"), std::string::npos) << m;
  }
  Tensor moved = b.to("cpu");
  EXPECT_EQ(moved.backend_name(), "cpu");
  EXPECT_EQ(ops::add(a, moved).to_vector<float>(), (std::vector<float>{5, 7, 9}));
  // A literal follows the tensor it meets, whatever the current backend.
  backend::BackendScope scope("stub");
  EXPECT_EQ(ops::add(a, 1.0f).to_vector<float>(), (std::vector<float>{2, 3, 4}));
}

}  // namespace
}  // namespace keras

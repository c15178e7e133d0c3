// The registry, backend selection and the stub backend's clean failures.

#include <gtest/gtest.h>

#include <algorithm>

#include "assertions.h"
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
  Tensor moved = b.to("cpu");
  EXPECT_EQ(moved.backend_name(), "cpu");
  EXPECT_EQ(ops::add(a, moved).to_vector<float>(), (std::vector<float>{5, 7, 9}));
  // A literal follows the tensor it meets, whatever the current backend.
  backend::BackendScope scope("stub");
  EXPECT_EQ(ops::add(a, 1.0f).to_vector<float>(), (std::vector<float>{2, 3, 4}));
}

}  // namespace
}  // namespace keras

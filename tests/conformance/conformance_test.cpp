// The cross-backend conformance suite (keras/testing/conformance.h) as a test: every case on
// every backend built into this program agrees with cpu within its bound. The table goes to
// stdout, so the ctest log holds the measured differences.

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/testing/conformance.h"
#include "testing/conformance/cases.h"

namespace keras::testing {
namespace {

bool has(const std::string& name) {
  for (const auto& b : backend::available())
    if (b == name) return true;
  return false;
}

TEST(Conformance, EveryBackendAgreesWithCpu) {
  std::vector<std::string> backends;
  for (const auto& b : backend::available())
    if (b != "cpu" && b != "stub" && b != "symbolic") backends.push_back(b);
  if (backends.empty()) GTEST_SKIP() << "no backend besides cpu is built in";
  auto results = run_conformance({.backends = backends, .training_samples = 512});
  std::cout << conformance_table(results) << "\n" << conformance_summary(results);
  ASSERT_FALSE(results.empty());
  for (const auto& r : results) {
    EXPECT_EQ(r.status, ConformanceStatus::Pass)
        << r.backend << " " << r.family << " " << r.name << ": difference " << r.difference
        << " (bound " << r.bound << ") " << r.message;
  }
}

TEST(Conformance, StubBackendListsWhatANewBackendNeeds) {
  // The stub implements no primitive: a case is "not implemented" naming the primitive it
  // needs, or passes because it ran elsewhere (linear algebra on a backend without it runs on
  // cpu); none fails or crashes.
  auto results = run_conformance({.backends = {"stub"}, .training = false});
  ASSERT_FALSE(results.empty());
  size_t missing = 0;
  for (const auto& r : results) {
    ASSERT_TRUE(r.status == ConformanceStatus::NotImplemented || r.status == ConformanceStatus::Pass)
        << r.name << ": " << r.message;
    if (r.status == ConformanceStatus::NotImplemented) {
      ++missing;
      EXPECT_NE(r.message.find("the primitive '"), std::string::npos) << r.message;
    }
  }
  EXPECT_GT(missing, results.size() * 3 / 4);
}

TEST(Conformance, DifferenceMeasure) {
  auto t = [](std::vector<float> v) {
    return Tensor::from_host(v.data(), DType::Float32, {static_cast<int64_t>(v.size())}, v.size(), "cpu");
  };
  using conformance::difference;
  EXPECT_EQ(difference(t({1, -2, 3}), t({1, -2, 3})), 0);
  // Relative above a thousandth of the scale (here 1000): 2.002 vs 2 is 1e-3.
  EXPECT_NEAR(difference(t({1000, 2.002f}), t({1000, 2})), 1e-3, 1e-6);
  // Below it, relative to the floor 1: 0.001 vs 0 is 1e-3, not infinity.
  EXPECT_NEAR(difference(t({1000, 0.001f}), t({1000, 0})), 1e-3, 1e-6);
  EXPECT_TRUE(std::isnan(difference(t({NAN, 1}), t({0, 1}))));
  EXPECT_EQ(difference(t({NAN, 1}), t({NAN, 1})), 0);
  EXPECT_TRUE(std::isnan(difference(t({1, 2}), t({1, 2, 3}))));
  Tensor i32 = Tensor::from_host(std::vector<int32_t>{1, 2}.data(), DType::Int32, {2}, 2, "cpu");
  Tensor j32 = Tensor::from_host(std::vector<int32_t>{1, 3}.data(), DType::Int32, {2}, 2, "cpu");
  EXPECT_TRUE(std::isnan(difference(i32, j32)));  // integers must be equal
}

TEST(Conformance, UnknownBackendIsAValueError) {
  EXPECT_THROW(run_conformance({.backends = {"tpu"}}), ValueError);
  EXPECT_FALSE(has("tpu"));
}

}  // namespace
}  // namespace keras::testing

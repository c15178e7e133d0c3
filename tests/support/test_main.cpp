// The main() of every test executable: GoogleTest's, plus a seed per test. Each test starts
// with keras::utils::set_random_seed(a hash of its full name), so what it draws without an
// explicit seed (initializers, dropout, shuffles) is the same in every run, whatever the order
// or filter of the tests around it: a statistical bound cannot fail one run in fifteen.
// KERAS_TEST_SEED=N mixes N into every seed, to run the suite under other draws and find the
// tests whose bounds are too tight for some seeds (docs/testing.md).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "device_emulator.h"
#include "keras/random/random.h"

namespace {

// FNV-1a: stable across compilers and runs (std::hash is not required to be).
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

class SeedEachTest : public testing::EmptyTestEventListener {
 public:
  explicit SeedEachTest(uint64_t mix) : mix_(mix) {}
  void OnTestStart(const testing::TestInfo& info) override {
    const std::string name = std::string(info.test_suite_name()) + "." + info.name();
    // Seeds are taken modulo 2^31 by some generators: keep them in range.
    keras::utils::set_random_seed((fnv1a(name) ^ mix_) & 0x7fffffff);
  }

 private:
  uint64_t mix_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const char* mix = std::getenv("KERAS_TEST_SEED");
  const uint64_t value = mix && *mix ? fnv1a(mix) : 0;
  testing::UnitTest::GetInstance()->listeners().Append(new SeedEachTest(value));
  // KERAS_BACKEND=device_emulator runs a suite on a backend the host cannot read (a GPU's view
  // of the front end: tests/support/device_emulator.h). Registered only then: tests that list
  // the backends compare them with the keras-cpp command's, which has no emulator.
  const char* backend = std::getenv("KERAS_BACKEND");
  if (backend && backend == keras::testing::kDeviceEmulator)
    keras::testing::register_device_emulator();
  return RUN_ALL_TESTS();
}

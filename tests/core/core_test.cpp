// dtypes, half-precision conversions, Shape, Scalar, errors and config.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "keras/core/config.h"
#include "keras/core/dtype.h"
#include "keras/core/errors.h"
#include "keras/core/scalar.h"
#include "keras/core/shape.h"

namespace keras {
namespace {

TEST(DType, NamesRoundTrip) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto t = static_cast<DType>(i);
    EXPECT_EQ(dtype_from_string(dtype_name(t)), t);
  }
  EXPECT_EQ(itemsize(DType::BFloat16), 2u);
  EXPECT_EQ(dtype_from_string("float"), DType::Float32);
  try {
    dtype_from_string("float128");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("float128"), std::string::npos);
  }
}

TEST(Half, Float16MatchesIeee) {
  // Reference values from the IEEE 754 binary16 encoding (numpy.float16(...).view(uint16)).
  EXPECT_EQ(float16_t(1.0f).bits, 0x3c00);
  EXPECT_EQ(float16_t(-2.0f).bits, 0xc000);
  EXPECT_EQ(float16_t(65504.0f).bits, 0x7bff);
  EXPECT_EQ(float16_t(65520.0f).bits, 0x7c00);  // rounds to inf
  EXPECT_EQ(float16_t(5.9604645e-08f).bits, 0x0001);  // smallest subnormal
  EXPECT_EQ(float16_t(6.1035156e-05f).bits, 0x0400);  // smallest normal
  EXPECT_EQ(float16_t(0.1f).bits, 0x2e66);
  EXPECT_EQ(float16_t(1.0009765625f + 0.00048828125f).bits, 0x3c02);  // tie to even (up)
  EXPECT_EQ(float16_t(1.00048828125f).bits, 0x3c00);  // tie to even (down)
  EXPECT_TRUE(std::isnan(static_cast<float>(float16_t(NAN))));
  EXPECT_EQ(static_cast<float>(float16_t::from_bits(0x3555)), 0.333251953125f);
}

TEST(Half, BFloat16RoundsToNearestEven) {
  EXPECT_EQ(bfloat16_t(1.0f).bits, 0x3f80);
  EXPECT_EQ(bfloat16_t(3.14159265f).bits, 0x4049);
  EXPECT_EQ(static_cast<float>(bfloat16_t::from_bits(0x4049)), 3.140625f);
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(NAN))));
}

TEST(Shape, Basics) {
  Shape s{2, 3, 4};
  EXPECT_EQ(s.rank(), 3);
  EXPECT_EQ(s.numel(), 24);
  EXPECT_EQ(s.to_string(), "(2, 3, 4)");
  EXPECT_EQ(Shape{5}.to_string(), "(5,)");
  EXPECT_EQ(Shape{}.to_string(), "()");
  EXPECT_EQ(Shape{}.numel(), 1);
  EXPECT_EQ(contiguous_strides(s), (Strides{12, 4, 1}));
  Shape big{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};  // beyond the inline capacity
  EXPECT_EQ(big.numel(), 3628800);
  Shape copy = big;
  EXPECT_EQ(copy, big);
}

TEST(Scalar, WeakTyping) {
  EXPECT_TRUE(Scalar(1.5).is_weak());
  EXPECT_TRUE(Scalar(3).is_weak());
  EXPECT_FALSE(Scalar(true).is_weak());
  EXPECT_EQ(Scalar(3).dtype(), DType::Int32);
  EXPECT_EQ(Scalar(1.5f).dtype(), DType::Float32);
  Scalar t = Scalar::typed(2.7, DType::Int8);
  EXPECT_FALSE(t.is_weak());
  EXPECT_EQ(t.to<int>(), 2);
  EXPECT_EQ(Scalar(-1).to<uint8_t>(), 255);
}

TEST(Errors, Hierarchy) {
  EXPECT_THROW(check(false, "x"), ValueError);
  EXPECT_THROW(check<TypeError>(false, "x"), Error);
  try {
    check(false, "shape ", Shape{2, 3}, " is wrong");
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "shape (2, 3) is wrong");
  }
}

// Writes a keras.json in a temporary KERAS_HOME and reloads the config from it.
class ConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("keras_cpp_config_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    setenv("KERAS_HOME", dir_.c_str(), 1);
    unsetenv("KERAS_BACKEND");
  }
  void TearDown() override {
    unsetenv("KERAS_HOME");
    std::filesystem::remove_all(dir_);
    config::reload();
  }
  void write(const std::string& text) {
    std::ofstream(dir_ / "keras.json") << text;
    config::reload();
  }
  std::filesystem::path dir_;
};

TEST_F(ConfigFile, ReadsKerasJson) {
  write(R"({"floatx": "float64", "epsilon": 1e-5, "backend": "stub",
            "image_data_format": "channels_first"})");
  EXPECT_EQ(config::floatx(), DType::Float64);
  EXPECT_DOUBLE_EQ(config::epsilon(), 1e-5);
  EXPECT_EQ(config::image_data_format(), "channels_first");
  EXPECT_EQ(config::configured_backend(), "stub");
  EXPECT_EQ(config::configured_backend_source(), (dir_ / "keras.json").string());
}

TEST_F(ConfigFile, EnvironmentOverridesFile) {
  setenv("KERAS_BACKEND", "cpu", 1);
  write(R"({"backend": "stub"})");
  EXPECT_EQ(config::configured_backend(), "cpu");
  EXPECT_EQ(config::configured_backend_source(), "KERAS_BACKEND");
  unsetenv("KERAS_BACKEND");
}

TEST_F(ConfigFile, InvalidValuesNameTheFile) {
  try {
    write(R"({"floatx": "int8"})");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("keras.json"), std::string::npos);
  }
  write("not json");  // ignored, as Keras ignores it
  EXPECT_EQ(config::floatx(), DType::Float32);
}

TEST(Config, SettersValidate) {
  EXPECT_THROW(config::set_floatx(DType::Int32), ValueError);
  EXPECT_THROW(config::set_image_data_format("nhwc"), ValueError);
}

}  // namespace
}  // namespace keras

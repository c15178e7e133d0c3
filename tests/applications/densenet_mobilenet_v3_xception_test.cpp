// DenseNet, MobileNetV3 and Xception: the argument rules of keras/src/applications/densenet.py,
// mobilenet_v3.py and xception.py (Keras 3.15) that scripts/applications_check.sh does not
// reach (it builds valid models only): refused data formats, sizes and widths, the input shapes
// Keras chooses, and the ImageNet file names Keras downloads.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "keras/keras.h"

namespace keras {
namespace {

namespace apps = keras::applications;

// The message of the Error `build` throws, "" if it throws none.
template <typename E, typename F>
std::string error_of(F build) {
  try {
    build();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

class ApplicationsTest : public ::testing::Test {
 protected:
  void SetUp() override { backend::clear_session(); }
  void TearDown() override { config::set_image_data_format("channels_last"); }
};

TEST_F(ApplicationsTest, DenseNetRefusesChannelsFirstAsKerasDoes) {
  config::set_image_data_format("channels_first");
  const std::string msg = error_of<ValueError>([] {
    apps::DenseNet121({.include_top = false, .weights = "", .input_shape = Shape{3, 64, 64}});
  });
  EXPECT_NE(msg.find("channels_first"), std::string::npos) << msg;
}

TEST_F(ApplicationsTest, DenseNetWithTopTakesKerasDefaultShape) {
  auto model = apps::DenseNet121({.weights = ""});
  EXPECT_EQ(model->inputs()[0].shape(), (Shape{-1, 224, 224, 3}));
  EXPECT_EQ(model->name(), "densenet121");
}

TEST_F(ApplicationsTest, MobileNetV3KeepsTheInputSizeFreeWithTop) {
  // Keras's MobileNetV3 does not call obtain_input_shape: (None, None, 3) even with top.
  auto model = apps::MobileNetV3Small({.weights = "", .classes = 3});
  EXPECT_EQ(model->inputs()[0].shape(), (Shape{-1, -1, -1, 3}));
  EXPECT_EQ(model->outputs()[0].shape(), (Shape{-1, 3}));
  EXPECT_EQ(model->name(), "MobileNetV3Small");
}

TEST_F(ApplicationsTest, MobileNetV3RefusesInputsBelow32) {
  const std::string msg = error_of<ValueError>([] {
    apps::MobileNetV3Large({.include_top = false, .weights = "", .input_shape = Shape{31, 64, 3}});
  });
  EXPECT_NE(msg.find("at least 32x32"), std::string::npos) << msg;
}

TEST_F(ApplicationsTest, MobileNetV3ImageNetWidthsAreKerass) {
  // Keras: alpha 0.75 or 1.0, minimalistic 1.0 only; checked before any file is read.
  EXPECT_NE(error_of<ValueError>([] { apps::MobileNetV3Small({}, {.alpha = 0.5}); }), "");
  EXPECT_NE(error_of<ValueError>([] {
              apps::MobileNetV3Large({}, {.alpha = 0.75, .minimalistic = true});
            }),
            "");
}

TEST_F(ApplicationsTest, ImageNetFilesHaveKerasNames) {
  const auto home = std::filesystem::temp_directory_path() / "keras-cpp-apps1-empty-home";
  std::filesystem::create_directories(home);
  ::setenv("KERAS_HOME", home.c_str(), 1);
  const auto missing = [](auto build) { return error_of<IOError>(build); };
  EXPECT_NE(missing([] { apps::MobileNetV3Large({}, {.alpha = 0.75}); })
                .find("weights_mobilenet_v3_large_224_0.75_float.h5"),
            std::string::npos);
  EXPECT_NE(missing([] {
              apps::MobileNetV3Small({.include_top = false}, {.minimalistic = true});
            }).find("weights_mobilenet_v3_small_minimalistic_224_1.0_float_no_top_v2.h5"),
            std::string::npos);
  EXPECT_NE(missing([] { apps::DenseNet169({.include_top = false}); })
                .find("densenet169_weights_tf_dim_ordering_tf_kernels_notop.h5"),
            std::string::npos);
  EXPECT_NE(missing([] { apps::Xception(); }).find("xception_weights_tf_dim_ordering_tf_kernels.h5"),
            std::string::npos);
  ::unsetenv("KERAS_HOME");
}

TEST_F(ApplicationsTest, XceptionSizesAreKerass) {
  auto model = apps::Xception({.weights = ""});
  EXPECT_EQ(model->inputs()[0].shape(), (Shape{-1, 299, 299, 3}));
  const std::string msg = error_of<ValueError>([] {
    apps::Xception({.include_top = false, .weights = "", .input_shape = Shape{70, 128, 3}});
  });
  EXPECT_NE(msg.find("at least 71x71"), std::string::npos) << msg;
}

TEST_F(ApplicationsTest, ActivationAliasesAreRecordedAsKerasRecordsThem) {
  // Keras 3.15: Dense(2, activation="swish").get_config()["activation"] == "silu".
  EXPECT_EQ(activations::Activation("swish").name(), "silu");
  EXPECT_EQ(activations::Activation("hard_swish").name(), "hard_silu");
}

}  // namespace
}  // namespace keras

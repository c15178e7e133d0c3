// load_img, img_to_array, array_to_img and save_img against what Keras 3.15 (through PIL 12)
// gives for the files tools/keras_oracle/image_io.py wrote.

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "image_fixtures.h"
#include "keras/keras.h"
#include "keras/utils/image_utils.h"

namespace keras {
namespace {

using image_fixtures::images_dir;
using image_fixtures::meta;
using nlohmann::json;
const std::map<std::string, Tensor>& fixtures() {
  return image_fixtures::arrays();
}

int channels_of(const std::string& color_mode) {
  return color_mode == "grayscale" ? 1 : color_mode == "rgb" ? 3 : 4;
}

TEST(LoadImg, MatchesKerasForEveryFileColorModeAndResize) {
  const json& load = meta()["load"];
  int cases = 0, jpeg_cases_off_by_one = 0;
  for (const std::string file : load["files"]) {
    const auto full_size = load["sizes"][file].get<std::pair<int64_t, int64_t>>();
    for (const char* color_mode : {"grayscale", "rgb", "rgba"}) {
      // The resizings' outputs one after another, flattened (tools/keras_oracle/image_io.py).
      const std::string key = "load:" + file + ":" + color_mode;
      const std::vector<int> all = fixtures().at(key).to_vector<int>();
      size_t offset = 0;
      for (const json& r : load["resizes"]) {
        utils::LoadImgOptions options{.color_mode = color_mode,
                                      .interpolation = r["interpolation"],
                                      .keep_aspect_ratio = r["keep_aspect_ratio"]};
        if (!r["target_size"].is_null())
          options.target_size = r["target_size"].get<std::pair<int64_t, int64_t>>();
        const auto [height, width] = options.target_size.value_or(full_size);
        const std::string name = key + ":" + r["name"].get<std::string>();
        const std::vector<int> got =
            utils::img_to_array(utils::load_img(images_dir() + "/tree/" + file, options),
                                "channels_last", DType::UInt8)
                .to_vector<int>();
        ASSERT_EQ(got.size(), static_cast<size_t>(height * width * channels_of(color_mode)))
            << name;
        ASSERT_LE(offset + got.size(), all.size()) << name;
        int diff = 0;
        for (size_t i = 0; i < got.size(); ++i)
          diff = std::max(diff, std::abs(got[i] - all[offset + i]));
        offset += got.size();
        // JPEG: PIL 12 bundles libjpeg-turbo 3, Debian ships 2.1.5; the accurate integer IDCT is
        // the same code in both, so 1 is allowed and none is expected.
        const bool jpeg = file.ends_with(".jpg");
        EXPECT_LE(diff, jpeg ? 1 : 0) << name;
        if (jpeg && diff == 1) ++jpeg_cases_off_by_one;
        ++cases;
      }
      EXPECT_EQ(offset, all.size()) << key;
    }
  }
  EXPECT_EQ(cases, 13 * 3 * 10);
  EXPECT_EQ(jpeg_cases_off_by_one, 0);
}

TEST(LoadImg, ChannelsFirstAndDtype) {
  const std::string path = images_dir() + "/tree/cats/rgb.png";
  Tensor hwc = utils::img_to_array(utils::load_img(path));
  Tensor chw = utils::img_to_array(utils::load_img(path), "channels_first", DType::Float64);
  EXPECT_EQ(hwc.dtype(), DType::Float32);
  EXPECT_EQ(chw.dtype(), DType::Float64);
  EXPECT_TENSOR_EQ(chw, ops::transpose(hwc, {2, 0, 1}).astype(DType::Float64));
  // The fixture's first part is the file at full size.
  EXPECT_EQ(hwc.astype(DType::UInt8).to_vector<int>(),
            fixtures().at("load:cats/rgb.png:rgb").slice({{0, hwc.size()}}).to_vector<int>());
}

template <typename E>
void expect_error_naming(const std::function<void()>& fn, const std::string& text) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one naming " << text;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(LoadImg, BadFilesAndOptionsNameTheProblem) {
  const std::string bad = images_dir() + "/bad/";
  for (const char* name : {"corrupt.png", "truncated.jpg", "image.xyz"})
    expect_error_naming<IOError>([&] { utils::load_img(bad + name); }, bad + name);
  expect_error_naming<IOError>([&] { utils::load_img(bad + "missing.png"); }, "missing.png");
  // A valid file keras-cpp does not read: 16-bit grayscale PNG (PIL's mode I;16).
  expect_error_naming<NotImplementedError>([&] { utils::load_img(bad + "gray16.png"); },
                                           bad + "gray16.png");
  const std::string good = images_dir() + "/tree/cats/rgb.png";
  expect_error_naming<ValueError>([&] { utils::load_img(good, {.color_mode = "cmyk"}); }, "cmyk");
  expect_error_naming<ValueError>(
      [&] {
        utils::load_img(good, {.target_size = {{2, 2}}, .interpolation = "cubic"});
      },
      "cubic");
}

TEST(ArrayToImg, ScalesAndTruncatesAsKeras) {
  auto to_uint8 = [](const utils::Image& img, const char* format = "channels_last") {
    return utils::img_to_array(img, format, DType::UInt8);
  };
  EXPECT_TENSOR_EQ(to_uint8(utils::array_to_img(fixtures().at("array_to_img:in"))),
                   fixtures().at("array_to_img:scaled").astype(DType::UInt8));
  EXPECT_TENSOR_EQ(
      to_uint8(utils::array_to_img(fixtures().at("array_to_img:in_gray"), {.scale = false})),
      fixtures().at("array_to_img:unscaled_gray").astype(DType::UInt8));
  EXPECT_TENSOR_EQ(to_uint8(utils::array_to_img(fixtures().at("array_to_img:in_chw"),
                                                {.data_format = "channels_first"}),
                            "channels_first"),
                   fixtures().at("array_to_img:scaled_chw").astype(DType::UInt8));
  // One channel above 255 unscaled is PIL's 32-bit mode I.
  utils::Image wide = utils::array_to_img(ops::full({2, 2, 1}, 300.7), {.scale = false});
  EXPECT_EQ(wide.mode, "I");
  EXPECT_TENSOR_EQ(utils::img_to_array(wide), ops::full({2, 2, 1}, 300.0f));
  EXPECT_THROW(utils::array_to_img(ops::zeros({2, 2})), ValueError);
  EXPECT_THROW(utils::array_to_img(ops::zeros({2, 2, 2})), ValueError);
}

// keras-cpp's files decode to the pixels of the files PIL wrote for the same arrays (PNG and
// BMP are lossless; JPEG uses PIL's encoder settings, so the same libjpeg gives the same bytes).
TEST(SaveImg, WritesWhatPilWritesForTheSameArrays) {
  auto dir = std::filesystem::temp_directory_path() / "keras_cpp_save_img";
  std::filesystem::create_directories(dir);
  int compared = 0;
  for (const char* name : {"rgb", "rgba", "gray"}) {
    for (const char* ext : {"png", "bmp", "jpg"}) {
      const std::string key = std::string("save:") + name + "." + ext;
      if (!fixtures().contains(key)) continue;
      const Tensor& pil_pixels = fixtures().at(key);
      const std::string path = (dir / (std::string(name) + "." + ext)).string();
      utils::save_img(path, fixtures().at(std::string("save:") + name), {.scale = false});
      const int64_t channels = pil_pixels.shape()[2];
      const std::string mode = channels == 1 ? "grayscale" : channels == 3 ? "rgb" : "rgba";
      Tensor ours = utils::img_to_array(utils::load_img(path, {.color_mode = mode}),
                                        "channels_last", DType::UInt8);
      EXPECT_TENSOR_EQ(ours, pil_pixels.astype(DType::UInt8)) << key;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 8);
  EXPECT_THROW(utils::save_img((dir / "x.tiff").string(), ops::zeros({2, 2, 3})), ValueError);
  EXPECT_THROW(utils::save_img("/nonexistent/dir/x.png", ops::zeros({2, 2, 3})), IOError);
}

}  // namespace
}  // namespace keras

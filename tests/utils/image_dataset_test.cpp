// image_dataset_from_directory against what Keras 3.15 (with TensorFlow 2.21's tf.data) yields
// for the tree tools/keras_oracle/image_io.py wrote: class names, file order, the split for a
// seed, labels per label_mode, and every batch's pixels.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "assertions.h"
#include "image_fixtures.h"
#include "keras/keras.h"
#include "keras/utils/image_dataset.h"
#include "utils/image/index_directory.h"

namespace keras {
namespace {

using image_fixtures::images_dir;
using nlohmann::json;

utils::ImageDatasetOptions options_from(const json& kwargs) {
  utils::ImageDatasetOptions o;
  o.verbose = false;
  if (kwargs.contains("labels")) {
    if (kwargs["labels"].is_null())
      o.labels = std::monostate{};
    else
      o.labels = kwargs["labels"].get<std::vector<int64_t>>();
  }
  if (kwargs.contains("label_mode")) o.label_mode = kwargs["label_mode"].get<std::string>();
  if (kwargs.contains("class_names"))
    o.class_names = kwargs["class_names"].get<std::vector<std::string>>();
  if (kwargs.contains("color_mode")) o.color_mode = kwargs["color_mode"];
  if (kwargs.contains("batch_size")) {
    if (kwargs["batch_size"].is_null())
      o.batch_size.reset();
    else
      o.batch_size = kwargs["batch_size"].get<int64_t>();
  }
  if (kwargs.contains("image_size"))
    o.image_size = {kwargs["image_size"][0], kwargs["image_size"][1]};
  if (kwargs.contains("shuffle")) o.shuffle = kwargs["shuffle"];
  if (kwargs.contains("seed")) o.seed = kwargs["seed"].get<uint64_t>();
  if (kwargs.contains("validation_split"))
    o.validation_split = kwargs["validation_split"].get<double>();
  if (kwargs.contains("subset")) o.subset = kwargs["subset"].get<std::string>();
  if (kwargs.contains("interpolation")) o.interpolation = kwargs["interpolation"];
  if (kwargs.contains("crop_to_aspect_ratio"))
    o.crop_to_aspect_ratio = kwargs["crop_to_aspect_ratio"];
  if (kwargs.contains("pad_to_aspect_ratio")) o.pad_to_aspect_ratio = kwargs["pad_to_aspect_ratio"];
  if (kwargs.contains("data_format")) o.data_format = kwargs["data_format"].get<std::string>();
  if (kwargs.contains("follow_links")) o.follow_links = kwargs["follow_links"];
  return o;
}

std::vector<std::string> relative_to(const std::string& root,
                                     const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths)
    out.push_back(std::filesystem::path(p).lexically_relative(root).string());
  return out;
}

TEST(ImageDatasetFromDirectory, BatchesEqualKerasForEveryCase) {
  int cases = 0;
  for (const auto& [name, entry] : image_fixtures::meta()["datasets"].items()) {
    SCOPED_TRACE(name);
    const std::string root = images_dir() + "/" + entry["directory"].get<std::string>();
    utils::ImageDataset ds =
        utils::image_dataset_from_directory(root, options_from(entry["kwargs"]));
    EXPECT_EQ(relative_to(root, ds.file_paths),
              entry["file_paths"].get<std::vector<std::string>>());
    if (entry["class_names"].is_null())
      EXPECT_FALSE(ds.class_names.has_value());
    else
      EXPECT_EQ(ds.class_names, entry["class_names"].get<std::vector<std::string>>());
    const auto want_paths = entry["file_paths"].get<std::vector<std::string>>();
    const bool batched =
        !entry["kwargs"].contains("batch_size") || !entry["kwargs"]["batch_size"].is_null();
    int batches = 0;
    size_t file = 0;
    for (const data::Element& batch : ds.dataset) {
      const std::string key = name + ":" + std::to_string(batches);
      const Tensor& want_x = image_fixtures::arrays().at("ds:" + key + ":x");
      Tensor got_x = batch.x.single();
      EXPECT_EQ(got_x.dtype(), want_x.dtype()) << key;
      ASSERT_EQ(got_x.shape(), want_x.shape()) << key;
      const int64_t count = batched ? got_x.shape()[0] : 1;
      for (int64_t i = 0; i < count; ++i, ++file) {
        // TensorFlow decodes an 8-bit palette BMP as its raw indices (the palette ignored);
        // keras-cpp applies the palette, as PIL and load_img do (docs/data-loading.md).
        if (want_paths[file].ends_with("pal.bmp")) continue;
        Tensor got = batched ? got_x[i] : got_x;
        Tensor want = batched ? want_x[i] : want_x;
        // float32 interpolation rounded in another order than TensorFlow: at most 1.6e-4 seen.
        EXPECT_TENSOR_NEAR(got.astype(DType::Float32), want.astype(DType::Float32), 0, 5e-4)
            << key << " " << want_paths[file];
      }
      if (image_fixtures::arrays().contains("ds:" + key + ":y")) {
        const Tensor& want_y = image_fixtures::arrays().at("ds:" + key + ":y");
        EXPECT_EQ(batch.y.single().dtype(), want_y.dtype()) << key;
        EXPECT_TENSOR_EQ(batch.y.single(), want_y) << key;
      } else {
        EXPECT_FALSE(batch.y.defined()) << key;
      }
      ++batches;
    }
    EXPECT_EQ(batches, entry["batches"].get<int>());
    ++cases;
  }
  EXPECT_EQ(cases, 15);
}

TEST(ImageDatasetFromDirectory, SeededFileOrderAndSplitEqualKeras) {
  const std::string root = images_dir() + "/tree";
  for (const auto& [name, entry] : image_fixtures::meta()["splits"].items()) {
    SCOPED_TRACE(name);
    utils::ImageDatasetOptions o = options_from(entry["kwargs"]);
    o.image_size = {2, 2};
    const auto want = entry["file_paths"].get<std::vector<std::vector<std::string>>>();
    if (o.subset == "both") {
      auto [train, val] = utils::image_dataset_from_directory_split(root, o);
      ASSERT_EQ(want.size(), 2u);
      EXPECT_EQ(relative_to(root, train.file_paths), want[0]);
      EXPECT_EQ(relative_to(root, val.file_paths), want[1]);
      EXPECT_EQ(train.dataset.cardinality(), 1);  // 10 files in one batch of 32
    } else {
      utils::ImageDataset ds = utils::image_dataset_from_directory(root, o);
      EXPECT_EQ(relative_to(root, ds.file_paths), want.at(0));
    }
    // The labels in shuffled file order, from the indexing step itself.
    auto files =
        utils::detail::index_directory(root, o.labels, {".bmp", ".gif", ".jpeg", ".jpg", ".png"},
                                       std::nullopt, true, *o.seed, false, false);
    if (entry["labels"].is_null())
      EXPECT_FALSE(files.has_labels);
    else
      EXPECT_EQ(files.labels, entry["labels"].get<std::vector<int64_t>>());
  }
}

// With shuffle the files come in keras-cpp's own tf.data-style order (not TensorFlow's random
// stream), but every epoch holds each (image, label) pair of the file list exactly once.
TEST(ImageDatasetFromDirectory, ShuffledEpochsHoldEveryFileOnce) {
  const std::string root = images_dir() + "/tree";
  auto pairs_of = [](const utils::ImageDataset& ds) {
    std::vector<std::pair<double, int>> pairs;
    for (const data::Element& batch : ds.dataset) {
      const Tensor& x = batch.x.single();
      auto labels = batch.y.single().to_vector<int>();
      for (int64_t i = 0; i < x.shape()[0]; ++i)
        pairs.emplace_back(ops::sum(x[i]).item<double>(), labels[i]);
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
  };
  auto ordered = pairs_of(utils::image_dataset_from_directory(
      root, {.batch_size = 4, .image_size = {3, 3}, .shuffle = false, .verbose = false}));
  auto shuffled = utils::image_dataset_from_directory(
      root, {.batch_size = 4, .image_size = {3, 3}, .seed = 3, .verbose = false});
  ASSERT_EQ(ordered.size(), 13u);
  EXPECT_EQ(pairs_of(shuffled), ordered);
  EXPECT_EQ(pairs_of(shuffled), ordered);  // a second epoch
}

TEST(ImageDatasetFromDirectory, NumpyShuffleOrderMatchesKnownPermutations) {
  // numpy.random.RandomState(0).permutation(10), which shuffles arange(10) the same way.
  EXPECT_EQ(utils::detail::numpy_legacy_shuffle_order(10, 0),
            (std::vector<size_t>{2, 8, 4, 9, 1, 6, 7, 3, 0, 5}));
}

TEST(ImageDatasetFromDirectory, BadInputNamesTheDirectoryAndTheFix) {
  auto message_of = [](const std::function<void()>& fn) -> std::string {
    try {
      fn();
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  // An empty folder of its own (git keeps no empty folders in the fixtures).
  const std::string empty =
      (std::filesystem::temp_directory_path() / ("keras-cpp-empty-" + std::to_string(::getpid())))
          .string();
  std::filesystem::create_directories(empty);
  EXPECT_NE(message_of([&] {
              utils::image_dataset_from_directory(empty, {.verbose = false});
            }).find("No images found in directory " + empty),
            std::string::npos);
  std::filesystem::remove_all(empty);
  EXPECT_THROW(utils::image_dataset_from_directory(images_dir() + "/missing"), IOError);
  const std::string root = images_dir() + "/tree";
  EXPECT_NE(message_of([&] {
              utils::image_dataset_from_directory(root,
                                                  {.validation_split = 0.2, .subset = "training"});
            }).find("seed"),
            std::string::npos);
  EXPECT_THROW(utils::image_dataset_from_directory(root, {.class_names = {{"cats", "birds"}}}),
               ValueError);
  EXPECT_THROW(utils::image_dataset_from_directory(root, {.color_mode = "cmyk"}), ValueError);
  EXPECT_THROW(utils::image_dataset_from_directory(root, {.interpolation = "area"}),
               NotImplementedError);
  // A corrupt file fails when its batch is produced, naming the file (the first in order:
  // corrupt.png; image.xyz is not indexed).
  const std::string bad = images_dir() + "/bad";
  auto ds = utils::image_dataset_from_directory(
      bad, {.labels = std::monostate{}, .batch_size = 1, .shuffle = false, .verbose = false});
  ASSERT_EQ(ds.file_paths.size(), 3u);  // corrupt.png, gray16.png, truncated.jpg
  const std::string message = message_of([&] { ds.dataset.iterator().next(); });
  EXPECT_NE(message.find(bad + "/corrupt.png"), std::string::npos) << message;
}

}  // namespace
}  // namespace keras

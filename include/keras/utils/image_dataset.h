#pragma once
// keras::utils::image_dataset_from_directory: a keras::data::Dataset of (image, label) batches
// from a folder of class subfolders, with Keras 3.15's arguments, defaults, file order and
// train/validation split.
//
//   auto train = keras::utils::image_dataset_from_directory(
//       "flowers", {.image_size = {180, 180}, .seed = 123, .validation_split = 0.2,
//                   .subset = "training"});
//   model.fit(train.dataset, {.epochs = 10});
//   // train.class_names: the subfolder names in label order.
//
// Files are indexed and shuffled as Keras does (numpy's RandomState(seed).shuffle, reproduced
// bit for bit), so one seed gives Keras's split. Pixels follow Keras's tf.data pipeline:
// decoded as tf.io.decode_image decodes them and resized as tf.image.resize (half-pixel
// centres, no antialiasing).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "keras/data/dataset.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// Keras's `labels`: "inferred" (from the subfolder names), std::monostate for None (images
/// only), or one integer label per file in the order of the sorted file paths.
using ImageLabels = std::variant<std::string, std::monostate, std::vector<int64_t>>;

/// image_dataset_from_directory's keyword arguments (keras.utils.image_dataset_from_directory).
struct ImageDatasetOptions {
  /// Keras's `labels`: "inferred" by default (one class per subfolder).
  ImageLabels labels = std::string("inferred");
  /// "int", "categorical", "binary", or std::nullopt (Keras's None: no labels).
  std::optional<std::string> label_mode = "int";
  /// With labels "inferred": the subfolders to use, in label order (default: all, sorted).
  std::optional<std::vector<std::string>> class_names;
  /// "grayscale", "rgb" or "rgba".
  std::string color_mode = "rgb";
  /// std::nullopt yields single images (Keras's batch_size=None).
  std::optional<int64_t> batch_size = 32;
  /// (height, width).
  std::pair<int64_t, int64_t> image_size = {256, 256};
  /// Shuffle the files (with `seed`) and the dataset's elements every epoch; false keeps the files
  /// in alphanumeric order.
  bool shuffle = true;
  /// Default: a random seed (numpy.random.randint(1e6) in Keras).
  std::optional<uint64_t> seed;
  /// The fraction held out for validation, in (0, 1).
  std::optional<double> validation_split;
  /// "training" or "validation" (with validation_split); "both" through
  /// image_dataset_from_directory_split.
  std::optional<std::string> subset;
  /// tf.image.resize's method: "bilinear", "nearest", "bicubic", "lanczos3" or "lanczos5"
  /// (Keras's others, "area", "gaussian" and "mitchellcubic", are NotImplementedError).
  std::string interpolation = "bilinear";
  /// Follow symbolic links to subdirectories when listing the files.
  bool follow_links = false;
  /// Resize through the largest centred crop of image_size's aspect ratio (no distortion).
  bool crop_to_aspect_ratio = false;
  /// Resize keeping the aspect ratio, padding the short side evenly with zeros (no distortion); at
  /// most one of this and crop_to_aspect_ratio.
  bool pad_to_aspect_ratio = false;
  /// "channels_last" or "channels_first"; default keras::config::image_data_format().
  std::optional<std::string> data_format;
  /// Print "Found N files belonging to K classes." (and the split's sizes).
  bool verbose = true;
};

/// The dataset and what Keras attaches to it as attributes.
struct ImageDataset {
  /// Elements (images, labels), or images alone without labels.
  data::Dataset dataset;
  /// The label names in label order; std::nullopt without labels.
  std::optional<std::vector<std::string>> class_names;
  /// The files in dataset order before tf.data's own per-epoch shuffle (Keras's file_paths).
  std::vector<std::string> file_paths;
};

/// keras.utils.image_dataset_from_directory for subset std::nullopt, "training" or
/// "validation". Elements are (images, labels): images float32 (uint8 with "nearest", as
/// tf.image.resize keeps the dtype then), (batch, height, width, channels), or (batch, channels,
/// height, width) with data_format "channels_first"; labels int32
/// (batch,), float32 one-hot (batch, classes) or float32 (batch, 1) for "binary".
ImageDataset image_dataset_from_directory(const std::string& directory,
                                          const ImageDatasetOptions& options = {});
/// subset "both": the training and the validation datasets of one split.
std::pair<ImageDataset, ImageDataset> image_dataset_from_directory_split(
    const std::string& directory, ImageDatasetOptions options);

}  // namespace keras::utils

#pragma GCC visibility pop

#pragma once
// keras::utils::text_dataset_from_directory: documents and labels from a folder of class
// subfolders of .txt files, with Keras 3.15's arguments, defaults, file order and
// train/validation split.
//
//   auto train = keras::utils::text_dataset_from_directory(
//       "aclImdb/train", {.seed = 42, .validation_split = 0.2, .subset = "training"});
//   vectorize->adapt(train.texts);
//   model->fit(train.dataset(), ...);           // a model whose Input takes strings
//   model->fit(train.map_texts([&](const StringTensor& t) { return vectorize(t); }), ...);
//
// Keras returns a tf.data.Dataset of (string batch, label batch): dataset() is that Dataset
// (string tensors, docs/strings.md); map_texts(fn) gives (fn(texts), labels) batches, the way
// Keras's guides map a TextVectorization layer over the dataset. Files are indexed and shuffled as
// Keras does (the same seed gives the same file order and split); contents are bytes as
// tf.io.read_file reads them (max_length cuts bytes, as tf.strings.substr does).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/data/dataset.h"
#include "keras/tensor/string_tensor.h"
#include "keras/utils/image_dataset.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// text_dataset_from_directory's keyword arguments (keras.utils.text_dataset_from_directory).
struct TextDatasetOptions {
  /// "inferred" (from the subfolder names), std::monostate for None (texts only), or one
  /// integer label per file in the order of the sorted file paths.
  ImageLabels labels = std::string("inferred");
  /// "int", "categorical", "binary", or std::nullopt (Keras's None: no labels).
  std::optional<std::string> label_mode = "int";
  /// With labels "inferred": the subfolders to use, in label order (default: all, sorted).
  std::optional<std::vector<std::string>> class_names;
  /// std::nullopt yields single documents (Keras's batch_size=None).
  std::optional<int64_t> batch_size = 32;
  /// Keep at most this many bytes of each file.
  std::optional<int64_t> max_length;
  /// Shuffle the files (with `seed`) and, in map_texts, the elements every epoch; false keeps the
  /// files in alphanumeric order.
  bool shuffle = true;
  /// Default: a random seed (numpy.random.randint(1e6) in Keras).
  std::optional<uint64_t> seed;
  /// The fraction held out for validation, in (0, 1).
  std::optional<double> validation_split;
  /// "training" or "validation" (with validation_split); "both" through
  /// text_dataset_from_directory_split.
  std::optional<std::string> subset;
  /// Follow symbolic links to subdirectories when listing the files.
  bool follow_links = false;
  /// Print "Found N files belonging to K classes." (and the split's sizes).
  bool verbose = true;
};

/// The documents of a directory dataset and what Keras attaches to it.
struct TextDataset {
  /// Every document, shape (n,), in the order of file_paths.
  StringTensor texts;
  /// int32 (n,), float32 one-hot (n, classes) or float32 (n, 1) for "binary"; undefined
  /// without labels.
  Tensor labels;
  /// The label names in label order; std::nullopt without labels.
  std::optional<std::vector<std::string>> class_names;
  /// The files in dataset order before the per-epoch shuffle.
  std::vector<std::string> file_paths;
  /// The options' batch size, shuffle and seed, for map_texts.
  std::optional<int64_t> batch_size;
  /// Whether map_texts shuffles: the options' shuffle, but false for the validation half of a
  /// split.
  bool shuffle = false;
  /// The seed the files were shuffled with (random when the options gave none), reused by
  /// map_texts.
  uint64_t seed = 0;

  /// A Dataset of (fn(texts), labels) elements, shuffled with a buffer of 8 batches as Keras
  /// does (keras-cpp's random stream, not tf.data's), batched and prefetched. `fn` sees all
  /// documents at once and must return one row per document.
  data::Dataset map_texts(const std::function<Tensor(const StringTensor&)>& fn) const;
  /// Keras's dataset itself: (string batch, label batch) elements, shuffled and batched as
  /// map_texts, for a model whose Input takes strings.
  data::Dataset dataset() const;
};

/// keras.utils.text_dataset_from_directory for subset std::nullopt, "training" or
/// "validation".
TextDataset text_dataset_from_directory(const std::string& directory,
                                        const TextDatasetOptions& options = {});
/// subset "both": the training and the validation datasets of one split (only the training
/// one shuffles, as Keras).
std::pair<TextDataset, TextDataset> text_dataset_from_directory_split(
    const std::string& directory, TextDatasetOptions options);

}  // namespace keras::utils

#pragma GCC visibility pop

#pragma once
// Keras's dataset_utils.index_directory and get_training_or_validation_split: which files a
// directory dataset holds, in which order, with which labels. Internal to keras::utils.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/utils/image_dataset.h"

namespace keras::utils::detail {

struct IndexedFiles {
  std::vector<std::string> file_paths;
  /// One label a file; empty without labels.
  std::vector<int64_t> labels;
  bool has_labels = false;
  std::optional<std::vector<std::string>> class_names;
};

/// The files under `directory` whose lowercase names end with one of `formats`, walked as
/// os.walk (roots sorted, then names), per class subfolder; shuffled with numpy's legacy
/// RandomState(seed) when `shuffle`.
IndexedFiles index_directory(const std::string& directory, const ImageLabels& labels,
                             const std::vector<std::string>& formats,
                             const std::optional<std::vector<std::string>>& class_names,
                             bool shuffle, uint64_t seed, bool follow_links, bool verbose);

/// The last int(validation_split * n) files for "validation", the others for "training" (with
/// Python's slicing: a split that rounds to 0 files gives every file to validation and none to
/// training, as in Keras).
IndexedFiles training_or_validation_split(const IndexedFiles& files,
                                          std::optional<double> validation_split,
                                          const std::string& subset, bool verbose);

/// Keras's label_mode check ("int", "categorical", "binary" or None). Returns the labels and
/// label mode the dataset uses: both None (std::monostate, std::nullopt) when either is.
std::pair<ImageLabels, std::optional<std::string>> checked_labels(
    const ImageLabels& labels, const std::optional<std::string>& label_mode);

/// dataset_utils.check_validation_split_arg, then the seed Keras uses (numpy's randint(1e6)
/// when none is given).
uint64_t checked_split_and_seed(std::optional<double> validation_split,
                                const std::optional<std::string>& subset, bool shuffle,
                                std::optional<uint64_t> seed);

/// What a *_dataset_from_directory indexes: its files' formats, and how its errors name them
/// ("images", ". Allowed formats: ('.bmp', ...)").
struct DatasetFiles {
  std::vector<std::string> formats;
  std::string kind;
  std::string allowed;
};

/// index_directory plus Keras's checks around it: binary labels need exactly two classes, and
/// the subset (std::nullopt: every file; "training"; "validation") must hold files.
IndexedFiles dataset_files(const std::string& directory, const DatasetFiles& what,
                           const ImageLabels& labels, const std::optional<std::string>& label_mode,
                           const std::optional<std::vector<std::string>>& class_names,
                           bool shuffle, uint64_t seed, bool follow_links, bool verbose,
                           std::optional<double> validation_split,
                           const std::optional<std::string>& subset);

/// subset "both": the training and validation files of one indexing, each checked non-empty.
std::pair<IndexedFiles, IndexedFiles> dataset_files_both(
    const std::string& directory, const DatasetFiles& what, const ImageLabels& labels,
    const std::optional<std::string>& label_mode,
    const std::optional<std::vector<std::string>>& class_names, bool shuffle, uint64_t seed,
    bool follow_links, bool verbose, std::optional<double> validation_split);

/// labels_to_dataset_tf: int32 ids (n,) for "int", float32 one-hot rows (n, num_classes) for
/// "categorical" (an id outside [0, num_classes) gives a row of zeros, as tf.one_hot), float32
/// (n, 1) for "binary".
Tensor label_tensor(const std::vector<int64_t>& labels, const std::string& mode,
                    int64_t num_classes);

/// numpy.random.RandomState(seed).shuffle's permutation of n items (MT19937 seeded by
/// init_genrand, Fisher-Yates from the end with masked rejection sampling).
std::vector<size_t> numpy_legacy_shuffle_order(size_t n, uint32_t seed);

}  // namespace keras::utils::detail

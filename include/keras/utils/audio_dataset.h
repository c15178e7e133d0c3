#pragma once
// keras::utils::audio_dataset_from_directory: a keras::data::Dataset of (audio, label) batches
// from a folder of class subfolders of .wav files, with Keras 3.15's arguments, defaults, file
// order and train/validation split.
//
//   auto train = keras::utils::audio_dataset_from_directory(
//       "speech_commands", {.batch_size = 64, .output_sequence_length = 16000, .seed = 0,
//                           .validation_split = 0.2, .subset = "training"});
//   model.fit(train.dataset, {.epochs = 10});
//   // train.class_names: the subfolder names in label order.
//
// Files are indexed and shuffled as Keras does (the same seed gives Keras's file order and
// split). Audio is decoded as tf.audio.decode_wav decodes it (through libsndfile): 16-bit PCM
// WAV only, each sample / 32768 as float32, shape (samples, channels); other WAV encodings are
// refused as TensorFlow refuses them. Batches are padded with zeros to the longest file (and
// the most channels) of the batch, as tf.data's padded_batch; with output_sequence_length
// every file is cut or zero-padded to that many samples and batched as they are.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/data/dataset.h"
#include "keras/utils/image_dataset.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// audio_dataset_from_directory's keyword arguments (keras.utils.audio_dataset_from_directory).
struct AudioDatasetOptions {
  /// "inferred" (from the subfolder names), std::monostate for None (audio only), or one
  /// integer label per file in the order of the sorted file paths.
  ImageLabels labels = std::string("inferred");
  /// "int", "categorical", "binary", or std::nullopt (Keras's None: no labels).
  std::optional<std::string> label_mode = "int";
  /// With labels "inferred": the subfolders to use, in label order (default: all, sorted).
  std::optional<std::vector<std::string>> class_names;
  /// std::nullopt yields single files (Keras's batch_size=None), (samples, channels) each.
  std::optional<int64_t> batch_size = 32;
  /// Keras resamples through tensorflow-io (and raises ImportError without it); keras-cpp
  /// checks the value as Keras does, then refuses any rate with NotImplementedError: resample
  /// the files beforehand.
  std::optional<int64_t> sampling_rate;
  /// Cut or zero-pad every file to this many samples (tf.audio.decode_wav's desired_samples);
  /// batches are then stacked, not padded, so files of one batch must share a channel count.
  std::optional<int64_t> output_sequence_length;
  /// keras-cpp has no ragged tensors: true is refused (NotImplementedError); use
  /// output_sequence_length, padded batches or batch_size std::nullopt.
  bool ragged = false;
  /// Shuffle the files (with `seed`) and the dataset's elements every epoch; false keeps the files
  /// in alphanumeric order.
  bool shuffle = true;
  /// Default: a random seed (numpy.random.randint(1e6) in Keras).
  std::optional<uint64_t> seed;
  /// The fraction held out for validation, in (0, 1).
  std::optional<double> validation_split;
  /// "training" or "validation" (with validation_split); "both" through
  /// audio_dataset_from_directory_split.
  std::optional<std::string> subset;
  /// Follow symbolic links to subdirectories when listing the files.
  bool follow_links = false;
  /// Print "Found N files belonging to K classes." (and the split's sizes).
  bool verbose = true;
};

/// The dataset and what Keras attaches to it as attributes.
struct AudioDataset {
  /// Elements (audio, labels): audio float32 (batch, samples, channels); labels int32
  /// (batch,), float32 one-hot (batch, classes) or float32 (batch, 1) for "binary"; audio
  /// alone without labels.
  data::Dataset dataset;
  /// The label names in label order; std::nullopt without labels.
  std::optional<std::vector<std::string>> class_names;
  /// The files in dataset order before the dataset's own per-epoch shuffle.
  std::vector<std::string> file_paths;
};

/// keras.utils.audio_dataset_from_directory for subset std::nullopt, "training" or
/// "validation".
AudioDataset audio_dataset_from_directory(const std::string& directory,
                                          const AudioDatasetOptions& options = {});
/// subset "both": the training and the validation datasets of one split (only the training
/// one shuffles, as Keras).
std::pair<AudioDataset, AudioDataset> audio_dataset_from_directory_split(
    const std::string& directory, AudioDatasetOptions options);

}  // namespace keras::utils

#pragma GCC visibility pop

// audio_dataset_from_directory (keras/src/utils/audio_dataset_utils.py) on keras::data.

#include "keras/utils/audio_dataset.h"

#include <algorithm>
#include <memory>
#include <tuple>

#include "keras/core/errors.h"
#include "utils/audio/decode_wav.h"
#include "utils/image/index_directory.h"

namespace keras::utils {
namespace {

const std::vector<std::string> kAudioFormats = {".wav"};

struct AudioChecked {
  ImageLabels labels;
  std::optional<std::string> label_mode;
  uint64_t seed = 0;
};

// The argument checks of audio_dataset_from_directory and check_validation_split_arg, in
// Keras's order (so the first wrong argument is the one named).
AudioChecked check_options(const AudioDatasetOptions& o) {
  AudioChecked c{o.labels, o.label_mode, 0};
  if (const auto* s = std::get_if<std::string>(&o.labels))
    check(*s == "inferred",
          "The `labels` argument should be a list of integer labels, of the "
          "same size as the number of audio files in the target directory, \"inferred\", or "
          "None (std::monostate). Received: labels=",
          *s);
  if (std::holds_alternative<std::vector<int64_t>>(o.labels))
    check(!o.class_names || o.class_names->empty(),
          "You can only pass `class_names` if `labels=\"inferred\"`.");
  std::tie(c.labels, c.label_mode) = detail::checked_labels(o.labels, o.label_mode);
  check(!(o.ragged && o.output_sequence_length),
        "Cannot set both `ragged` and `output_sequence_length`");
  if (o.sampling_rate) {
    check(*o.sampling_rate > 0,
          "`sampling_rate` should be higher than 0. Received: "
          "sampling_rate=",
          *o.sampling_rate);
    // Keras needs tensorflow-io's resampler here (ImportError without it).
    throw NotImplementedError(
        "`sampling_rate` resamples through tensorflow-io (tfio.audio.resample), which keras-cpp "
        "does not reproduce; resample the files beforehand (e.g. `sox IN.wav -r " +
        std::to_string(*o.sampling_rate) + " OUT.wav`) and leave sampling_rate unset");
  }
  if (o.ragged)
    throw NotImplementedError(
        "ragged=true: keras-cpp has no ragged tensors; pad the batches (the default), cut "
        "every file with output_sequence_length, or take single files with "
        "batch_size=std::nullopt");
  check(!o.batch_size || *o.batch_size >= 1, "batch_size must be positive; got ",
        o.batch_size.value_or(0));
  check(!o.output_sequence_length || *o.output_sequence_length >= 0,
        "output_sequence_length must be >= 0 (a number of samples); got ",
        o.output_sequence_length.value_or(0));
  c.seed = detail::checked_split_and_seed(o.validation_split, o.subset, o.shuffle, o.seed);
  return c;
}

using Paths = std::shared_ptr<const std::vector<std::string>>;

std::vector<detail::WavAudio> decode_all(const Tensor& indices, const Paths& paths,
                                         int64_t desired_samples) {
  std::vector<detail::WavAudio> out;
  for (int64_t i : indices.to_vector<int64_t>())
    out.push_back(detail::decode_wav((*paths)[static_cast<size_t>(i)], desired_samples));
  return out;
}

// tf.data's padded_batch: every axis padded with zeros to the batch's largest (samples and
// channels alike).
Tensor padded_batch(const std::vector<detail::WavAudio>& files) {
  int64_t samples = 0, channels = 0;
  for (const detail::WavAudio& f : files) {
    samples = std::max(samples, f.audio.shape()[0]);
    channels = std::max(channels, f.audio.shape()[1]);
  }
  const auto n = static_cast<int64_t>(files.size());
  std::vector<float> out(static_cast<size_t>(n * samples * channels), 0.0f);
  for (int64_t b = 0; b < n; ++b) {
    const Tensor& a = files[static_cast<size_t>(b)].audio;
    const std::vector<float> values = a.to_vector<float>();
    const int64_t rows = a.shape()[0], cols = a.shape()[1];
    for (int64_t r = 0; r < rows; ++r)
      std::copy_n(values.begin() + r * cols, cols, out.begin() + (b * samples + r) * channels);
  }
  return Tensor::from_vector(out, {n, samples, channels});
}

// tf.data's batch: the shapes must agree (the channel counts, with output_sequence_length).
Tensor stacked_batch(const std::vector<detail::WavAudio>& files, const Tensor& indices,
                     const Paths& paths) {
  const std::vector<int64_t> ids = indices.to_vector<int64_t>();
  for (size_t i = 1; i < files.size(); ++i)
    check(files[i].audio.shape() == files[0].audio.shape(),
          "Cannot batch tensors with different shapes in component 0. First element had shape ",
          files[0].audio.shape().to_string(), " (", (*paths)[static_cast<size_t>(ids[0])],
          ") and element ", i, " had shape ", files[i].audio.shape().to_string(), " (",
          (*paths)[static_cast<size_t>(ids[i])],
          "). With output_sequence_length the files of "
          "a batch must have the same number of channels; leave it unset to pad the channels "
          "too, or use batch_size=std::nullopt.");
  const auto n = static_cast<int64_t>(files.size());
  std::vector<float> out;
  for (const detail::WavAudio& f : files) {
    const std::vector<float> v = f.audio.to_vector<float>();
    out.insert(out.end(), v.begin(), v.end());
  }
  const Shape& one = files[0].audio.shape();
  return Tensor::from_vector(out, {n, one[0], one[1]});
}

// paths_and_labels_to_dataset + prepare_dataset. Keras shuffles the (path, label) pairs, maps
// the decoder and then batches; batching the indices first and decoding a whole batch in one
// map gives the same elements and lets the batch be padded to its own longest file.
data::Dataset paths_to_dataset(const detail::IndexedFiles& files, const AudioDatasetOptions& o,
                               const AudioChecked& c, bool shuffle) {
  const auto n = static_cast<int64_t>(files.file_paths.size());
  std::vector<int64_t> indices(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) indices[static_cast<size_t>(i)] = i;
  const Tensor index_tensor = Tensor::from_vector(indices, {n});
  data::Dataset ds =
      c.label_mode
          ? data::Dataset::from_tensor_slices(
                index_tensor, detail::label_tensor(files.labels, *c.label_mode,
                                                   static_cast<int64_t>(files.class_names->size())))
          : data::Dataset::from_tensor_slices(index_tensor);
  // tf.data's shuffle with Keras's buffer; keras-cpp's own random stream (see the docs).
  if (shuffle) ds = ds.shuffle(o.batch_size ? *o.batch_size * 8 : 1024, c.seed);
  auto paths = std::make_shared<const std::vector<std::string>>(files.file_paths);
  const int64_t desired = o.output_sequence_length.value_or(-1);
  const bool pad = !o.output_sequence_length;
  if (o.batch_size) {
    ds = ds.batch(*o.batch_size)
             .map(
                 [paths, desired, pad](const data::Element& e) {
                   const Tensor& ids = e.x.single();
                   const std::vector<detail::WavAudio> audio = decode_all(ids, paths, desired);
                   return data::Element{
                       pad ? padded_batch(audio) : stacked_batch(audio, ids, paths), e.y, {}};
                 },
                 data::AUTOTUNE);
  } else {
    ds = ds.map(
        [paths, desired](const data::Element& e) {
          const auto index = e.x.single().item<int64_t>();
          return data::Element{
              detail::decode_wav((*paths)[static_cast<size_t>(index)], desired).audio, e.y, {}};
        },
        data::AUTOTUNE);
  }
  return ds.prefetch(data::AUTOTUNE);
}

AudioDataset make(const detail::IndexedFiles& files, const AudioDatasetOptions& o,
                  const AudioChecked& c, bool shuffle) {
  return {paths_to_dataset(files, o, c, shuffle), files.class_names, files.file_paths};
}

const detail::DatasetFiles kAudioFiles = {kAudioFormats, "audio files",
                                          ". Allowed format(s): ('.wav',)"};

}  // namespace

AudioDataset audio_dataset_from_directory(const std::string& directory,
                                          const AudioDatasetOptions& options) {
  check(options.subset != "both",
        "subset=\"both\" returns two datasets: call audio_dataset_from_directory_split");
  const AudioChecked c = check_options(options);
  const detail::IndexedFiles files = detail::dataset_files(
      directory, kAudioFiles, c.labels, c.label_mode, options.class_names, options.shuffle, c.seed,
      options.follow_links, options.verbose, options.validation_split, options.subset);
  return make(files, options, c, options.shuffle);
}

std::pair<AudioDataset, AudioDataset> audio_dataset_from_directory_split(
    const std::string& directory, AudioDatasetOptions options) {
  if (!options.subset) options.subset = "both";
  check(options.subset == "both", "audio_dataset_from_directory_split is subset=\"both\"; got \"",
        *options.subset, "\"");
  const AudioChecked c = check_options(options);
  auto [train, val] = detail::dataset_files_both(
      directory, kAudioFiles, c.labels, c.label_mode, options.class_names, options.shuffle, c.seed,
      options.follow_links, options.verbose, options.validation_split);
  // Keras shuffles only the training dataset's elements.
  return {make(train, options, c, options.shuffle), make(val, options, c, false)};
}

}  // namespace keras::utils

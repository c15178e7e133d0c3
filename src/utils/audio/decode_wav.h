#pragma once
// tf.audio.decode_wav for keras::utils::audio_dataset_from_directory, read through libsndfile.
// Internal to keras::utils.

#include <cstdint>
#include <string>

#include "keras/tensor/tensor.h"

namespace keras::utils::detail {

struct WavAudio {
  /// float32 (frames, channels), each 16-bit sample divided by 32768 (so in [-1, 1)).
  Tensor audio;
  int32_t sample_rate = 0;
};

/// The WAV file at `path` as tf.audio.decode_wav(tf.io.read_file(path), desired_samples)
/// decodes it: only RIFF files of 16-bit PCM (format 1, a 16- or 18-byte fmt chunk with
/// consistent block align and byte rate, a data chunk of whole frames that the file holds);
/// every other file is refused with an IOError naming it and what TensorFlow would refuse.
/// desired_samples >= 0 cuts the audio to that many frames or pads it with zeros; -1 keeps
/// every frame.
WavAudio decode_wav(const std::string& path, int64_t desired_samples = -1);

}  // namespace keras::utils::detail

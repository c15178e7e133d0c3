#pragma once
// keras.layers.MelSpectrogram: audio (time,) or (batch, time) -> mel-scaled power spectrograms
// (..., num_mel_bins, frames), in decibels by default. A fixed preprocessing layer (no
// weights) on keras::ops::stft.
//
//   auto mel = layers::MelSpectrogram({.num_mel_bins = 80, .sampling_rate = 16000});
//   Tensor m = mel(audio);   // (batch, 16000) -> (batch, 80, 32)

#include <optional>
#include <string>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.MelSpectrogram.
struct MelSpectrogramOptions {
  /// The FFT size in samples: the STFT has fft_length / 2 + 1 frequency bins.
  int64_t fft_length = 2048;
  /// The hop between successive STFT frames, in samples.
  int64_t sequence_stride = 512;
  /// Defaults to fft_length.
  std::optional<int64_t> sequence_length;
  /// "hann", "hamming" or null (no window).
  Config window = "hann";
  /// The sample rate of the audio, in Hz.
  int64_t sampling_rate = 16000;
  /// The number of mel bins of the output.
  int64_t num_mel_bins = 128;
  /// The lowest frequency of the mel filters, in Hz.
  double min_freq = 20.0;
  /// Defaults to sampling_rate / 2.
  std::optional<double> max_freq;
  /// Whether the mel spectrogram is converted to decibels.
  bool power_to_db = true;
  /// With power_to_db, outputs are floored at top_db below the batch's loudest value.
  double top_db = 80.0;
  /// The exponent applied to the STFT magnitudes: 1 for magnitude, 2 for power.
  double mag_exp = 2.0;
  /// With power_to_db, the floor of the power (and of ref_power) before the logarithm.
  double min_power = 1e-10;
  /// With power_to_db, the reference power: outputs are 10 log10(power / ref_power).
  double ref_power = 1.0;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The MelSpectrogram layer (Keras's "MelSpectrogram").
class MelSpectrogramLayer : public Layer {
 public:
  /// Builds the layer; ValueError for sequence_length > fft_length, or num_mel_bins or
  /// sequence_stride < 1.
  explicit MelSpectrogramLayer(MelSpectrogramOptions options = {});
  std::string class_name() const override { return "MelSpectrogram"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The (num_spectrogram_bins, num_mel_bins) float32 matrix of triangular mel filters (HTK
  /// mel scale, DC bin excluded), Keras's linear_to_mel_weight_matrix.
  Tensor linear_to_mel_weight_matrix(int64_t num_spectrogram_bins) const;

 private:
  MelSpectrogramOptions options_;
};

/// A layer computing mel spectrograms.
LayerPtr<MelSpectrogramLayer> MelSpectrogram(MelSpectrogramOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

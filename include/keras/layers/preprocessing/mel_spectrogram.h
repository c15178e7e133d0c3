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

struct MelSpectrogramOptions {
  int64_t fft_length = 2048;
  int64_t sequence_stride = 512;
  /// Defaults to fft_length.
  std::optional<int64_t> sequence_length;
  /// "hann", "hamming" or null (no window).
  Config window = "hann";
  int64_t sampling_rate = 16000;
  int64_t num_mel_bins = 128;
  double min_freq = 20.0;
  /// Defaults to sampling_rate / 2.
  std::optional<double> max_freq;
  bool power_to_db = true;
  double top_db = 80.0;
  double mag_exp = 2.0;
  double min_power = 1e-10;
  double ref_power = 1.0;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The MelSpectrogram layer (Keras's "MelSpectrogram").
class MelSpectrogramLayer : public Layer {
 public:
  explicit MelSpectrogramLayer(MelSpectrogramOptions options = {});
  std::string class_name() const override { return "MelSpectrogram"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
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

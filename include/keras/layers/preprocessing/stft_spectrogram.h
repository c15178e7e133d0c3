#pragma once
// keras.layers.STFTSpectrogram: spectrograms of 1-d signals (batch, time, channels) by a strided
// 1-d convolution with STFT kernels (keras.initializers.STFT), trainable like any kernel. Modes
// as Keras: "log" (default), "magnitude", "psd", "real", "imag", "angle", "stft".
//
//   auto spec = layers::STFTSpectrogram({.frame_length = 256, .frame_step = 128,
//                                        .fft_length = 512, .padding = "same"});
//   Tensor s = spec(audio);   // (batch, 16000, 1) -> (batch, 125, 257)

#include <optional>
#include <string>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.STFTSpectrogram.
struct STFTSpectrogramOptions {
  /// What the layer outputs: "log", "magnitude", "psd", "real", "imag", "angle" or "stft".
  std::string mode = "log";
  /// The length of each frame (the window), in samples.
  int64_t frame_length = 256;
  /// Defaults to frame_length / 2; between 1 and frame_length.
  std::optional<int64_t> frame_step;
  /// Defaults to the smallest power of two >= frame_length.
  std::optional<int64_t> fft_length;
  /// "hann", "hamming", an array of frame_length numbers, or null (no window).
  Config window = "hann";
  /// Use a periodic window (for spectral analysis) instead of a symmetric one.
  bool periodic = false;
  /// "density", "spectrum" or nullopt (no scaling).
  std::optional<std::string> scaling = "density";
  /// "valid" (no padding) or "same" (padding so that frames = ceil(time / frame_step)).
  std::string padding = "valid";
  /// (batch, time, freq, channels) instead of (batch, time, channels * freq).
  bool expand_dims = false;
  /// Defaults to keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The STFTSpectrogram layer (Keras's "STFTSpectrogram").
class STFTSpectrogramLayer : public Layer {
 public:
  /// Builds the layer; ValueError for an unknown mode or padding, a frame_length < 1, a
  /// frame_step outside [1, frame_length] or an fft_length < frame_length.
  explicit STFTSpectrogramLayer(STFTSpectrogramOptions options = {});
  std::string class_name() const override { return "STFTSpectrogram"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  // inputs (batch, time, channels) or (batch, channels, time) -> (batch, channels, bins, frames).
  Tensor apply_conv(const Tensor& inputs, const Variable& kernel) const;
  // (batch, channels, bins, frames) -> the layer's output layout.
  Tensor adjust_shapes(const Tensor& outputs) const;

  STFTSpectrogramOptions options_;
  int64_t frame_step_, fft_length_;
  Variable real_kernel_, imag_kernel_;
};

/// A layer computing spectrograms of 1-d signals.
LayerPtr<STFTSpectrogramLayer> STFTSpectrogram(STFTSpectrogramOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop

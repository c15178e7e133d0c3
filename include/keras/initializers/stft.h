#pragma once
// keras.initializers.STFT (also "stft", "STFTInitializer"): the kernels of STFTSpectrogram, a
// windowed discrete Fourier basis, so that a 1-d convolution computes a short-time Fourier
// transform (the real part with side "real", the imaginary part with "imag").

#include <optional>
#include <string>

#include "keras/initializers/initializer.h"

#pragma GCC visibility push(default)
namespace keras::initializers {

/// Kernels (frame_length, 1, fft_length / 2 + 1) with kernel[t, 0, f] = cos(-2 pi t f / F)
/// (side "real") or sin(-2 pi t f / F) ("imag"), F = 2 * (bins - 1), times the window and
/// divided by the scaling: "density" sqrt(sum(window^2)), "spectrum" sum(|window|), or none.
class STFT final : public Initializer {
 public:
  /// window: "hann", "hamming", an array of frame_length numbers, or null (no window);
  /// periodic: the periodic form of a named window (else the symmetric one, as SciPy's
  /// get_window(..., fftbins=periodic)); scaling: "density", "spectrum" or nullopt.
  explicit STFT(std::string side = "real", Config window = "hann",
                std::optional<std::string> scaling = "density", bool periodic = false);
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "STFT"; }
  Config get_config() const override;
  /// The STFT initializer a Keras config describes (missing keys take the constructor's defaults).
  static std::shared_ptr<STFT> from_config(const Config& config);

  /// The window as a (length,) tensor of `dtype`, or undefined for a null window.
  Tensor window_values(int64_t length, DType dtype) const;

 private:
  std::string side_;
  Config window_;
  std::optional<std::string> scaling_;
  bool periodic_;
};

}  // namespace keras::initializers

#pragma GCC visibility pop

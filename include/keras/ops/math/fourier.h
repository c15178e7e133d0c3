#pragma once
// keras.ops.math Fourier transforms: fft, fft2, ifft2, rfft, irfft, stft, istft.
//
// As in Keras 3, a complex tensor travels as a (real, imaginary) pair of float tensors of one
// shape, so no complex dtype is needed. The transforms run in double precision on the host
// (KISS FFT) and return the inputs' dtype on the inputs' backend; every op is differentiable
// (the gradient of a discrete Fourier transform is the transform in the other direction).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace math {

/// A complex tensor as Keras passes one: (real part, imaginary part), float, one shape.
using ComplexPair = std::pair<Tensor, Tensor>;

/// The window of stft/istft: "hann" (Keras's default), "hamming", a 1-d tensor of
/// sequence_length values, or none (`nullptr`, Keras's None: a rectangular window spanning the
/// whole fft_length).
class StftWindow {
 public:
  /// A named window: "hann" or "hamming" (other names are a ValueError when stft or istft runs).
  StftWindow(const char* name) : name_(name) {}              // NOLINT
  /// A named window: "hann" or "hamming".
  StftWindow(std::string name) : name_(std::move(name)) {}   // NOLINT
  /// A 1-d tensor of sequence_length window values.
  StftWindow(Tensor values) : values_(std::move(values)) {}  // NOLINT
  /// None: a rectangular window spanning the whole fft_length.
  StftWindow(std::nullptr_t) {}                              // NOLINT

  /// Whether this is None (a rectangular window).
  bool is_none() const { return name_.empty() && !values_.defined(); }
  /// "hann", "hamming", or empty for a tensor window and for none.
  const std::string& name() const { return name_; }
  /// The window's values when given as a tensor; undefined otherwise.
  const Tensor& values() const { return values_; }

 private:
  std::string name_;
  Tensor values_;
};

/// The discrete Fourier transform along the last axis of a complex tensor (real, imag).
ComplexPair fft(const ComplexPair& x);

/// The 2-d discrete Fourier transform over the last two axes.
ComplexPair fft2(const ComplexPair& x);

/// The inverse 2-d discrete Fourier transform over the last two axes (divided by their sizes).
ComplexPair ifft2(const ComplexPair& x);

/// The transform of a real signal along the last axis, its fft_length / 2 + 1 non-negative
/// frequencies. fft_length (default: the last axis's length) zero-pads or crops the signal.
ComplexPair rfft(const Tensor& x, std::optional<int64_t> fft_length = std::nullopt);

/// The inverse of rfft: the real signal of fft_length samples (default 2 * (bins - 1)) whose
/// non-negative frequencies are x (..., bins); x is cropped or zero-padded to fft_length / 2 + 1
/// bins, and the imaginary parts of the zero (and, for even lengths, Nyquist) bins are ignored.
Tensor irfft(const ComplexPair& x, std::optional<int64_t> fft_length = std::nullopt);

/// The short-time Fourier transform of real signals x (..., samples), float32 or float64:
/// windows of sequence_length samples every sequence_stride, each zero-padded (centred) to
/// fft_length, give (..., frames, fft_length / 2 + 1). center reflect-pads fft_length / 2
/// samples on both sides first, so frame t is centred on sample t * sequence_stride.
ComplexPair stft(const Tensor& x, int64_t sequence_length, int64_t sequence_stride,
                 int64_t fft_length, const StftWindow& window = "hann", bool center = true);

/// The inverse of stft: (..., frames, fft_length / 2 + 1) -> (..., samples) by windowed
/// overlap-add. length (default: every sample, less the centre padding) crops the result.
Tensor istft(const ComplexPair& x, int64_t sequence_length, int64_t sequence_stride,
             int64_t fft_length, std::optional<int64_t> length = std::nullopt,
             const StftWindow& window = "hann", bool center = true);

}  // namespace math
}  // namespace keras::ops

#pragma GCC visibility pop

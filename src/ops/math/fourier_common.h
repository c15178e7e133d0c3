#pragma once
// What the Fourier ops (fourier.cpp) and the short-time transforms (stft.cpp) share.

#include <string_view>

#include "keras/ops/math/fourier.h"

namespace keras::ops::fourier_detail {

/// The unnormalized discrete Fourier transform along the last axis (the inverse's sign when
/// `inverse`), of re and im of one shape and float dtype on one backend. Differentiable.
ComplexPair dft(const Tensor& re, const Tensor& im, bool inverse);

/// x's parts checked (defined, one shape, floats, rank >= min_rank; a ValueError naming `op`
/// otherwise) and brought to their common dtype and backend.
ComplexPair checked_complex(std::string_view op, const ComplexPair& x, int min_rank);

/// x cropped or zero-padded at the end of its last axis to `length`. Differentiable.
Tensor resize_last_axis(const Tensor& x, int64_t length);

}  // namespace keras::ops::fourier_detail

namespace keras::ops::fourier_detail {

/// scipy.signal.get_window(name, length, fftbins=periodic) for "hann" and "hamming" (the
/// windows Keras's stft accepts) as a (length,) tensor of `dtype` on `backend`; a ValueError
/// naming `op` for any other name.
Tensor named_window(std::string_view op, const std::string& name, int64_t length, bool periodic,
                    DType dtype, std::string_view backend);

}  // namespace keras::ops::fourier_detail

#pragma once
// The elementwise part of one LSTM or GRU step as a single op (one autograd node, one pass over
// memory) for the default activations (sigmoid gates, tanh). A stand-in for a backend
// capability: on host backends (float32/float64) it runs its own loops; elsewhere, and under a
// backend::DecomposeScope, it runs the same formula as separate keras::ops (which record their
// own gradients). The gradient rule is written twice: as a host loop for first-order
// gradients, and with keras::ops (differentiable, from the recomputed forward) when a
// higher-order graph is being built.

#include <utility>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// True when the fused loops run for tensors like `t` (a host backend that runs fused kernels,
/// float32 or float64).
bool fused_rnn_enabled(const Tensor& t);

/// One LSTM step after the matmuls: z = xz + hz (batch, 4 units), gates i, f, c, o;
/// c = sigmoid(z_f) c_prev + sigmoid(z_i) tanh(z_c); h = sigmoid(z_o) tanh(c). Returns (h, c).
std::pair<Tensor, Tensor> lstm_step(const Tensor& xz, const Tensor& hz, const Tensor& c_prev);

/// One GRU step (reset_after) after the matmuls: xz = x @ W + b_in (batch, 3 units), hz =
/// h_prev @ U (batch, 3 units), rec_bias the recurrent bias (3 units, or undefined), gates z, r,
/// h: z = sigmoid(xz_z + hz_z + b_z), r = sigmoid(xz_r + hz_r + b_r),
/// hh = tanh(xz_h + r (hz_h + b_h)), h = z h_prev + (1 - z) hh. Returns h.
Tensor gru_step(const Tensor& xz, const Tensor& hz, const Tensor& rec_bias,
                const Tensor& h_prev);

}  // namespace keras::layers::detail

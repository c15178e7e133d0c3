#pragma once
// A whole LSTM recurrence as one op, after the input projection (the analogue of Keras's cuDNN
// path, backend.lstm): one host loop runs every step's product with the recurrent kernel and
// its gate math, and the backward pass computes the recurrent kernel's gradient as one product
// over all timesteps instead of one product and one addition per step. Host backends, float32
// and float64, the default activations; elsewhere the caller steps with lstm_step.

#include <optional>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// What lstm_sequence returns.
struct LstmSequence {
  /// The h of every step, in the order the steps ran (timesteps, batch, units).
  Tensor outputs;
  /// The last step's h and c (batch, units).
  Tensor h, c;
};

/// The LSTM recurrence over xz (timesteps, batch, 4 units) = x W + b, time-major as cuDNN's
/// (each step's rows follow each other), with the recurrent kernel (units, 4 units) and the
/// initial states h0, c0 (batch, units), over the timesteps in order or, with `go_backwards`,
/// from the last one back: h_t, c_t = lstm_step(xz_t, h_{t-1} R, c_{t-1}). nullopt where the
/// fused loops do not run for these tensors (fused_rnn_enabled, one backend and dtype, those
/// shapes).
std::optional<LstmSequence> lstm_sequence(const Tensor& xz, const Tensor& recurrent_kernel,
                                          const Tensor& h0, const Tensor& c0, bool go_backwards);

}  // namespace keras::layers::detail

#pragma once
// The host-memory pieces the fused recurrent ops share (recurrent_ops.cpp, lstm_sequence.cpp):
// a loop a compiler trace records as one call, and the LSTM gate math over rows.

#include <functional>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// Runs `loop` on `outs` (written) and `ins` (read), undefined ones included, as one call a
/// compiler trace records (keras/backend/trace_hook.h): a replay gives `loop` the tensors where
/// the program keeps them, so the loop must read everything through its argument.
void host_loop(std::string_view name, std::initializer_list<Tensor> outs,
               std::initializer_list<Tensor> ins,
               const std::function<void(const TensorList&)>& loop);

/// One LSTM step's gate math over `batch` rows (host memory, float32 or float64, unit inner
/// strides, any row strides): z = xz + hz, c = sigmoid(z_f) c_prev + sigmoid(z_i) tanh(z_c),
/// h = sigmoid(z_o) tanh(c); `gates` receives i, f, g, o, tanh(c) (5 units per row).
void lstm_forward_rows(int64_t batch, int64_t u, const Tensor& xz, const Tensor& hz,
                       const Tensor& c_prev, const Tensor& h, const Tensor& c, const Tensor& gates);

/// The step's gradient from its saved `gates` and `c_prev`: dz (4 units per row: the
/// gradient of xz and of hz) and dc_prev, given dh (plus `dh_extra` when defined) and dc.
void lstm_backward_rows(int64_t batch, int64_t u, const Tensor& gates, const Tensor& c_prev,
                        const Tensor& dh, const Tensor& dh_extra, const Tensor& dc,
                        const Tensor& dz, const Tensor& dcp);

/// One LSTM step's gates as differentiable ops (the gradient rules' form for higher-order
/// graphs), from z = xz + hz and c_prev: i, f, g, o, the new c and tanh(c).
struct LstmGateOps {
  Tensor i, f, g, o, c, tc;
};
LstmGateOps lstm_gates_ops(const Tensor& z, const Tensor& c_prev);

/// The step's gradient as differentiable ops, given dh and dc: dz (the gradient of xz and of
/// hz) and dc_prev.
std::pair<Tensor, Tensor> lstm_step_grad_ops(const LstmGateOps& gates, const Tensor& c_prev,
                                             const Tensor& dh, const Tensor& dc);

}  // namespace keras::layers::detail

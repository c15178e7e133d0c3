#include "layers/rnn/lstm_sequence.h"

#include <utility>
#include <vector>

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "layers/rnn/recurrent_kernels.h"
#include "layers/rnn/recurrent_ops.h"
#include "layers/rnn/sequence_views.h"
#include "ops/detail/op_utils.h"

namespace keras::layers::detail {
namespace {

using namespace sequence;

// ---- the gradient as differentiable ops (when a higher-order graph is being built) ---------

// The forward pass again, step by step, then back through time: gradients of xz, the recurrent
// kernel, h0 and c0 given those of the outputs (in step order) and of the last c.
TensorList gradient_ops(const Tensor& xz, const Tensor& r, const Tensor& h0, const Tensor& c0,
                        const Tensor& d_outputs, const Tensor& dc_last, bool go_backwards) {
  const int64_t steps = xz.shape()[0];
  auto time = [&](int64_t k) { return go_backwards ? steps - 1 - k : k; };
  TensorList x = ops::unstack(xz, steps, 0), dh_out = ops::unstack(d_outputs, steps, 0);
  struct Step {
    Tensor h_prev, c_prev;
    LstmGateOps gates;
  };
  std::vector<Step> saved;
  Tensor h = h0, c = c0;
  for (int64_t k = 0; k < steps; ++k) {
    Tensor z = ops::add(x[static_cast<size_t>(time(k))], ops::matmul(h, r));
    Step s{h, c, lstm_gates_ops(z, c)};
    c = s.gates.c;
    h = ops::multiply(s.gates.o, s.gates.tc);
    saved.push_back(std::move(s));
  }
  TensorList dx(static_cast<size_t>(steps));
  Tensor dr, dh, dc = dc_last;
  for (int64_t k = steps - 1; k >= 0; --k) {
    const Step& s = saved[static_cast<size_t>(k)];
    const Tensor& out_grad = dh_out[static_cast<size_t>(k)];
    auto [dz, dc_prev] =
        lstm_step_grad_ops(s.gates, s.c_prev, dh.defined() ? ops::add(out_grad, dh) : out_grad, dc);
    dx[static_cast<size_t>(time(k))] = dz;
    Tensor dr_k = ops::matmul(ops::transpose(s.h_prev), dz);
    dr = dr.defined() ? ops::add(dr, dr_k) : dr_k;
    dh = ops::matmul(dz, ops::transpose(r));
    dc = dc_prev;
  }
  return {ops::stack(dx, 0), dr, dh, dc};
}

}  // namespace

std::optional<LstmSequence> lstm_sequence(const Tensor& xz_in, const Tensor& r_in,
                                          const Tensor& h0_in, const Tensor& c0_in,
                                          bool go_backwards) {
  if (!fused_rnn_enabled(xz_in) || xz_in.ndim() != 3 || r_in.ndim() != 2 ||
      !same_kind(xz_in, r_in) || !same_kind(xz_in, h0_in) || !same_kind(xz_in, c0_in))
    return std::nullopt;
  const int64_t steps = xz_in.shape()[0], batch = xz_in.shape()[1], u = r_in.shape()[0];
  if (batch < 1 || steps < 1 || xz_in.shape()[2] != 4 * u || r_in.shape()[1] != 4 * u ||
      h0_in.shape() != Shape{batch, u} || c0_in.shape() != Shape{batch, u})
    return std::nullopt;
  const Tensor xz = xz_in.contiguous(), h0 = h0_in.contiguous(), c0 = c0_in.contiguous();
  const DType dt = xz.dtype();
  backend::Backend& be = xz.backend();
  auto empty = [dt, &be](Shape shape) { return ops::detail::empty(std::move(shape), dt, be); };
  auto time = [steps, go_backwards](int64_t k) { return go_backwards ? steps - 1 - k : k; };
  const bool record = autograd::should_record(xz_in, r_in, h0_in, c0_in);

  Tensor outputs = empty({steps, batch, u}), c = empty({batch, u}), hz = empty({batch, 4 * u});
  // What the backward pass reads, in time order: every step's gates, and the states it read.
  // Inference keeps one step's gates and the c of two steps.
  Tensor gates = empty({record ? steps : 1, batch, 5 * u});
  Tensor h_prev = record ? empty({steps, batch, u}) : Tensor();
  Tensor c_prev = empty({record ? steps : 2, batch, u});
  host_loop("lstm_sequence", {outputs, c, gates, h_prev, c_prev, hz}, {xz, r_in, h0, c0},
            [=](const TensorList& a) {
              const Tensor &outputs = a[0], &c_last = a[1], &gates = a[2], &h_prev = a[3],
                           &c_prev = a[4], &hz = a[5], &xz = a[6], &r = a[7];
              const bool saving = h_prev.defined();
              Tensor h_in = a[8], c_in = a[9];
              for (int64_t k = 0; k < steps; ++k) {
                const int64_t t = time(k);
                if (saving) {
                  copy_rows(h_in, step_of(h_prev, t));
                  if (k == 0) copy_rows(c_in, step_of(c_prev, t));  // later: written there
                }
                matmul(hz, h_in, r);
                const Tensor h_out = step_of(outputs, k);
                const Tensor c_out = k + 1 == steps ? c_last
                                     : saving       ? step_of(c_prev, time(k + 1))
                                                    : step_of(c_prev, (k + 1) % 2);
                lstm_forward_rows(batch, u, step_of(xz, t), hz, c_in, h_out, c_out,
                                  step_of(gates, saving ? t : 0));
                h_in = h_out;
                c_in = c_out;
              }
            });
  auto last_h = [steps](const Tensor& all) { return all.slice({{steps - 1, steps}}).squeeze(0); };
  if (!record) return LstmSequence{outputs, last_h(outputs), c};

  Tensor ins[4] = {xz_in, r_in, h0_in, c0_in};
  Tensor outs[2] = {outputs, c};
  autograd::record_multi(
      "lstm_sequence", ins, outs, [=](const autograd::Context& ctx, std::span<const Tensor> grads) {
        if (autograd::is_recording())
          return gradient_ops(xz_in, r_in, h0_in, c0_in, grads[0], grads[1], go_backwards);
        const Tensor d_outputs = ops::cast(grads[0], dt).contiguous();
        const Tensor dc_last = ops::cast(grads[1], dt).contiguous();
        Tensor dxz = empty({steps, batch, 4 * u});
        Tensor dr = ctx.needs_input_grad(1) ? empty({u, 4 * u}) : Tensor();
        Tensor dh0 = empty({batch, u}), dc0 = empty({batch, u});
        // The gradient of h flowing back from the next step, and dc of two steps.
        Tensor dh = empty({batch, u}), dc = empty({2, batch, u});
        host_loop("lstm_sequence_backward", {dxz, dr, dh0, dc0, dh, dc},
                  {gates, c_prev, h_prev, r_in, d_outputs, dc_last}, [=](const TensorList& a) {
                    const Tensor &dxz = a[0], &dr = a[1], &dh0 = a[2], &dc0 = a[3], &dh = a[4],
                                 &dc = a[5], &gates = a[6], &c_prev = a[7], &h_prev = a[8],
                                 &r = a[9], &d_outputs = a[10], &dc_last = a[11];
                    for (int64_t k = steps - 1; k >= 0; --k) {
                      const int64_t t = time(k);
                      const Tensor dz = step_of(dxz, t);
                      lstm_backward_rows(batch, u, step_of(gates, t), step_of(c_prev, t),
                                         step_of(d_outputs, k), k + 1 == steps ? Tensor() : dh,
                                         k + 1 == steps ? dc_last : step_of(dc, (k + 1) % 2), dz,
                                         k == 0 ? dc0 : step_of(dc, k % 2));
                      matmul(k == 0 ? dh0 : dh, dz, transposed(r));
                    }
                    // One product over every step: sum_t h_{t-1}^T dz_t.
                    if (dr.defined()) matmul(dr, transposed(rows_of(h_prev)), rows_of(dxz));
                  });
        return TensorList{ctx.needs_input_grad(0) ? dxz : Tensor(), dr,
                          ctx.needs_input_grad(2) ? dh0 : Tensor(),
                          ctx.needs_input_grad(3) ? dc0 : Tensor()};
      });
  return LstmSequence{outs[0], last_h(outs[0]), outs[1]};
}

}  // namespace keras::layers::detail

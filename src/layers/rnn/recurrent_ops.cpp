#include "layers/rnn/recurrent_ops.h"

#include <cmath>

#include "backend/float_math.h"
#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/backend/trace_hook.h"
#include "keras/ops/ops.h"
#include "keras/tensor/tensor_impl.h"
#include "layers/rnn/recurrent_kernels.h"
#include "layers/rnn/sequence_views.h"
#include "ops/detail/op_utils.h"

namespace keras::layers::detail {
namespace {

// ---- the formulas with keras::ops (decomposition, and the higher-order gradient rules) -------

std::pair<Tensor, Tensor> lstm_ops(const Tensor& xz, const Tensor& hz, const Tensor& c_prev) {
  TensorList z = ops::split(ops::add(xz, hz), 4, 1);
  Tensor i = ops::sigmoid(z[0]), f = ops::sigmoid(z[1]), g = ops::tanh(z[2]),
         o = ops::sigmoid(z[3]);
  Tensor c = ops::add(ops::multiply(f, c_prev), ops::multiply(i, g));
  return {ops::multiply(o, ops::tanh(c)), c};
}

Tensor gru_ops(const Tensor& xz, const Tensor& hz, const Tensor& bias, const Tensor& h_prev) {
  TensorList x = ops::split(xz, 3, 1);
  TensorList r = ops::split(bias.defined() ? ops::add(hz, bias) : hz, 3, 1);
  Tensor z = ops::sigmoid(ops::add(x[0], r[0]));
  Tensor reset = ops::sigmoid(ops::add(x[1], r[1]));
  Tensor hh = ops::tanh(ops::add(x[2], ops::multiply(reset, r[2])));
  return ops::add(ops::multiply(z, h_prev), ops::multiply(ops::subtract(1.0, z), hh));
}

// d/dx sigmoid from its value s, and d/dx tanh from its value t.
Tensor dsig(const Tensor& s) {
  return ops::multiply(s, ops::subtract(1.0, s));
}
Tensor dtanh(const Tensor& t) {
  return ops::subtract(1.0, ops::square(t));
}

// ---- host loops (the gate math over rows; host_loop, which runs them, follows this namespace)

bool unit_inner_stride(const Tensor& t) {
  return t.ndim() == 2 && (t.strides()[1] == 1 || t.shape()[1] <= 1) && t.strides()[0] >= 0;
}

// `t` as rows with a unit inner stride (a copy only when it has none).
Tensor as_rows(const Tensor& t) { return unit_inner_stride(t) ? t : t.contiguous(); }

template <typename T>
const T* cptr(const Tensor& t) {
  return static_cast<const T*>(t.array().data());
}
template <typename T>
T* mptr(const Tensor& t) {
  return static_cast<T*>(t.array().data());
}
// The step between rows (a view's rows need not follow each other).
int64_t ld(const Tensor& t) {
  return t.strides()[0];
}

// float: the branchless forms (vectorized loops); double: libm.
inline float sig(float x) {
  return backend::fmath::sigmoid(x);
}
inline double sig(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
inline float tanh_of(float x) {
  return backend::fmath::tanh(x);
}
inline double tanh_of(double x) {
  return std::tanh(x);
}

// Gates saved per row: i, f, g, o, tanh(c) (5 units). Always inlined into the per-ISA clones
// below.
template <typename T>
[[gnu::always_inline]] inline void lstm_forward(int64_t batch, int64_t u, const Tensor& xz, const Tensor& hz,
                  const Tensor& c_prev, const Tensor& h, const Tensor& c, const Tensor& gates) {
  const T *x0 = cptr<T>(xz), *r0 = cptr<T>(hz), *cp0 = cptr<T>(c_prev);
  const int64_t lx = ld(xz), lr = ld(hz), lc = ld(c_prev), lh = ld(h), lcn = ld(c), lg = ld(gates);
  T *h0 = mptr<T>(h), *c0 = mptr<T>(c), *g0 = mptr<T>(gates);
  for (int64_t b = 0; b < batch; ++b) {
    const T* x = x0 + b * lx;
    const T* r = r0 + b * lr;
    const T* cp = cp0 + b * lc;
    T* g = g0 + b * lg;
    T* hr = h0 + b * lh;
    T* cr = c0 + b * lcn;
    for (int64_t j = 0; j < 4 * u; ++j) g[j] = x[j] + r[j];
    for (int64_t j = 0; j < 2 * u; ++j) g[j] = sig(g[j]);
    for (int64_t j = 2 * u; j < 3 * u; ++j) g[j] = tanh_of(g[j]);
    for (int64_t j = 3 * u; j < 4 * u; ++j) g[j] = sig(g[j]);
    for (int64_t j = 0; j < u; ++j) {
      T cn = g[u + j] * cp[j] + g[j] * g[2 * u + j];
      cr[j] = cn;
      g[4 * u + j] = tanh_of(cn);
    }
    for (int64_t j = 0; j < u; ++j) hr[j] = g[3 * u + j] * g[4 * u + j];
  }
}

// One row of the step's gradient: dz's four gate blocks and dc_prev, given the row's gates
// (i, f, g, o, tanh c), c_prev, dh (plus dh_extra when kExtra) and dc. Restrict parameters: the
// outputs alias nothing (with the blocks as offsets of one pointer, or as restrict locals inside
// the row loop, GCC did not vectorize it).
template <typename T, bool kExtra>
[[gnu::always_inline]] inline void lstm_backward_row(int64_t u, const T* __restrict g,
                                                     const T* __restrict cp, const T* __restrict dh,
                                                     const T* __restrict dh_extra,
                                                     const T* __restrict dc, T* __restrict di,
                                                     T* __restrict df, T* __restrict dg,
                                                     T* __restrict d_out, T* __restrict dcp) {
  for (int64_t j = 0; j < u; ++j) {
    const T i = g[j], f = g[u + j], gg = g[2 * u + j], o = g[3 * u + j], tc = g[4 * u + j];
    T dhv = dh[j];
    if constexpr (kExtra) dhv += dh_extra[j];
    const T dct = dc[j] + dhv * o * (T(1) - tc * tc);
    di[j] = dct * gg * i * (T(1) - i);
    df[j] = dct * cp[j] * f * (T(1) - f);
    dg[j] = dct * i * (T(1) - gg * gg);
    d_out[j] = dhv * tc * o * (T(1) - o);
    dcp[j] = dct * f;
  }
}

// dh_extra, when defined, is added to dh (a sequence's output gradient and the one flowing back
// from the next step).
template <typename T>
[[gnu::always_inline]] inline void lstm_backward(int64_t batch, int64_t u, const Tensor& gates,
                                                 const Tensor& c_prev, const Tensor& dh,
                                                 const Tensor& dh_extra, const Tensor& dc,
                                                 const Tensor& dz, const Tensor& dcp) {
  const T *g0 = cptr<T>(gates), *cp0 = cptr<T>(c_prev), *dh0 = cptr<T>(dh), *dc0 = cptr<T>(dc);
  const T* dx0 = dh_extra.defined() ? cptr<T>(dh_extra) : nullptr;
  const int64_t lg = ld(gates), lc = ld(c_prev), lh = ld(dh), ldc = ld(dc), ldz = ld(dz),
                lcp = ld(dcp), lx = dx0 ? ld(dh_extra) : 0;
  T *dz0 = mptr<T>(dz), *dcp0 = mptr<T>(dcp);
  for (int64_t b = 0; b < batch; ++b) {
    T* d = dz0 + b * ldz;
    const T* g = g0 + b * lg;
    if (dx0)
      lstm_backward_row<T, true>(u, g, cp0 + b * lc, dh0 + b * lh, dx0 + b * lx, dc0 + b * ldc, d,
                                 d + u, d + 2 * u, d + 3 * u, dcp0 + b * lcp);
    else
      lstm_backward_row<T, false>(u, g, cp0 + b * lc, dh0 + b * lh, nullptr, dc0 + b * ldc, d,
                                  d + u, d + 2 * u, d + 3 * u, dcp0 + b * lcp);
  }
}

// The float32 steps (LSTM and GRU) compiled for x86-64-v4 (AVX-512), v3 (AVX2, FMA) and the
// baseline, chosen at run time (DESIGN.md section 6: no -march=native). The AVX-512 version took
// the benchmark LSTM's training from 2 380 to 2 920 samples/s on the 2-core Xeon (the gate math was
// a fifth of the step with AVX2 alone). target_clones' resolver runs while the dynamic loader
// relocates the program, before a sanitizer's runtime starts; instrumented, it crashes every
// program at start-up, so sanitizer builds (scripts/sanitize.sh) compile the baseline version only.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define KERAS_RNN_STEP_CLONES
#else
#define KERAS_RNN_STEP_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif

KERAS_RNN_STEP_CLONES void lstm_forward_f32(int64_t batch, int64_t u, const Tensor& xz,
                                            const Tensor& hz, const Tensor& c_prev, const Tensor& h,
                                            const Tensor& c, const Tensor& gates) {
  lstm_forward<float>(batch, u, xz, hz, c_prev, h, c, gates);
}

KERAS_RNN_STEP_CLONES void lstm_backward_f32(int64_t batch, int64_t u, const Tensor& gates,
                                             const Tensor& c_prev, const Tensor& dh,
                                             const Tensor& dh_extra, const Tensor& dc,
                                             const Tensor& dz, const Tensor& dcp) {
  lstm_backward<float>(batch, u, gates, c_prev, dh, dh_extra, dc, dz, dcp);
}

// One row of a GRU step: z, r, hh, and the recurrent candidate part hz_h + b_h saved (4 units).
// Restrict parameters and the bias as a template choice, so that the loops vectorize.
template <typename T, bool kBias>
[[gnu::always_inline]] inline void gru_forward_row(int64_t u, const T* __restrict x,
                                                   const T* __restrict r, const T* __restrict bias,
                                                   const T* __restrict hp, T* __restrict s,
                                                   T* __restrict h) {
  for (int64_t j = 0; j < 2 * u; ++j) {
    T v = x[j] + r[j];
    if constexpr (kBias) v += bias[j];
    s[j] = sig(v);
  }
  for (int64_t j = 0; j < u; ++j) {
    T hhr = r[2 * u + j];
    if constexpr (kBias) hhr += bias[2 * u + j];
    s[3 * u + j] = hhr;
    s[2 * u + j] = tanh_of(x[2 * u + j] + s[u + j] * hhr);
  }
  for (int64_t j = 0; j < u; ++j) h[j] = s[j] * hp[j] + (T(1) - s[j]) * s[2 * u + j];
}

template <typename T>
[[gnu::always_inline]] inline void gru_forward(int64_t batch, int64_t u, const Tensor& xz,
                                               const Tensor& hz, const Tensor& bias,
                                               const Tensor& h_prev, const Tensor& h,
                                               const Tensor& saved) {
  const T *x0 = cptr<T>(xz), *r0 = cptr<T>(hz), *hp0 = cptr<T>(h_prev);
  const T* bb = bias.defined() ? cptr<T>(bias) : nullptr;
  const int64_t lx = ld(xz), lr = ld(hz), lp = ld(h_prev), lh = ld(h), ls = ld(saved);
  T *h0 = mptr<T>(h), *s0 = mptr<T>(saved);
  for (int64_t b = 0; b < batch; ++b) {
    if (bb)
      gru_forward_row<T, true>(u, x0 + b * lx, r0 + b * lr, bb, hp0 + b * lp, s0 + b * ls,
                               h0 + b * lh);
    else
      gru_forward_row<T, false>(u, x0 + b * lx, r0 + b * lr, nullptr, hp0 + b * lp, s0 + b * ls,
                                h0 + b * lh);
  }
}

// One row of the GRU step's gradient; each gate's block of dxz and dhz its own restrict
// pointer (as lstm_backward_row's).
template <typename T>
[[gnu::always_inline]] inline void gru_backward_row(int64_t u, const T* __restrict s,
                                                    const T* __restrict hp, const T* __restrict dh,
                                                    T* __restrict dx_z, T* __restrict dx_r,
                                                    T* __restrict dx_h, T* __restrict dr_z,
                                                    T* __restrict dr_r, T* __restrict dr_h,
                                                    T* __restrict dhp) {
  for (int64_t j = 0; j < u; ++j) {
    const T z = s[j], r = s[u + j], hh = s[2 * u + j], hhr = s[3 * u + j];
    const T dhv = dh[j];
    const T dph = dhv * (T(1) - z) * (T(1) - hh * hh);
    const T dpz = dhv * (hp[j] - hh) * z * (T(1) - z);
    const T dpr = dph * hhr * r * (T(1) - r);
    dx_z[j] = dr_z[j] = dpz;
    dx_r[j] = dr_r[j] = dpr;
    dx_h[j] = dph;
    dr_h[j] = dph * r;
    dhp[j] = dhv * z;
  }
}

template <typename T>
[[gnu::always_inline]] inline void gru_backward(int64_t batch, int64_t u, const Tensor& saved,
                                                const Tensor& h_prev, const Tensor& dh,
                                                const Tensor& dxz, const Tensor& dhz,
                                                const Tensor& db, const Tensor& dhp) {
  const T *s0 = cptr<T>(saved), *hp0 = cptr<T>(h_prev), *dh0 = cptr<T>(dh);
  const int64_t lp = ld(h_prev), lh = ld(dh), ls = ld(saved), lx = ld(dxz), lr = ld(dhz),
                lhp = ld(dhp);
  T *dx0 = mptr<T>(dxz), *dr0 = mptr<T>(dhz), *dhp0 = mptr<T>(dhp);
  T* dbb = db.defined() ? mptr<T>(db) : nullptr;
  if (dbb)
    for (int64_t j = 0; j < 3 * u; ++j) dbb[j] = T(0);
  for (int64_t b = 0; b < batch; ++b) {
    T* dx = dx0 + b * lx;
    T* dr = dr0 + b * lr;
    gru_backward_row<T>(u, s0 + b * ls, hp0 + b * lp, dh0 + b * lh, dx, dx + u, dx + 2 * u, dr,
                        dr + u, dr + 2 * u, dhp0 + b * lhp);
    if (dbb)
      for (int64_t j = 0; j < 3 * u; ++j) dbb[j] += dr[j];
  }
}

KERAS_RNN_STEP_CLONES void gru_forward_f32(int64_t batch, int64_t u, const Tensor& xz,
                                           const Tensor& hz, const Tensor& bias,
                                           const Tensor& h_prev, const Tensor& h,
                                           const Tensor& saved) {
  gru_forward<float>(batch, u, xz, hz, bias, h_prev, h, saved);
}

KERAS_RNN_STEP_CLONES void gru_backward_f32(int64_t batch, int64_t u, const Tensor& saved,
                                            const Tensor& h_prev, const Tensor& dh,
                                            const Tensor& dxz, const Tensor& dhz, const Tensor& db,
                                            const Tensor& dhp) {
  gru_backward<float>(batch, u, saved, h_prev, dh, dxz, dhz, db, dhp);
}

// b undefined, or a tensor the loops can read beside a.
bool same_kind(const Tensor& a, const Tensor& b) {
  return !b.defined() || sequence::same_kind(a, b);
}

}  // namespace

void host_loop(std::string_view name, std::initializer_list<Tensor> outs,
               std::initializer_list<Tensor> ins,
               const std::function<void(const TensorList&)>& loop) {
  std::vector<backend::Array> arrays;
  for (const auto* group : {&outs, &ins})
    for (const Tensor& t : *group) arrays.push_back(t.defined() ? t.array() : backend::Array{});
  const size_t n = arrays.size();
  backend::run_host_kernel(name, arrays, outs.size(), [loop, n](const backend::Array* a) {
    TensorList tensors;
    for (size_t k = 0; k < n; ++k)
      tensors.push_back(a[k].storage ? Tensor(make_ref<keras::detail::TensorImpl>(a[k]))
                                     : Tensor());
    loop(tensors);
  });
}

LstmGateOps lstm_gates_ops(const Tensor& z, const Tensor& c_prev) {
  TensorList zs = ops::split(z, 4, 1);
  LstmGateOps g{
      ops::sigmoid(zs[0]), ops::sigmoid(zs[1]), ops::tanh(zs[2]), ops::sigmoid(zs[3]), {}, {}};
  g.c = ops::add(ops::multiply(g.f, c_prev), ops::multiply(g.i, g.g));
  g.tc = ops::tanh(g.c);
  return g;
}

std::pair<Tensor, Tensor> lstm_step_grad_ops(const LstmGateOps& s, const Tensor& c_prev,
                                             const Tensor& dh, const Tensor& dc) {
  Tensor dct = ops::add(dc, ops::multiply(ops::multiply(dh, s.o), dtanh(s.tc)));
  Tensor dz = ops::concatenate({ops::multiply(ops::multiply(dct, s.g), dsig(s.i)),
                                ops::multiply(ops::multiply(dct, c_prev), dsig(s.f)),
                                ops::multiply(ops::multiply(dct, s.i), dtanh(s.g)),
                                ops::multiply(ops::multiply(dh, s.tc), dsig(s.o))},
                               1);
  return {dz, ops::multiply(dct, s.f)};
}

void lstm_forward_rows(int64_t batch, int64_t u, const Tensor& xz, const Tensor& hz,
                       const Tensor& c_prev, const Tensor& h, const Tensor& c,
                       const Tensor& gates) {
  if (xz.dtype() == DType::Float32)
    lstm_forward_f32(batch, u, xz, hz, c_prev, h, c, gates);
  else
    lstm_forward<double>(batch, u, xz, hz, c_prev, h, c, gates);
}

void lstm_backward_rows(int64_t batch, int64_t u, const Tensor& gates, const Tensor& c_prev,
                        const Tensor& dh, const Tensor& dh_extra, const Tensor& dc,
                        const Tensor& dz, const Tensor& dcp) {
  if (gates.dtype() == DType::Float32)
    lstm_backward_f32(batch, u, gates, c_prev, dh, dh_extra, dc, dz, dcp);
  else
    lstm_backward<double>(batch, u, gates, c_prev, dh, dh_extra, dc, dz, dcp);
}

bool fused_rnn_enabled(const Tensor& t) {
  if (!t.defined() || t.is_weak()) return false;
  const backend::Backend& be = t.backend();
  return be.is_host() && !be.is_symbolic() &&
         backend::use_fused(be, backend::Capability::Linear) &&
         (t.dtype() == DType::Float32 || t.dtype() == DType::Float64);
}

std::pair<Tensor, Tensor> lstm_step(const Tensor& xz_in, const Tensor& hz_in,
                                    const Tensor& c_prev_in) {
  if (!fused_rnn_enabled(xz_in) || !same_kind(xz_in, hz_in) || !same_kind(xz_in, c_prev_in) ||
      xz_in.ndim() != 2 || hz_in.shape() != xz_in.shape() || c_prev_in.ndim() != 2 ||
      c_prev_in.shape()[0] != xz_in.shape()[0] || 4 * c_prev_in.shape()[1] != xz_in.shape()[1])
    return lstm_ops(xz_in, hz_in, c_prev_in);
  Tensor xz = as_rows(xz_in), hz = as_rows(hz_in), c_prev = as_rows(c_prev_in);
  const int64_t batch = xz.shape()[0], u = c_prev.shape()[1];
  const DType dt = xz.dtype();
  auto& be = xz.backend();
  Tensor h = ops::detail::empty(Shape{batch, u}, dt, be);
  Tensor c = ops::detail::empty(Shape{batch, u}, dt, be);
  Tensor gates = ops::detail::empty(Shape{batch, 5 * u}, dt, be);
  host_loop("lstm_forward", {h, c, gates}, {xz, hz, c_prev}, [=](const TensorList& t) {
    lstm_forward_rows(batch, u, t[3], t[4], t[5], t[0], t[1], t[2]);
  });

  if (autograd::should_record(xz_in, hz_in, c_prev_in)) {
    Tensor outs[2] = {h, c};
    Tensor ins[3] = {xz_in, hz_in, c_prev_in};
    autograd::record_multi(
        "lstm_step", ins, outs,
        [xz_in, hz_in, c_prev, gates, batch, u](const autograd::Context& ctx,
                                                std::span<const Tensor> grads) {
          const bool need_z = ctx.needs_input_grad(0) || ctx.needs_input_grad(1);
          if (autograd::is_recording()) {
            // A higher-order graph: the rule in differentiable ops, from the recomputed gates.
            auto [dz, dcp] = lstm_step_grad_ops(lstm_gates_ops(ops::add(xz_in, hz_in), c_prev),
                                                c_prev, grads[0], grads[1]);
            return TensorList{need_z ? dz : Tensor(), need_z ? dz : Tensor(),
                              ctx.needs_input_grad(2) ? dcp : Tensor()};
          }
          Tensor dh = ops::cast(grads[0], gates.dtype()), dc = ops::cast(grads[1], gates.dtype());
          dh = as_rows(dh);
          dc = as_rows(dc);
          auto& b = gates.backend();
          Tensor dz = ops::detail::empty(Shape{batch, 4 * u}, gates.dtype(), b);
          Tensor dcp = ops::detail::empty(Shape{batch, u}, gates.dtype(), b);
          host_loop("lstm_backward", {dz, dcp}, {gates, c_prev, dh, dc}, [=](const TensorList& t) {
            lstm_backward_rows(batch, u, t[2], t[3], t[4], Tensor(), t[5], t[0], t[1]);
          });
          return TensorList{need_z ? dz : Tensor(), need_z ? dz : Tensor(),
                            ctx.needs_input_grad(2) ? dcp : Tensor()};
        });
    return {outs[0], outs[1]};
  }
  return {h, c};
}

Tensor gru_step(const Tensor& xz_in, const Tensor& hz_in, const Tensor& bias_in,
                const Tensor& h_prev_in) {
  if (!fused_rnn_enabled(xz_in) || !same_kind(xz_in, hz_in) || !same_kind(xz_in, bias_in) ||
      !same_kind(xz_in, h_prev_in) || xz_in.ndim() != 2 || hz_in.shape() != xz_in.shape() ||
      h_prev_in.ndim() != 2 || h_prev_in.shape()[0] != xz_in.shape()[0] ||
      3 * h_prev_in.shape()[1] != xz_in.shape()[1] ||
      (bias_in.defined() && bias_in.shape() != Shape{xz_in.shape()[1]}))
    return gru_ops(xz_in, hz_in, bias_in, h_prev_in);
  Tensor xz = as_rows(xz_in), hz = as_rows(hz_in), h_prev = as_rows(h_prev_in);
  Tensor bias = bias_in.defined() ? bias_in.contiguous() : Tensor();
  const int64_t batch = xz.shape()[0], u = h_prev.shape()[1];
  const DType dt = xz.dtype();
  auto& be = xz.backend();
  Tensor h = ops::detail::empty(Shape{batch, u}, dt, be);
  Tensor saved = ops::detail::empty(Shape{batch, 4 * u}, dt, be);
  host_loop("gru_forward", {h, saved}, {xz, hz, bias, h_prev}, [=](const TensorList& t) {
    if (dt == DType::Float32)
      gru_forward_f32(batch, u, t[2], t[3], t[4], t[5], t[0], t[1]);
    else
      gru_forward<double>(batch, u, t[2], t[3], t[4], t[5], t[0], t[1]);
  });

  if (autograd::should_record(xz_in, hz_in, bias_in, h_prev_in)) {
    Tensor ins[4] = {xz_in, hz_in, bias_in, h_prev_in};
    Tensor outs[1] = {h};
    autograd::record_multi(
        "gru_step", ins, outs,
        [xz_in, hz_in, bias_in, h_prev_in, h_prev, saved, batch, u](
            const autograd::Context& ctx, std::span<const Tensor> grads) {
          const bool has_bias = bias_in.defined();
          if (autograd::is_recording()) {
            TensorList x = ops::split(xz_in, 3, 1);
            TensorList r = ops::split(has_bias ? ops::add(hz_in, bias_in) : hz_in, 3, 1);
            Tensor z = ops::sigmoid(ops::add(x[0], r[0]));
            Tensor reset = ops::sigmoid(ops::add(x[1], r[1]));
            Tensor hh = ops::tanh(ops::add(x[2], ops::multiply(reset, r[2])));
            const Tensor& dh = grads[0];
            Tensor dph = ops::multiply(ops::multiply(dh, ops::subtract(1.0, z)), dtanh(hh));
            Tensor dpz =
                ops::multiply(ops::multiply(dh, ops::subtract(h_prev_in, hh)), dsig(z));
            Tensor dpr = ops::multiply(ops::multiply(dph, r[2]), dsig(reset));
            Tensor dxz = ops::concatenate({dpz, dpr, dph}, 1);
            Tensor dhz = ops::concatenate({dpz, dpr, ops::multiply(dph, reset)}, 1);
            return TensorList{ctx.needs_input_grad(0) ? dxz : Tensor(),
                              ctx.needs_input_grad(1) ? dhz : Tensor(),
                              has_bias && ctx.needs_input_grad(2) ? ops::sum(dhz, 0) : Tensor(),
                              ctx.needs_input_grad(3) ? ops::multiply(dh, z) : Tensor()};
          }
          Tensor dh = as_rows(ops::cast(grads[0], saved.dtype()));
          auto& b = saved.backend();
          Tensor dxz = ops::detail::empty(Shape{batch, 3 * u}, saved.dtype(), b);
          Tensor dhz = ops::detail::empty(Shape{batch, 3 * u}, saved.dtype(), b);
          Tensor db = has_bias ? ops::detail::empty(Shape{3 * u}, saved.dtype(), b) : Tensor();
          Tensor dhp = ops::detail::empty(Shape{batch, u}, saved.dtype(), b);
          host_loop("gru_backward", {dxz, dhz, db, dhp}, {saved, h_prev, dh},
                    [=, f32 = saved.dtype() == DType::Float32](const TensorList& t) {
                      if (f32)
                        gru_backward_f32(batch, u, t[4], t[5], t[6], t[0], t[1], t[2], t[3]);
                      else
                        gru_backward<double>(batch, u, t[4], t[5], t[6], t[0], t[1], t[2], t[3]);
                    });
          return TensorList{ctx.needs_input_grad(0) ? dxz : Tensor(),
                            ctx.needs_input_grad(1) ? dhz : Tensor(),
                            has_bias && ctx.needs_input_grad(2) ? db : Tensor(),
                            ctx.needs_input_grad(3) ? dhp : Tensor()};
        });
    return outs[0];
  }
  return h;
}

}  // namespace keras::layers::detail

"""The recurrent layers against PyTorch (tests/layers_rnn/rnn_test.cpp): outputs, final states,
and the gradients of sum(output * upstream) with respect to the inputs (sequence, initial
states) and every trainable weight, in Keras layout.

Each case stores a Keras layer record ({"class_name", "config"}) that the C++ test builds with
layers::deserialize, and the fixture layout of tests/support/layer_harness.h: inputs (the
sequence, then a bool mask when "has_mask", then initial states), weights in the order of
layer.weights, one upstream gradient per output.

References:
- LSTM: torch's fused LSTM (torch._VF.lstm, what torch.nn.LSTM runs) with weight_ih = kernel.T,
  weight_hh = recurrent_kernel.T, bias_ih = bias, bias_hh = 0 (gate order i, f, c, o is torch's
  i, f, g, o).
- GRU (reset_after=True): torch._VF.gru (torch.nn.GRU) with the gate blocks permuted from
  Keras's z, r, h to torch's r, z, n, bias row 0 -> bias_ih and row 1 -> bias_hh.
- GRU (reset_after=False), SimpleRNN and non-default activations: the recurrence written here.
- Masks: a step loop (torch._VF.lstm_cell / gru_cell for the default LSTM and GRU) where
  masked timesteps keep the previous state and output (zeros with zero_output_for_mask), as
  Keras's backend rnn.
All references run in float64 and are cast to the case's dtype.
"""

import json

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("layers_rnn", seed=11)  # then layers_rnn_wrappers, below
torch.set_default_dtype(torch.float64)

ACT = {
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "relu": torch.relu,
    "linear": lambda z: z,
    "hard_sigmoid": lambda z: F.relu6(z + 3.0) / 6.0,
}

TOL = {np.float32: dict(rtol=1e-5, atol=1e-5), np.float64: dict(rtol=1e-10, atol=1e-10)}


def dname(dtype):
    return "float64" if dtype == np.float64 else "float32"


def leaf(a):
    return torch.tensor(np.asarray(a).astype(np.float64), requires_grad=True)


def record(class_name, **config):
    return {"class_name": class_name, "config": config}


def finish(name, op, layer, inputs, float_inputs, weights, outputs, dtype, **kw):
    """Writes a case: the upstream gradients are drawn here; gradients with respect to the
    float inputs and the weights (all trainable) come from torch.autograd."""
    ups = [f.randn(*o.shape, dtype=dtype) for o in outputs]
    loss = sum((o * torch.tensor(u.astype(np.float64))).sum() for o, u in zip(outputs, ups))
    sources = float_inputs + [w for _, w in weights]
    grads = torch.autograd.grad(loss, sources, allow_unused=True)
    grads = [g if g is not None else torch.zeros_like(s) for g, s in zip(grads, sources)]
    outs = [o.detach().numpy().astype(dtype) for o in outputs]
    outs += [g.numpy().astype(dtype) for g in grads]
    arrays = [np.asarray(a) for a in inputs] + [a for a, _ in weights] + ups
    f.case(name, op, arrays, outs, layer=layer, n_inputs=len(inputs), n_weights=len(weights),
           **TOL[dtype], **kw)


# ---- references ------------------------------------------------------------------------------

def lstm_torch_weights(K, R, b):
    w = [K.t(), R.t()]
    if b is not None:
        w += [b, torch.zeros_like(b)]
    return w


def gru_perm(u):
    return torch.cat([torch.arange(u, 2 * u), torch.arange(0, u), torch.arange(2 * u, 3 * u)])


def gru_torch_weights(K, R, b):
    p = gru_perm(R.shape[0])
    w = [K[:, p].t(), R[:, p].t()]
    if b is not None:
        w += [b[0][p], b[1][p]]
    return w


def lstm_fused(x, K, R, b, h0, c0, go_backwards):
    """torch's LSTM over the sequence: (outputs in processing order, h, c)."""
    xs = torch.flip(x, [1]) if go_backwards else x
    y, h, c = torch._VF.lstm(xs, (h0[None], c0[None]), lstm_torch_weights(K, R, b), b is not None,
                             1, 0.0, False, False, True)
    return y, h[0], c[0]


def gru_fused(x, K, R, b, h0, go_backwards):
    xs = torch.flip(x, [1]) if go_backwards else x
    y, h = torch._VF.gru(xs, h0[None], gru_torch_weights(K, R, b), b is not None, 1, 0.0, False,
                         False, True)
    return y, h[0]


def lstm_step_fn(K, R, b, act="tanh", ract="sigmoid"):
    if act == "tanh" and ract == "sigmoid":
        w = lstm_torch_weights(K, R, b)
        if b is None:
            w += [None, None]
        return lambda x, s: (lambda hc: (hc[0], list(hc)))(torch._VF.lstm_cell(x, s, *w))
    a, ra = ACT[act], ACT[ract]

    def step(x, s):
        h, c = s
        z = x @ K + h @ R + (b if b is not None else 0)
        i, fg, g, o = torch.chunk(z, 4, dim=-1)
        c2 = ra(fg) * c + ra(i) * a(g)
        h2 = ra(o) * a(c2)
        return h2, [h2, c2]

    return step


def gru_step_fn(K, R, b, reset_after=True, act="tanh", ract="sigmoid", use_torch=True):
    u = R.shape[0]
    if reset_after and act == "tanh" and ract == "sigmoid" and use_torch:
        w = gru_torch_weights(K, R, b)
        if b is None:
            w += [None, None]
        return lambda x, s: (lambda h: (h, [h]))(torch._VF.gru_cell(x, s[0], *w))
    a, ra = ACT[act], ACT[ract]

    def step(x, s):
        h = s[0]
        if reset_after:
            xb = b[0] if b is not None else 0
            hb = b[1] if b is not None else 0
            xz = x @ K + xb
            hz = h @ R + hb
            z = ra(xz[:, :u] + hz[:, :u])
            r = ra(xz[:, u:2 * u] + hz[:, u:2 * u])
            hh = a(xz[:, 2 * u:] + r * hz[:, 2 * u:])
        else:
            xz = x @ K + (b if b is not None else 0)
            z = ra(xz[:, :u] + h @ R[:, :u])
            r = ra(xz[:, u:2 * u] + h @ R[:, u:2 * u])
            hh = a(xz[:, 2 * u:] + (r * h) @ R[:, 2 * u:])
        h2 = z * h + (1 - z) * hh
        return h2, [h2]

    return step


def simple_step_fn(K, R, b, act="tanh"):
    a = ACT[act]

    def step(x, s):
        h = a(x @ K + (b if b is not None else 0) + s[0] @ R)
        return h, [h]

    return step


def stacked_step_fn(steps, sizes):
    """Cells one after the other; `sizes` is the number of states of each cell."""

    def step(x, s):
        out, new, k = x, [], 0
        for fn, n in zip(steps, sizes):
            out, ns = fn(out, s[k:k + n])
            new += ns
            k += n
        return out, new

    return step


def run_loop(step, x, states, mask=None, go_backwards=False, zero_output=False):
    """Keras's backend rnn: (outputs in processing order, last output, final states)."""
    n = x.shape[1]
    outs, prev = [], None
    for t in (range(n - 1, -1, -1) if go_backwards else range(n)):
        out, new = step(x[:, t], states)
        if mask is not None:
            m = mask[:, t:t + 1]
            if prev is None:
                prev = torch.zeros_like(out)
            out = torch.where(m, out, torch.zeros_like(out) if zero_output else prev)
            new = [torch.where(m, ns, s) for ns, s in zip(new, states)]
            prev = out
        states = new
        outs.append(out)
    return torch.stack(outs, 1), outs[-1], states


def weights_np(dtype, *shapes, scale=0.5):
    return [f.randn(*s, dtype=dtype) * scale for s in shapes]


def rnn_outputs(seq, last, states, return_sequences, return_state):
    out = [seq if return_sequences else last]
    return out + (list(states) if return_state else [])


def make_mask(batch, steps):
    m = np.ones((batch, steps), dtype=bool)
    m[0, -2:] = False        # right padding
    m[1, 0] = False          # a masked first step: the output is zeros there
    if batch > 2:
        m[2, 1:3] = False    # a gap in the middle
    return m


# ---- LSTM ------------------------------------------------------------------------------------

B, T, FEAT = 3, 5, 4


def lstm_case(name, units=3, return_sequences=False, return_state=False, go_backwards=False,
              use_bias=True, initial_state=False, masked=False, act="tanh", ract="sigmoid",
              dtype=np.float32, wrap_cell=False):
    x = f.randn(B, T, FEAT, dtype=dtype)
    shapes = [(FEAT, 4 * units), (units, 4 * units)] + ([(4 * units,)] if use_bias else [])
    w = weights_np(dtype, *shapes)
    tw = [leaf(a) for a in w]
    K, R = tw[0], tw[1]
    b = tw[2] if use_bias else None
    tx = leaf(x)
    inputs, floats = [x], [tx]
    mask = make_mask(B, T) if masked else None
    if masked:
        inputs.append(mask)
    if initial_state:
        s0 = [f.randn(B, units, dtype=dtype) for _ in range(2)]
        ts0 = [leaf(s) for s in s0]
        inputs += s0
        floats += ts0
    else:
        ts0 = [torch.zeros(B, units), torch.zeros(B, units)]
    if masked or act != "tanh" or ract != "sigmoid":
        seq, last, states = run_loop(lstm_step_fn(K, R, b, act, ract), tx, ts0,
                                     torch.tensor(mask) if masked else None, go_backwards)
    else:
        seq, h, c = lstm_fused(tx, K, R, b, ts0[0], ts0[1], go_backwards)
        last, states = seq[:, -1], [h, c]
        # The fused reference agrees with the step loop.
        seq2, _, _ = run_loop(lstm_step_fn(K, R, b), tx, ts0, None, go_backwards)
        assert torch.allclose(seq, seq2)
    outs = rnn_outputs(seq, last, states, return_sequences, return_state)
    common = dict(return_sequences=return_sequences, return_state=return_state,
                  go_backwards=go_backwards, dtype=dname(dtype))
    cell = dict(units=units, activation=act, recurrent_activation=ract, use_bias=use_bias)
    if wrap_cell:
        layer = record("RNN", cell=record("LSTMCell", **cell, dtype=dname(dtype)), **common)
    else:
        layer = record("LSTM", **cell, **common)
    finish(name, "rnn_layer", layer, inputs, floats, list(zip(w, tw)), outs, dtype,
           has_mask=masked, list_call=initial_state or return_state)


lstm_case("lstm_last")
lstm_case("lstm_sequences", return_sequences=True)
lstm_case("lstm_backwards", return_sequences=True, go_backwards=True)
lstm_case("lstm_backwards_last", go_backwards=True)
lstm_case("lstm_state", return_state=True, initial_state=True)
lstm_case("lstm_state_sequences", return_sequences=True, return_state=True)
lstm_case("lstm_no_bias", return_sequences=True, use_bias=False)
lstm_case("lstm_masked", return_sequences=True, return_state=True, masked=True)
lstm_case("lstm_masked_backwards", go_backwards=True, masked=True, return_state=True)
lstm_case("lstm_relu_hard_sigmoid", return_sequences=True, act="relu", ract="hard_sigmoid")
lstm_case("lstm_float64", return_sequences=True, return_state=True, initial_state=True,
          dtype=np.float64)
lstm_case("rnn_lstm_cell", return_sequences=True, wrap_cell=True)

# ---- GRU -------------------------------------------------------------------------------------


def gru_case(name, units=3, return_sequences=False, return_state=False, go_backwards=False,
             use_bias=True, reset_after=True, initial_state=False, masked=False, act="tanh",
             ract="sigmoid", dtype=np.float32, wrap_cell=False):
    x = f.randn(B, T, FEAT, dtype=dtype)
    bshape = (2, 3 * units) if reset_after else (3 * units,)
    shapes = [(FEAT, 3 * units), (units, 3 * units)] + ([bshape] if use_bias else [])
    w = weights_np(dtype, *shapes)
    tw = [leaf(a) for a in w]
    K, R = tw[0], tw[1]
    b = tw[2] if use_bias else None
    tx = leaf(x)
    inputs, floats = [x], [tx]
    mask = make_mask(B, T) if masked else None
    if masked:
        inputs.append(mask)
    if initial_state:
        s0 = f.randn(B, units, dtype=dtype)
        ts0 = [leaf(s0)]
        inputs.append(s0)
        floats += ts0
    else:
        ts0 = [torch.zeros(B, units)]
    step = gru_step_fn(K, R, b, reset_after, act, ract)
    if masked or not reset_after or act != "tanh" or ract != "sigmoid":
        seq, last, states = run_loop(step, tx, ts0, torch.tensor(mask) if masked else None,
                                     go_backwards)
    else:
        seq, h = gru_fused(tx, K, R, b, ts0[0], go_backwards)
        last, states = seq[:, -1], [h]
        # The fused reference agrees with torch's GRU cell and with the recurrence written out.
        for fused in (True, False):
            seq2, _, _ = run_loop(gru_step_fn(K, R, b, True, use_torch=fused), tx, ts0, None,
                                  go_backwards)
            assert torch.allclose(seq, seq2)
    outs = rnn_outputs(seq, last, states, return_sequences, return_state)
    common = dict(return_sequences=return_sequences, return_state=return_state,
                  go_backwards=go_backwards, dtype=dname(dtype))
    cell = dict(units=units, activation=act, recurrent_activation=ract, use_bias=use_bias,
                reset_after=reset_after)
    if wrap_cell:
        layer = record("RNN", cell=record("GRUCell", **cell, dtype=dname(dtype)), **common)
    else:
        layer = record("GRU", **cell, **common)
    finish(name, "rnn_layer", layer, inputs, floats, list(zip(w, tw)), outs, dtype,
           has_mask=masked, list_call=initial_state or return_state)


gru_case("gru_last")
gru_case("gru_sequences", return_sequences=True)
gru_case("gru_backwards", return_sequences=True, go_backwards=True)
gru_case("gru_state", return_state=True, initial_state=True)
gru_case("gru_no_bias", return_sequences=True, use_bias=False)
gru_case("gru_reset_before", return_sequences=True, reset_after=False)
gru_case("gru_reset_before_state", return_state=True, initial_state=True, reset_after=False,
         go_backwards=True)
gru_case("gru_reset_before_no_bias", reset_after=False, use_bias=False)
gru_case("gru_masked", return_sequences=True, return_state=True, masked=True)
gru_case("gru_masked_reset_before", masked=True, reset_after=False, go_backwards=True)
gru_case("gru_relu_hard_sigmoid", return_sequences=True, act="relu", ract="hard_sigmoid")
gru_case("gru_float64", return_sequences=True, return_state=True, initial_state=True,
         dtype=np.float64)
gru_case("gru_float64_reset_before", return_sequences=True, reset_after=False, dtype=np.float64)
gru_case("rnn_gru_cell", wrap_cell=True, return_sequences=True)

# ---- SimpleRNN -------------------------------------------------------------------------------


def simple_case(name, units=4, return_sequences=False, return_state=False, go_backwards=False,
                use_bias=True, initial_state=False, masked=False, act="tanh", dtype=np.float32):
    x = f.randn(B, T, FEAT, dtype=dtype)
    shapes = [(FEAT, units), (units, units)] + ([(units,)] if use_bias else [])
    w = weights_np(dtype, *shapes)
    tw = [leaf(a) for a in w]
    b = tw[2] if use_bias else None
    tx = leaf(x)
    inputs, floats = [x], [tx]
    mask = make_mask(B, T) if masked else None
    if masked:
        inputs.append(mask)
    if initial_state:
        s0 = f.randn(B, units, dtype=dtype)
        ts0 = [leaf(s0)]
        inputs.append(s0)
        floats += ts0
    else:
        ts0 = [torch.zeros(B, units)]
    seq, last, states = run_loop(simple_step_fn(tw[0], tw[1], b, act), tx, ts0,
                                 torch.tensor(mask) if masked else None, go_backwards)
    if act == "tanh" and not masked:
        # torch's RNN (tanh) agrees with the hand-written recurrence.
        xs = torch.flip(tx, [1]) if go_backwards else tx
        wt = [tw[0].t(), tw[1].t()] + ([b, torch.zeros_like(b)] if use_bias else [])
        y, _ = torch._VF.rnn_tanh(xs, ts0[0][None], wt, use_bias, 1, 0.0, False, False, True)
        assert torch.allclose(y, seq)
    outs = rnn_outputs(seq, last, states, return_sequences, return_state)
    layer = record("SimpleRNN", units=units, activation=act, use_bias=use_bias,
                   return_sequences=return_sequences, return_state=return_state,
                   go_backwards=go_backwards, dtype=dname(dtype))
    finish(name, "rnn_layer", layer, inputs, floats, list(zip(w, tw)), outs, dtype,
           has_mask=masked, list_call=initial_state or return_state)


simple_case("simple_rnn_last")
simple_case("simple_rnn_sequences", return_sequences=True)
simple_case("simple_rnn_backwards", return_sequences=True, go_backwards=True)
simple_case("simple_rnn_state", return_state=True, initial_state=True)
simple_case("simple_rnn_relu_no_bias", return_sequences=True, act="relu", use_bias=False)
simple_case("simple_rnn_masked", return_sequences=True, masked=True, return_state=True)
simple_case("simple_rnn_float64", return_sequences=True, dtype=np.float64)

# ---- stacked cells -----------------------------------------------------------------------------


def stacked_case(name, return_sequences=True, return_state=False, go_backwards=False,
                 masked=False, dtype=np.float32):
    # RNN([SimpleRNNCell(4), GRUCell(3), LSTMCell(2)])
    x = f.randn(B, T, FEAT, dtype=dtype)
    w = weights_np(dtype, (FEAT, 4), (4, 4), (4,), (4, 9), (3, 9), (2, 9), (3, 8), (2, 8), (8,))
    tw = [leaf(a) for a in w]
    tx = leaf(x)
    inputs = [x]
    mask = make_mask(B, T) if masked else None
    if masked:
        inputs.append(mask)
    step = stacked_step_fn([simple_step_fn(*tw[0:3]), gru_step_fn(*tw[3:6]),
                            lstm_step_fn(*tw[6:9])], [1, 1, 2])
    s0 = [torch.zeros(B, 4), torch.zeros(B, 3), torch.zeros(B, 2), torch.zeros(B, 2)]
    seq, last, states = run_loop(step, tx, s0, torch.tensor(mask) if masked else None,
                                 go_backwards)
    outs = rnn_outputs(seq, last, states, return_sequences, return_state)
    cells = [record("SimpleRNNCell", units=4), record("GRUCell", units=3),
             record("LSTMCell", units=2)]
    layer = record("RNN", cell=record("StackedRNNCells", cells=cells),
                   return_sequences=return_sequences, return_state=return_state,
                   go_backwards=go_backwards)
    finish(name, "rnn_layer", layer, inputs, [tx], list(zip(w, tw)), outs, dtype,
           has_mask=masked, list_call=return_state)


stacked_case("stacked_sequences")
stacked_case("stacked_state_backwards", return_sequences=False, return_state=True,
             go_backwards=True)
stacked_case("stacked_masked", masked=True)

f.save()
# The cells alone and the wrappers go to a second file (each stays under 300 KB).
f = Fixture("layers_rnn_wrappers", seed=12)

# ---- cells called alone ----------------------------------------------------------------------


def cell_case(name, kind, dtype=np.float32, **opts):
    x = f.randn(B, FEAT, dtype=dtype)
    tx = leaf(x)
    if kind == "LSTMCell":
        u = 3
        w = weights_np(dtype, (FEAT, 4 * u), (u, 4 * u), (4 * u,))
        tw = [leaf(a) for a in w]
        step = lstm_step_fn(*tw, opts.get("activation", "tanh"),
                            opts.get("recurrent_activation", "sigmoid"))
        s = [f.randn(B, u, dtype=dtype) for _ in range(2)]
    elif kind == "GRUCell":
        u = 3
        ra = opts.get("reset_after", True)
        w = weights_np(dtype, (FEAT, 3 * u), (u, 3 * u), (2, 3 * u) if ra else (3 * u,))
        tw = [leaf(a) for a in w]
        step = gru_step_fn(*tw, ra)
        s = [f.randn(B, u, dtype=dtype)]
    elif kind == "SimpleRNNCell":
        u = 4
        w = weights_np(dtype, (FEAT, u), (u, u), (u,))
        tw = [leaf(a) for a in w]
        step = simple_step_fn(*tw)
        s = [f.randn(B, u, dtype=dtype)]
    else:  # StackedRNNCells([LSTMCell(3), SimpleRNNCell(2)])
        w = weights_np(dtype, (FEAT, 12), (3, 12), (12,), (3, 2), (2, 2), (2,))
        tw = [leaf(a) for a in w]
        step = stacked_step_fn([lstm_step_fn(*tw[0:3]), simple_step_fn(*tw[3:6])], [2, 1])
        s = [f.randn(B, 3, dtype=dtype), f.randn(B, 3, dtype=dtype), f.randn(B, 2, dtype=dtype)]
        opts = dict(cells=[record("LSTMCell", units=3), record("SimpleRNNCell", units=2)])
        u = None
    ts = [leaf(a) for a in s]
    out, states = step(tx, ts)
    config = dict(opts, dtype=dname(dtype))
    if u is not None:
        config["units"] = u
    finish(name, "rnn_layer", record(kind, **config), [x] + s, [tx] + ts, list(zip(w, tw)),
           [out] + list(states), dtype, has_mask=False, list_call=True)


cell_case("lstm_cell", "LSTMCell")
cell_case("lstm_cell_relu", "LSTMCell", activation="relu", recurrent_activation="hard_sigmoid")
cell_case("gru_cell", "GRUCell")
cell_case("gru_cell_reset_before", "GRUCell", reset_after=False)
cell_case("simple_rnn_cell", "SimpleRNNCell")
cell_case("stacked_rnn_cells", "StackedRNNCells")
cell_case("lstm_cell_float64", "LSTMCell", dtype=np.float64)

# ---- Bidirectional ---------------------------------------------------------------------------


def merge(a, b, mode):
    if mode == "concat":
        return [torch.cat([a, b], -1)]
    if mode == "sum":
        return [a + b]
    if mode == "mul":
        return [a * b]
    if mode == "ave":
        return [(a + b) / 2]
    return [a, b]


def bidi_case(name, merge_mode="concat", return_sequences=True, return_state=False,
              masked=False, initial_state=False, backward_gru=False, dtype=np.float32):
    u = 3
    x = f.randn(B, T, FEAT, dtype=dtype)
    tx = leaf(x)
    wf = weights_np(dtype, (FEAT, 4 * u), (u, 4 * u), (4 * u,))
    if backward_gru:
        wb = weights_np(dtype, (FEAT, 3 * u), (u, 3 * u), (2, 3 * u))
    else:
        wb = weights_np(dtype, (FEAT, 4 * u), (u, 4 * u), (4 * u,))
    tf_, tb_ = [leaf(a) for a in wf], [leaf(a) for a in wb]
    inputs, floats = [x], [tx]
    mask = make_mask(B, T) if masked else None
    if masked:
        inputs.append(mask)
    n_b = 1 if backward_gru else 2
    if initial_state:
        s0 = [f.randn(B, u, dtype=dtype) for _ in range(2 + n_b)]
        ts0 = [leaf(s) for s in s0]
        inputs += s0
        floats += ts0
    else:
        ts0 = [torch.zeros(B, u) for _ in range(2 + n_b)]
    tm = torch.tensor(mask) if masked else None
    # zero_output_for_mask = return_sequences in both directions (Keras's Bidirectional).
    fseq, flast, fstates = run_loop(lstm_step_fn(*tf_), tx, ts0[:2], tm, False, return_sequences)
    bstep = gru_step_fn(*tb_) if backward_gru else lstm_step_fn(*tb_)
    bseq, blast, bstates = run_loop(bstep, tx, ts0[2:], tm, True, return_sequences)
    if return_sequences:
        a, b = fseq, torch.flip(bseq, [1])
    else:
        a, b = flast, blast
    outs = merge(a, b, merge_mode) + ((fstates + bstates) if return_state else [])
    lstm = record("LSTM", units=u, return_sequences=return_sequences, return_state=return_state,
                  dtype=dname(dtype))
    config = dict(merge_mode=None if merge_mode == "none" else merge_mode, layer=lstm,
                  dtype=dname(dtype))
    if backward_gru:
        config["backward_layer"] = record("GRU", units=u, return_sequences=return_sequences,
                                          return_state=return_state, go_backwards=True,
                                          dtype=dname(dtype))
    finish(name, "rnn_layer", record("Bidirectional", **config), inputs, floats,
           list(zip(wf + wb, tf_ + tb_)), outs, dtype, has_mask=masked,
           list_call=merge_mode == "none" or return_state or initial_state)


bidi_case("bidi_concat")
bidi_case("bidi_sum", merge_mode="sum")
bidi_case("bidi_mul", merge_mode="mul", return_sequences=False)
bidi_case("bidi_ave", merge_mode="ave")
bidi_case("bidi_none", merge_mode="none")
bidi_case("bidi_state", return_state=True, initial_state=True, return_sequences=False)
bidi_case("bidi_masked", masked=True)
bidi_case("bidi_masked_last", masked=True, return_sequences=False, merge_mode="sum")
bidi_case("bidi_backward_gru", backward_gru=True, return_state=True)
bidi_case("bidi_float64", merge_mode="ave", dtype=np.float64)

# ---- TimeDistributed -------------------------------------------------------------------------


def td_dense_case(name, shape, units=3, activation="relu", dtype=np.float32):
    x = f.randn(*shape, dtype=dtype)
    w = weights_np(dtype, (shape[-1], units), (units,))
    tw = [leaf(a) for a in w]
    tx = leaf(x)
    y = ACT[activation](tx @ tw[0] + tw[1])
    dense = record("Dense", units=units, activation=activation, dtype=dname(dtype))
    layer = record("TimeDistributed", layer=dense, dtype=dname(dtype))
    finish(name, "rnn_layer", layer, [x], [tx], list(zip(w, tw)), [y], dtype, has_mask=False,
           list_call=False)


td_dense_case("td_dense", (B, T, FEAT))
td_dense_case("td_dense_4d", (2, 3, 4, 5), activation="tanh")
td_dense_case("td_dense_float64", (B, T, FEAT), activation="linear", dtype=np.float64)


def td_lstm_case(name, dtype=np.float32):
    # TimeDistributed(LSTM(3)) over (batch, time, steps, features): the inner layer's own loop
    # per outer timestep (the generic per-timestep path).
    u = 3
    x = f.randn(2, 3, 4, FEAT, dtype=dtype)
    w = weights_np(dtype, (FEAT, 4 * u), (u, 4 * u), (4 * u,))
    tw = [leaf(a) for a in w]
    tx = leaf(x)
    flat = tx.reshape(6, 4, FEAT)
    _, h, _ = lstm_fused(flat, *tw, torch.zeros(6, u), torch.zeros(6, u), False)
    y = h.reshape(2, 3, u)
    layer = record("TimeDistributed", layer=record("LSTM", units=u, dtype=dname(dtype)),
                   dtype=dname(dtype))
    finish(name, "rnn_layer", layer, [x], [tx], list(zip(w, tw)), [y], dtype, has_mask=False,
           list_call=False)


td_lstm_case("td_lstm")

f.save()

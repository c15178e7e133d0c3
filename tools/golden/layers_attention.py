"""The attention layers against PyTorch (tests/layers_attention/attention_test.cpp), written to
tests/golden/layers_attention_mha.npz (MultiHeadAttention) and layers_attention.npz (the rest).

MultiHeadAttention, GroupedQueryAttention, Attention and AdditiveAttention computed in float64
torch from weights in Keras's layout: the forward outputs (and attention scores where returned)
and the gradients of sum(output * upstream) (+ sum(scores * upstream_scores)) with respect to
the float inputs and every trainable weight, in the order of layer.weights.

The attention itself is written independently of keras-cpp: einsum equations built as Keras's
_build_attention_equation builds them, Keras's masked softmax (masked logits biased by -1e9,
probabilities times the mask) where scores are returned or dropout is set, and
jax.nn.dot_product_attention's form (masked logits replaced by -0.7 * float32 max) on the path
where Keras calls ops.dot_product_attention.

Case layout: n_inputs inputs (query, value[, key]), then the masks named in `masks` (boolean),
then n_weights weights, then one upstream gradient per output.
"""

import string

import numpy as np
import torch

from fixture import Fixture

f = Fixture("layers_attention_mha", seed=11)
torch.set_default_dtype(torch.float64)
F32_MAX = float(np.finfo(np.float32).max)


def t64(a, grad=False):
    return torch.tensor(np.asarray(a).astype(np.float64), requires_grad=grad)


def bool_t(a):
    return torch.tensor(np.asarray(a).astype(bool))


# ---- Keras's equations ---------------------------------------------------------------------


def attention_equation(rank, attn_axes):
    """keras/src/layers/attention/multi_head_attention.py _build_attention_equation."""
    letters = string.ascii_lowercase
    target = letters[:rank]
    batch_dims = tuple(np.delete(range(rank), attn_axes + (rank - 1,)))
    offset = rank
    source = ""
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += letters[offset]
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes] +
                      [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def masked_softmax_keras(logits, mask, norm_axes):
    """Keras's Softmax layer with a mask (keras/src/layers/activations/softmax.py)."""
    if mask is not None:
        logits = logits + (1.0 - mask.to(logits.dtype)) * -1e9
    if len(norm_axes) > 1:
        out = torch.exp(logits - torch.logsumexp(logits, dim=norm_axes, keepdim=True))
    else:
        out = torch.softmax(logits, dim=norm_axes[0])
    if mask is not None:
        out = out * mask.to(out.dtype)
    return out


def causal(T, S):
    return torch.tril(torch.ones(T, S, dtype=torch.bool)).unsqueeze(0)


def band(T, S, w):
    i = torch.arange(T).reshape(T, 1)
    j = torch.arange(S).reshape(1, S)
    return ((i - j).abs() < w).unsqueeze(0)


def merged_mask(T, S, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
                use_causal_mask=False, sliding_window=None):
    """Keras's _compute_attention_mask."""
    auto = None

    def add(m):
        nonlocal auto
        auto = m if auto is None else auto & m

    if query_mask is not None:
        add(query_mask.unsqueeze(-1))
    if value_mask is not None:
        add(value_mask.unsqueeze(-2))
    if key_mask is not None:
        add(key_mask.unsqueeze(-2))
    if use_causal_mask:
        add(causal(T, S))
    if sliding_window is not None:
        add(band(T, S, sliding_window))
    if attention_mask is not None:
        return attention_mask if auto is None else attention_mask & auto
    return auto


def expand_mask(mask, rank, axis):
    while mask.dim() < rank:
        mask = mask.unsqueeze(axis)
    return mask


def proj(x, kernel, bias, bound=1):
    y = torch.tensordot(x, kernel, dims=(list(range(x.dim() - bound, x.dim())), list(range(bound))))
    return y + bias if bias is not None else y


def dpa_jax(q, k, v, mask, scale):
    """jax.nn.dot_product_attention (xla) on (B, T, N, H) tensors, grouped heads repeated."""
    N, K = q.shape[2], k.shape[2]
    k = torch.repeat_interleave(k, N // K, dim=2)
    v = torch.repeat_interleave(v, N // K, dim=2)
    logits = torch.einsum("btnh,bsnh->bnts", q, k) * scale
    if mask is not None:
        logits = torch.where(mask, logits, torch.tensor(-0.7 * F32_MAX))
    probs = torch.softmax(logits, dim=-1)
    return torch.einsum("bnts,bsnh->btnh", probs, v)


# ---- case writers ----------------------------------------------------------------------------


def finish(name, op, inputs_np, mask_np, weights_np, outs, kwargs, dtype, tin, tw, rtol=1e-5):
    ups = [f.randn(*o.shape, dtype=dtype) for o in outs]
    loss = sum((o * t64(u)).sum() for o, u in zip(outs, ups))
    loss.backward()
    grads = [t.grad for t in tin] + [t.grad for t in tw]
    expected = [o.detach().numpy().astype(dtype) for o in outs]
    expected += [g.numpy().astype(dtype) for g in grads]
    f.case(name, op, list(inputs_np) + list(mask_np) + list(weights_np) + ups, expected,
           n_inputs=len(inputs_np), n_weights=len(weights_np), rtol=rtol, atol=rtol,
           **kwargs)


def mha_case(name, q_shape, v_shape, num_heads, key_dim, value_dim=None, k_shape=None,
             output_shape=None, attention_axes=None, use_bias=True, use_gate=False,
             sliding_window=None, dropout=0.0, return_scores=False, use_causal_mask=False,
             masks=(), dtype=np.float32, mask_fn=None):
    value_dim = value_dim or key_dim
    q = f.randn(*q_shape, dtype=dtype)
    v = f.randn(*v_shape, dtype=dtype)
    k = f.randn(*k_shape, dtype=dtype) if k_shape else None
    inputs = [q, v] + ([k] if k is not None else [])
    q_rank = len(q_shape)
    out_dims = list(output_shape) if output_shape else [q_shape[-1]]
    key_in = (k_shape or v_shape)[-1]

    def w(*shape):
        return f.randn(*shape, dtype=dtype) * 0.4

    weights = [w(q_shape[-1], num_heads, key_dim)]
    if use_bias:
        weights.append(w(num_heads, key_dim))
    weights.append(w(key_in, num_heads, key_dim))
    if use_bias:
        weights.append(w(num_heads, key_dim))
    if use_gate:
        weights.append(w(q_shape[-1], num_heads, value_dim))
        if use_bias:
            weights.append(w(num_heads, value_dim))
    weights.append(w(v_shape[-1], num_heads, value_dim))
    if use_bias:
        weights.append(w(num_heads, value_dim))
    weights.append(w(num_heads, value_dim, *out_dims))
    if use_bias:
        weights.append(w(*out_dims))

    # Masks: (B, T) / (B, S) paddings with at least one kept position per row of the value.
    T, S = q_shape[1], v_shape[1]
    mask_arrays = {}
    for m in masks:
        if m == "query_mask":
            a = f.uniform(0, 1, q_shape[0], *q_shape[1:-1]) > 0.3
        elif m in ("value_mask", "key_mask"):
            a = f.uniform(0, 1, v_shape[0], *v_shape[1:-1]) > 0.3
            a[..., 0] = True
        else:  # attention_mask
            a = mask_fn() if mask_fn else f.uniform(0, 1, q_shape[0], T, S) > 0.3
            if not mask_fn:
                a[..., 0] = True
        mask_arrays[m] = a
    mask_np = [mask_arrays[m] for m in masks]

    tin = [t64(x, True) for x in inputs]
    tw = [t64(x, True) for x in weights]
    tq, tv = tin[0], tin[1]
    tk = tin[2] if k is not None else tv
    it = iter(tw)
    qk, qb = next(it), (next(it) if use_bias else None)
    kk, kb = next(it), (next(it) if use_bias else None)
    if use_gate:
        gk, gb = next(it), (next(it) if use_bias else None)
    vk, vb = next(it), (next(it) if use_bias else None)
    ok, ob = next(it), (next(it) if use_bias else None)

    mt = {m: bool_t(a) for m, a in mask_arrays.items()}
    only_causal = use_causal_mask and not masks and sliding_window is None
    mask = merged_mask(T, S, mt.get("query_mask"), mt.get("value_mask"), mt.get("key_mask"),
                       mt.get("attention_mask"), use_causal_mask, sliding_window)

    query = proj(tq, qk, qb)
    key = proj(tk, kk, kb)
    value = proj(tv, vk, vb)
    rank = query.dim()
    if attention_axes is None:
        axes = tuple(range(1, rank - 2))
    else:
        axes = tuple(a if a >= 0 else q_rank + a for a in attention_axes)
    scale = 1.0 / np.sqrt(key_dim)
    fast = not return_scores and dropout == 0.0 and rank == 4
    if fast:
        m4 = expand_mask(mask, 4, -3) if mask is not None else None
        if only_causal:
            m4 = causal(T, S).unsqueeze(0)
        out = dpa_jax(query, key, value, m4, scale)
        scores = None
    else:
        dot_eq, combine_eq, scores_rank = attention_equation(rank, axes)
        if only_causal:
            mask = causal(T, S)
        logits = torch.einsum(dot_eq, key, query * scale)
        if mask is not None:
            mask = expand_mask(mask, scores_rank, -len(axes) * 2 - 1)
        norm_axes = tuple(range(scores_rank - len(axes), scores_rank))
        scores = masked_softmax_keras(logits, mask, norm_axes)
        out = torch.einsum(combine_eq, scores, value)
    if use_gate:
        out = out * torch.sigmoid(proj(tq, gk, gb))
    out = proj(out, ok, ob, bound=2)
    outs = [out] + ([scores] if return_scores else [])
    kwargs = dict(num_heads=num_heads, key_dim=key_dim, value_dim=value_dim, use_bias=use_bias,
                  use_gate=use_gate, dropout=dropout, return_attention_scores=return_scores,
                  use_causal_mask=use_causal_mask, masks=list(masks),
                  dtype=np.dtype(dtype).name)
    if output_shape:
        kwargs["output_shape"] = list(output_shape)
    if attention_axes is not None:
        kwargs["attention_axes"] = list(attention_axes)
    if sliding_window is not None:
        kwargs["sliding_window"] = sliding_window
    finish(name, "mha", inputs, mask_np, weights, outs, kwargs, dtype, tin, tw,
           rtol=1e-5 if dtype == np.float32 else 1e-10)


def gqa_case(name, q_shape, v_shape, head_dim, nq, nkv, k_shape=None, use_bias=True,
             use_gate=False, sliding_window=None, return_scores=False, use_causal_mask=False,
             masks=(), dropout=0.0, dtype=np.float32):
    q = f.randn(*q_shape, dtype=dtype)
    v = f.randn(*v_shape, dtype=dtype)
    k = f.randn(*k_shape, dtype=dtype) if k_shape else None
    inputs = [q, v] + ([k] if k is not None else [])
    dim = q_shape[-1]
    key_in = (k_shape or v_shape)[-1]

    def w(*shape):
        return f.randn(*shape, dtype=dtype) * 0.4

    weights = [w(dim, nq, head_dim)] + ([w(nq, head_dim)] if use_bias else [])
    weights += [w(key_in, nkv, head_dim)] + ([w(nkv, head_dim)] if use_bias else [])
    if use_gate:
        weights += [w(dim, nq, head_dim)] + ([w(nq, head_dim)] if use_bias else [])
    weights += [w(v_shape[-1], nkv, head_dim)] + ([w(nkv, head_dim)] if use_bias else [])
    weights += [w(nq, head_dim, dim)] + ([w(dim)] if use_bias else [])

    T, S = q_shape[1], v_shape[1]
    mask_arrays = {}
    for m in masks:
        if m == "query_mask":
            a = f.uniform(0, 1, q_shape[0], T) > 0.3
        elif m in ("value_mask", "key_mask"):
            a = f.uniform(0, 1, v_shape[0], S) > 0.3
            a[..., 0] = True
        else:
            a = f.uniform(0, 1, q_shape[0], T, S) > 0.3
            a[..., 0] = True
        mask_arrays[m] = a
    mask_np = [mask_arrays[m] for m in masks]

    tin = [t64(x, True) for x in inputs]
    tw = [t64(x, True) for x in weights]
    tq, tv = tin[0], tin[1]
    tk = tin[2] if k is not None else tv
    it = iter(tw)
    qk, qb = next(it), (next(it) if use_bias else None)
    kk, kb = next(it), (next(it) if use_bias else None)
    if use_gate:
        gk, gb = next(it), (next(it) if use_bias else None)
    vk, vb = next(it), (next(it) if use_bias else None)
    ok, ob = next(it), (next(it) if use_bias else None)
    mt = {m: bool_t(a) for m, a in mask_arrays.items()}
    only_causal = use_causal_mask and not masks and sliding_window is None
    mask = merged_mask(T, S, mt.get("query_mask"), mt.get("value_mask"), mt.get("key_mask"),
                       mt.get("attention_mask"), use_causal_mask, sliding_window)
    if only_causal:
        mask = causal(T, S)

    query = proj(tq, qk, qb)
    key = torch.repeat_interleave(proj(tk, kk, kb), nq // nkv, dim=2)
    value = torch.repeat_interleave(proj(tv, vk, vb), nq // nkv, dim=2)
    scale = 1.0 / np.sqrt(head_dim)
    if not return_scores and dropout == 0.0:
        out = dpa_jax(query, key, value, expand_mask(mask, 4, -3) if mask is not None else None,
                      scale)
        scores = None
    else:
        logits = torch.einsum("bquh,bkuh->buqk", query * scale, key)
        m4 = expand_mask(mask, 4, -3) if mask is not None else None
        scores = masked_softmax_keras(logits, m4, (3,))
        out = torch.einsum("buqk,bkuh->bquh", scores, value)
    if use_gate:
        out = out * torch.sigmoid(proj(tq, gk, gb))
    out = proj(out, ok, ob, bound=2)
    outs = [out] + ([scores] if return_scores else [])
    kwargs = dict(head_dim=head_dim, num_query_heads=nq, num_key_value_heads=nkv,
                  use_bias=use_bias, use_gate=use_gate, dropout=dropout,
                  return_attention_scores=return_scores, use_causal_mask=use_causal_mask,
                  masks=list(masks), dtype=np.dtype(dtype).name)
    if sliding_window is not None:
        kwargs["sliding_window"] = sliding_window
    finish(name, "gqa", inputs, mask_np, weights, outs, kwargs, dtype, tin, tw)


def luong_case(name, op, q_shape, v_shape, k_shape=None, use_scale=False, score_mode="dot",
               masks=False, use_causal_mask=False, return_scores=False, dropout=0.0,
               dtype=np.float32):
    q = f.randn(*q_shape, dtype=dtype)
    v = f.randn(*v_shape, dtype=dtype)
    k = f.randn(*k_shape, dtype=dtype) if k_shape else None
    inputs = [q, v] + ([k] if k is not None else [])
    weights = []
    if op == "attention":
        if use_scale:
            weights.append(np.asarray(f.uniform(0.5, 1.5, dtype=dtype)))
        if score_mode == "concat":
            weights.append(np.asarray(f.uniform(0.5, 1.5, dtype=dtype)))
    elif use_scale:
        weights.append(f.randn(q_shape[-1], dtype=dtype) * 0.5)
    mask_np = []
    if masks:
        qm = f.uniform(0, 1, q_shape[0], q_shape[1]) > 0.3
        vm = f.uniform(0, 1, v_shape[0], v_shape[1]) > 0.3
        vm[..., 0] = True
        mask_np = [qm, vm]
    tin = [t64(x, True) for x in inputs]
    tw = [t64(x, True) for x in weights]
    tq, tv = tin[0], tin[1]
    tk = tin[2] if k is not None else tv
    if op == "attention":
        it = iter(tw)
        scale = next(it) if use_scale else None
        concat_w = next(it) if score_mode == "concat" else None
        if score_mode == "dot":
            scores = tq @ tk.transpose(-1, -2)
            if scale is not None:
                scores = scores * scale
        else:
            s = tq.unsqueeze(-2) + tk.unsqueeze(-3)
            if scale is not None:
                s = scale * s
            scores = concat_w * torch.tanh(s).sum(-1)
    else:
        t = torch.tanh(tq.unsqueeze(-2) + tk.unsqueeze(-3))
        if use_scale:
            t = tw[0] * t
        scores = t.sum(-1)
    keep = None
    if masks:
        keep = bool_t(mask_np[1]).unsqueeze(-2)
    if use_causal_mask:
        c = causal(scores.shape[-2], scores.shape[-1])
        keep = c if keep is None else keep & c
    if keep is not None:
        scores = scores - 1e9 * (~keep).to(scores.dtype)
    weights_t = torch.softmax(scores, dim=-1)
    out = weights_t @ tv
    if masks:
        out = out * bool_t(mask_np[0]).unsqueeze(-1).to(out.dtype)
    outs = [out] + ([weights_t] if return_scores else [])
    kwargs = dict(use_scale=use_scale, use_causal_mask=use_causal_mask,
                  return_attention_scores=return_scores, dropout=dropout,
                  masks=["query_mask", "value_mask"] if masks else [],
                  dtype=np.dtype(dtype).name)
    if op == "attention":
        kwargs["score_mode"] = score_mode
    finish(name, op, inputs, mask_np, weights, outs, kwargs, dtype, tin, tw)


# ---- MultiHeadAttention ---------------------------------------------------------------------
mha_case("mha_self", (2, 4, 6), (2, 4, 6), 2, 3)
mha_case("mha_cross_key", (2, 3, 5), (2, 4, 6), 2, 3, value_dim=2, k_shape=(2, 4, 7))
mha_case("mha_scores", (2, 3, 5), (2, 4, 6), 2, 3, k_shape=(2, 4, 4), return_scores=True)
mha_case("mha_output_shape", (2, 3, 5), (2, 4, 5), 3, 2, output_shape=(3, 2))
mha_case("mha_no_bias", (2, 3, 5), (2, 4, 5), 2, 3, use_bias=False)
mha_case("mha_gate", (2, 3, 5), (2, 4, 5), 2, 3, value_dim=4, use_gate=True)
mha_case("mha_gate_scores_no_bias", (2, 3, 5), (2, 4, 5), 2, 3, use_gate=True, use_bias=False,
         return_scores=True)
mha_case("mha_attention_mask", (2, 4, 5), (2, 5, 5), 2, 3, masks=("attention_mask",))
mha_case("mha_attention_mask_scores", (2, 4, 5), (2, 5, 5), 2, 3, masks=("attention_mask",),
         return_scores=True)
mha_case("mha_causal", (2, 5, 4), (2, 5, 4), 2, 3, use_causal_mask=True)
mha_case("mha_causal_scores", (2, 5, 4), (2, 5, 4), 2, 3, use_causal_mask=True,
         return_scores=True)
mha_case("mha_causal_cross", (2, 3, 4), (2, 5, 4), 2, 3, use_causal_mask=True,
         masks=("value_mask",))
mha_case("mha_padding_masks", (2, 4, 5), (2, 5, 5), 2, 3, k_shape=(2, 5, 3),
         masks=("query_mask", "value_mask", "key_mask"))
mha_case("mha_padding_masks_scores", (2, 4, 5), (2, 5, 5), 2, 3,
         masks=("query_mask", "value_mask"), return_scores=True)
mha_case("mha_all_masks_causal", (2, 5, 4), (2, 5, 4), 2, 2,
         masks=("query_mask", "value_mask", "attention_mask"), use_causal_mask=True,
         return_scores=True)
mha_case("mha_sliding_window", (2, 6, 4), (2, 6, 4), 2, 3, sliding_window=2)
mha_case("mha_sliding_window_causal_scores", (2, 6, 4), (2, 6, 4), 2, 3, sliding_window=3,
         use_causal_mask=True, return_scores=True)
mha_case("mha_dropout_inference", (2, 3, 5), (2, 4, 5), 2, 3, dropout=0.5)
mha_case("mha_high_dim_axis2", (2, 3, 4, 5), (2, 3, 6, 5), 2, 3, attention_axes=(2,))
mha_case("mha_high_dim_axis2_scores", (2, 3, 4, 5), (2, 3, 6, 5), 2, 3, attention_axes=(-2,),
         return_scores=True)
mha_case("mha_high_dim_two_axes", (2, 3, 4, 5), (2, 2, 3, 5), 2, 3, return_scores=True)
mha_case("mha_high_dim_axis1_mask", (2, 3, 2, 4), (2, 5, 2, 4), 2, 2, attention_axes=(1,),
         masks=("attention_mask",),
         mask_fn=lambda: np.concatenate([np.ones((2, 2, 3, 1), bool),
                                         f.uniform(0, 1, 2, 2, 3, 4) > 0.4], -1))
mha_case("mha_float64", (2, 3, 4), (2, 4, 4), 2, 3, return_scores=True,
         masks=("value_mask",), dtype=np.float64)

f.save()
f = Fixture("layers_attention", seed=12)

# ---- GroupedQueryAttention ------------------------------------------------------------------
gqa_case("gqa_basic", (2, 4, 6), (2, 5, 6), 3, 4, 2)
gqa_case("gqa_scores_key", (2, 4, 6), (2, 5, 6), 3, 4, 2, k_shape=(2, 5, 4), return_scores=True)
gqa_case("gqa_multi_query", (2, 4, 5), (2, 4, 5), 2, 3, 1, use_causal_mask=True)
gqa_case("gqa_multi_query_scores", (2, 4, 5), (2, 4, 5), 2, 3, 1, use_causal_mask=True,
         return_scores=True)
gqa_case("gqa_masks", (2, 4, 5), (2, 5, 5), 2, 4, 2,
         masks=("query_mask", "value_mask", "attention_mask"))
gqa_case("gqa_masks_scores", (2, 4, 5), (2, 5, 5), 2, 4, 2,
         masks=("query_mask", "value_mask", "attention_mask"), return_scores=True)
gqa_case("gqa_gate_no_bias", (2, 4, 5), (2, 4, 5), 2, 4, 4, use_gate=True, use_bias=False)
gqa_case("gqa_sliding_window", (2, 6, 4), (2, 6, 4), 2, 2, 1, sliding_window=2,
         use_causal_mask=True, return_scores=True)
gqa_case("gqa_dropout_inference", (2, 4, 5), (2, 4, 5), 2, 4, 2, dropout=0.3)

# ---- Attention ----------------------------------------------------------------------------
luong_case("attention_dot", "attention", (2, 3, 4), (2, 5, 4))
luong_case("attention_dot_scale_key", "attention", (2, 3, 4), (2, 5, 6), k_shape=(2, 5, 4),
           use_scale=True, return_scores=True)
luong_case("attention_concat", "attention", (2, 3, 4), (2, 5, 4), score_mode="concat")
luong_case("attention_concat_scale", "attention", (2, 3, 4), (2, 5, 4), score_mode="concat",
           use_scale=True, return_scores=True)
luong_case("attention_masks", "attention", (2, 4, 3), (2, 5, 3), masks=True,
           return_scores=True)
luong_case("attention_causal", "attention", (2, 4, 3), (2, 4, 3), use_causal_mask=True,
           return_scores=True)
luong_case("attention_masks_causal", "attention", (2, 4, 3), (2, 4, 3), masks=True,
           use_causal_mask=True)
luong_case("attention_float64", "attention", (2, 3, 4), (2, 5, 4), use_scale=True, masks=True,
           dtype=np.float64)

# ---- AdditiveAttention ----------------------------------------------------------------------
luong_case("additive_scale", "additive_attention", (2, 3, 4), (2, 5, 4), k_shape=(2, 5, 4),
           use_scale=True, return_scores=True)
luong_case("additive_no_scale", "additive_attention", (2, 3, 4), (2, 5, 4), use_scale=False)
luong_case("additive_masks_causal", "additive_attention", (2, 4, 3), (2, 4, 3), use_scale=True,
           masks=True, use_causal_mask=True, return_scores=True)

f.save()

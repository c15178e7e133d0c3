"""Normalization layers against PyTorch (tests/layers_norm/norm_golden_test.cpp).

Every case holds the input, the layer's weights in Keras layout (the order of layer.weights)
and an upstream gradient; it expects the output, the gradients of sum(output * upstream) with
respect to the input and to every trainable weight, and, with "updated_weights", every weight
after the call (BatchNormalization's moving statistics). References are computed in float64
with torch.nn.functional where it has the operation (batch_norm, layer_norm, group_norm,
normalize) and from the definitions otherwise (masked and renormalized batch statistics, RMS
normalization, which torch 1.13 lacks), then cast to the case's dtype.

Keras semantics these encode:
- BatchNormalization: the batch variance is biased (torch's running_var uses the unbiased one,
  so the moving statistics are updated here from the definition:
  moving = moving * momentum + batch * (1 - momentum)); trainable=False runs in inference mode
  even when training; a mask (rank - 1) restricts the statistics to the kept positions and
  divides by count + 1e-7 (keras.config.epsilon()).
- Batch renormalization (Keras 3.14+): r = clip(std / max(renorm_std, sqrt(eps))),
  d = clip((mean - renorm_mean) / max(renorm_std, sqrt(eps))), both without gradient.
- LayerNormalization with the deprecated rms_scaling: x * rsqrt(var + eps) * gamma.
"""

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("layers_norm", seed=11)
torch.set_default_dtype(torch.float64)

TOL = dict(rtol=1e-5, atol=1e-5)


def t(a, grad=True):
    return torch.tensor(np.asarray(a).astype(np.float64), requires_grad=grad)


def finish(name, op, x, weights, grads_of, y, extra_inputs=(), updated=None, dtype=np.float32,
           **kwargs):
    """Backpropagates sum(y * up) and writes the case."""
    up = f.randn(*y.shape, dtype=dtype)
    (y * torch.tensor(up.astype(np.float64))).sum().backward()
    outs = [y.detach().numpy().astype(dtype), x.grad.numpy().astype(dtype)]
    outs += [w.grad.numpy().astype(dtype) for w in grads_of]
    if updated is not None:
        outs += [np.asarray(u).astype(dtype) for u in updated]
        kwargs["updated_weights"] = True
    inputs = [x.detach().numpy().astype(dtype)] + list(extra_inputs)
    inputs += [w.detach().numpy().astype(dtype) for w in weights] + [up]
    f.case(name, op, inputs, outs, n_inputs=1 + len(extra_inputs), n_weights=len(weights),
           **{**TOL, **kwargs})


# ---- BatchNormalization ----------------------------------------------------------------------

def to_channels_second(x, axis):
    return x.movedim(axis, 1)


def bn_case(name, shape, axis=-1, training=True, center=True, scale=True, momentum=0.99,
            epsilon=1e-3, trainable=True, dtype=np.float32):
    x = t(f.randn(*shape) * 1.5 + 0.3)
    c = shape[axis]
    gamma = t(f.uniform(0.5, 1.5, c))
    beta = t(f.randn(c) * 0.5)
    mm = f.randn(c) * 0.2
    mv = f.uniform(0.5, 2.0, c)
    weights = ([gamma] if scale else []) + ([beta] if center else [])
    trainable_weights = weights if trainable else []
    xs = to_channels_second(x, axis)
    red = [d for d in range(len(shape)) if d != (axis % len(shape))]
    use_batch = training and trainable
    y = F.batch_norm(xs, t(mm, False), t(mv, False), gamma if scale else None,
                     beta if center else None, training=use_batch, eps=epsilon)
    y = y.movedim(1, axis)
    if use_batch:
        xd = x.detach().numpy()
        bmean = xd.mean(axis=tuple(red))
        bvar = xd.var(axis=tuple(red))  # biased, as Keras
        new_mm = mm * momentum + bmean * (1 - momentum)
        new_mv = mv * momentum + bvar * (1 - momentum)
    else:
        new_mm, new_mv = mm, mv
    updated = [w.detach().numpy() for w in weights] + [new_mm, new_mv]
    finish(name, "batch_normalization", x, weights + [t(mm, False), t(mv, False)],
           trainable_weights, y, updated=updated, dtype=dtype, axis=axis, training=training,
           center=center, scale=scale, momentum=momentum, epsilon=epsilon, trainable=trainable)


bn_case("bn_train_2d", (8, 5))
bn_case("bn_infer_2d", (8, 5), training=False)
bn_case("bn_train_seq", (3, 4, 5))
bn_case("bn_train_channels_last", (2, 3, 3, 4))
bn_case("bn_infer_channels_last", (2, 3, 3, 4), training=False)
bn_case("bn_train_channels_first", (2, 4, 3, 3), axis=1)
bn_case("bn_infer_channels_first", (2, 4, 3, 3), axis=1, training=False)
bn_case("bn_train_no_center", (6, 3), center=False, momentum=0.9)
bn_case("bn_train_no_scale", (6, 3), scale=False, epsilon=1e-5)
bn_case("bn_train_no_affine", (2, 3, 4), axis=1, center=False, scale=False)
bn_case("bn_frozen_training", (6, 4), trainable=False)
bn_case("bn_train_float64", (5, 3), dtype=np.float64)


def bn_masked_case(name, shape, momentum=0.9, epsilon=1e-3):
    """Training with a mask of rank - 1 (Keras's _moments with a mask)."""
    x = t(f.randn(*shape))
    c = shape[-1]
    mask = f.rng.random(shape[:-1]) < 0.6
    mask.flat[0] = True
    gamma, beta = t(f.uniform(0.5, 1.5, c)), t(f.randn(c) * 0.5)
    mm, mv = f.randn(c) * 0.2, f.uniform(0.5, 2.0, c)
    red = tuple(range(len(shape) - 1))
    m = torch.tensor(mask[..., None].astype(np.float64)).expand(*shape)
    count = m.sum(red, keepdim=True) + 1e-7
    mean = (x * m).sum(red, keepdim=True) / count
    var = (((x - mean) * m) ** 2).sum(red, keepdim=True) / count
    y = (x - mean) / torch.sqrt(var + epsilon) * gamma + beta
    new_mm = mm * momentum + mean.detach().numpy().reshape(c) * (1 - momentum)
    new_mv = mv * momentum + var.detach().numpy().reshape(c) * (1 - momentum)
    updated = [gamma.detach().numpy(), beta.detach().numpy(), new_mm, new_mv]
    finish(name, "batch_normalization_masked", x, [gamma, beta, t(mm, False), t(mv, False)],
           [gamma, beta], y, extra_inputs=[mask], updated=updated, axis=-1, training=True,
           center=True, scale=True, momentum=momentum, epsilon=epsilon, trainable=True)


bn_masked_case("bn_masked_seq", (3, 5, 4))


def bn_renorm_case(name, shape, axis=-1, clipping=None, momentum=0.9, renorm_momentum=0.8,
                   epsilon=1e-3):
    """Batch renormalization in training: corrections r, d held constant for the gradient."""
    clipping = clipping or {}
    x = t(f.randn(*shape) * 1.3 + 0.4)
    nd = len(shape)
    a = axis % nd
    c = shape[a]
    gamma, beta = t(f.uniform(0.5, 1.5, c)), t(f.randn(c) * 0.5)
    mm, mv = f.randn(c) * 0.2, f.uniform(0.5, 2.0, c)
    mstd = np.sqrt(mv)
    rmean, rstd = f.randn(c) * 0.3, f.uniform(0.6, 1.6, c)
    red = tuple(d for d in range(nd) if d != a)
    bshape = [1] * nd
    bshape[a] = c
    mean = x.mean(red)
    var = ((x - x.mean(red, keepdim=True)) ** 2).mean(red)
    std = torch.sqrt(var + epsilon)
    denom = torch.clamp(torch.tensor(rstd), min=np.sqrt(epsilon))
    r = (std / denom).detach()
    d = ((mean - torch.tensor(rmean)) / denom).detach()
    if "rmin" in clipping:
        r = torch.clamp(r, min=clipping["rmin"])
    if "rmax" in clipping:
        r = torch.clamp(r, max=clipping["rmax"])
    if "dmax" in clipping:
        d = torch.clamp(d, -clipping["dmax"], clipping["dmax"])
    g2, b2 = r * gamma, d * gamma + beta
    xhat = (x - mean.reshape(bshape)) / torch.sqrt(var.reshape(bshape) + epsilon)
    y = xhat * g2.reshape(bshape) + b2.reshape(bshape)
    mean_n, std_n = mean.detach().numpy(), std.detach().numpy()
    new_rmean = rmean * renorm_momentum + mean_n * (1 - renorm_momentum)
    new_rstd = rstd * renorm_momentum + std_n * (1 - renorm_momentum)
    new_mm = mm * momentum + mean_n * (1 - momentum)
    new_mstd = mstd * momentum + std_n * (1 - momentum)
    new_mv = np.maximum(new_mstd ** 2 - epsilon, 0)
    updated = [gamma.detach().numpy(), beta.detach().numpy(), new_mm, new_mv, new_mstd,
               new_rmean, new_rstd]
    weights = [gamma, beta] + [t(w, False) for w in (mm, mv, mstd, rmean, rstd)]
    finish(name, "batch_normalization", x, weights, [gamma, beta], y, updated=updated, axis=axis,
           training=True, center=True, scale=True, momentum=momentum, epsilon=epsilon,
           trainable=True, renorm=True, renorm_clipping=clipping,
           renorm_momentum=renorm_momentum)


bn_renorm_case("bn_renorm_unclipped", (6, 4))
bn_renorm_case("bn_renorm_clipped", (4, 3, 5), clipping={"rmax": 1.1, "rmin": 0.9, "dmax": 0.2})
bn_renorm_case("bn_renorm_channels_first", (2, 3, 2, 2), axis=1, clipping={"dmax": 0.5})


# ---- LayerNormalization ----------------------------------------------------------------------

def ln_case(name, shape, axis=-1, center=True, scale=True, rms_scaling=False, epsilon=1e-3,
            dtype=np.float32):
    x = t(f.randn(*shape) * 2.0 + 0.5)
    nd = len(shape)
    axes = sorted(a % nd for a in (axis if isinstance(axis, list) else [axis]))
    wshape = tuple(shape[a] for a in axes)
    gamma = t(f.uniform(0.5, 1.5, *wshape))
    beta = t(f.randn(*wshape) * 0.5)
    use_gamma = scale or rms_scaling
    use_beta = center and not rms_scaling
    bshape = [shape[d] if d in axes else 1 for d in range(nd)]
    trailing = axes == list(range(nd - len(axes), nd))
    if rms_scaling:
        var = x.var(dim=axes, keepdim=True, unbiased=False)
        y = x * torch.rsqrt(var + epsilon) * gamma.reshape(bshape)
    elif trailing:
        y = F.layer_norm(x, wshape, gamma if use_gamma else None, beta if use_beta else None,
                         epsilon)
    else:
        mean = x.mean(dim=axes, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=axes, keepdim=True)
        y = (x - mean) / torch.sqrt(var + epsilon)
        if use_gamma:
            y = y * gamma.reshape(bshape)
        if use_beta:
            y = y + beta.reshape(bshape)
    weights = ([gamma] if use_gamma else []) + ([beta] if use_beta else [])
    finish(name, "layer_normalization", x, weights, weights, y, dtype=dtype, axis=axis,
           center=center, scale=scale, rms_scaling=rms_scaling, epsilon=epsilon)


ln_case("ln_last", (4, 6))
ln_case("ln_seq_last", (2, 3, 5))
ln_case("ln_two_trailing", (2, 3, 5), axis=[1, 2])
ln_case("ln_negative_list", (2, 3, 5), axis=[-1, -2])
ln_case("ln_channels_first", (2, 4, 3), axis=1)
ln_case("ln_channels_first_image", (2, 3, 2, 2), axis=1)
ln_case("ln_middle_and_last", (2, 3, 2, 4), axis=[1, 3])
ln_case("ln_no_center", (3, 5), center=False, epsilon=1e-5)
ln_case("ln_no_scale", (3, 5), scale=False)
ln_case("ln_plain", (3, 5), center=False, scale=False)
ln_case("ln_rms_scaling", (3, 6), rms_scaling=True)
ln_case("ln_float64", (3, 4), dtype=np.float64)


# ---- GroupNormalization ----------------------------------------------------------------------

def gn_case(name, shape, groups, axis=-1, center=True, scale=True, epsilon=1e-3,
            dtype=np.float32):
    x = t(f.randn(*shape) * 1.5 - 0.2)
    nd = len(shape)
    a = axis % nd
    c = shape[a]
    gamma, beta = t(f.uniform(0.5, 1.5, c)), t(f.randn(c) * 0.5)
    g = c if groups == -1 else groups
    y = F.group_norm(x.movedim(a, 1), g, gamma if scale else None, beta if center else None,
                     epsilon).movedim(1, a)
    weights = ([gamma] if scale else []) + ([beta] if center else [])
    finish(name, "group_normalization", x, weights, weights, y, dtype=dtype, groups=groups,
           axis=axis, center=center, scale=scale, epsilon=epsilon)


gn_case("gn_seq_channels_last", (2, 5, 6), groups=3)
gn_case("gn_image_channels_last", (2, 3, 2, 8), groups=4)
gn_case("gn_image_channels_first", (2, 6, 3, 2), groups=3, axis=1)
gn_case("gn_one_group", (2, 4, 6), groups=1)
gn_case("gn_instance", (2, 4, 3), groups=-1)
gn_case("gn_2d", (5, 8), groups=2, epsilon=1e-5)
gn_case("gn_no_affine", (2, 3, 4), groups=2, center=False, scale=False)
gn_case("gn_float64", (2, 3, 4), groups=2, dtype=np.float64)


# ---- RMSNormalization ------------------------------------------------------------------------

def rms_case(name, shape, axis=-1, epsilon=1e-6, dtype=np.float32):
    x = t(f.randn(*shape) * 1.2 + 0.3)
    nd = len(shape)
    given = sorted(axis) if isinstance(axis, list) else [axis]
    axes = [a % nd for a in given]
    scale = t(f.uniform(0.5, 1.5, *[shape[a] for a in axes]))
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    bshape = [shape[d] if d in axes else 1 for d in range(nd)]
    s = scale.permute(*order).reshape(bshape)
    y = x * torch.rsqrt((x * x).mean(dim=axes, keepdim=True) + epsilon) * s
    finish(name, "rms_normalization", x, [scale], [scale], y, dtype=dtype, axis=axis,
           epsilon=epsilon)


rms_case("rms_last", (4, 6))
rms_case("rms_seq", (2, 3, 5), epsilon=1e-3)
rms_case("rms_two_trailing", (2, 3, 4), axis=[1, 2])
rms_case("rms_channels_first", (2, 4, 3), axis=1)
rms_case("rms_channels_first_image", (2, 3, 2, 2), axis=1)
rms_case("rms_float64", (3, 5), dtype=np.float64)


# ---- UnitNormalization -----------------------------------------------------------------------

def unit_case(name, shape, axis=-1, dtype=np.float32):
    x = t(f.randn(*shape))
    nd = len(shape)
    axes = [a % nd for a in (axis if isinstance(axis, list) else [axis])]
    if len(axes) == 1:
        y = F.normalize(x, p=2.0, dim=axes[0], eps=1e-12)
    else:
        y = x / torch.clamp(torch.sqrt((x * x).sum(dim=axes, keepdim=True)), min=1e-12)
    finish(name, "unit_normalization", x, [], [], y, dtype=dtype, axis=axis)


unit_case("unit_last", (4, 5))
unit_case("unit_channels_first", (2, 3, 4), axis=1)
unit_case("unit_two_axes", (2, 3, 4), axis=[1, 2])
unit_case("unit_image_channels_last", (2, 2, 3, 4))
unit_case("unit_float64", (3, 4), dtype=np.float64)

f.save()

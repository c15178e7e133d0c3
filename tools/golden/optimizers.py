"""Optimizers and learning-rate schedules (tests/optimizers/): every built-in optimizer and
each notable option, several steps on two small variables (shapes (3, 4) and (4,)) with given
gradient sequences; the expected variables after each step.

The reference is a NumPy (float64) transcription of Keras 3's formulas written below
(keras/src/optimizers/*.py and base_optimizer.py: clipping, weight decay `var -= var * wd * lr`
before the update, loss-scale unscaling, gradient accumulation, EMA). Where PyTorch's rule is
the same as Keras's, torch.optim computes the case too, the script asserts that both agree, and
the fixture stores PyTorch's result (kwargs "reference": "torch"):
  - SGD (plain, momentum, nesterov): torch.optim.SGD (Keras keeps m = -lr * torch's buffer).
  - Adadelta: torch.optim.Adadelta (same epsilon placement, sqrt(x + eps)).
  - Adam, Adam amsgrad, AdamW, Adamax, Adagrad, RMSprop (plain, momentum, centered) with
    epsilon = 0: PyTorch puts epsilon outside the square root / after the bias correction,
    Keras inside / before, so the rules agree exactly only without epsilon. The cases with
    Keras's default epsilon use the NumPy formula.
  - Nadam: NumPy. torch.optim.NAdam with momentum_decay=1 would be Keras's momentum schedule
    (mu_t = b1 (1 - 0.5 * 0.96^t)), but PyTorch 1.13 multiplies mu_t twice into the product
    for the next step (fixed in later PyTorch), so it is not Keras's rule.
  - Adafactor, Ftrl, Lamb, Lion and every case with Keras-only options (clipping, Keras's weight
    decay on non-AdamW optimizers, schedules, EMA, accumulation, loss scaling): NumPy only.
Schedules: values at several steps against NumPy transcriptions of learning_rate_schedule.py.
"""

import json
import math

import numpy as np
import torch

from fixture import Fixture

f = Fixture("optimizers", seed=11)
SHAPES = [(3, 4), (4,)]
RTOL, ATOL = 2e-5, 2e-6


# ---- schedules ------------------------------------------------------------------------------

def schedule_fn(record):
    name, c = record["class_name"], record["config"]
    if name == "ExponentialDecay":
        def fn(step):
            p = step / c["decay_steps"]
            if c.get("staircase"):
                p = math.floor(p)
            return c["initial_learning_rate"] * c["decay_rate"] ** p
    elif name == "InverseTimeDecay":
        def fn(step):
            p = step / c["decay_steps"]
            if c.get("staircase"):
                p = math.floor(p)
            return c["initial_learning_rate"] / (1 + c["decay_rate"] * p)
    elif name == "PiecewiseConstantDecay":
        def fn(step):
            b, v = c["boundaries"], c["values"]
            for i, x in enumerate(b):
                if step <= x:
                    return v[i]
            return v[-1]
    elif name == "PolynomialDecay":
        def fn(step):
            d = c["decay_steps"]
            if c.get("cycle"):
                d = d * (1.0 if step == 0 else math.ceil(step / d))
            else:
                step = min(step, d)
            p = step / d
            return (c["initial_learning_rate"] - c["end_learning_rate"]) * (1 - p) ** c["power"] + c["end_learning_rate"]
    elif name == "CosineDecay":
        def decay(step, from_lr):
            cosine = 0.5 * (1 + math.cos(math.pi * step / c["decay_steps"]))
            return from_lr * ((1 - c["alpha"]) * cosine + c["alpha"])
        def fn(step):
            init = c["initial_learning_rate"]
            if c.get("warmup_target") is None:
                return decay(min(step, c["decay_steps"]), init)
            ws = c["warmup_steps"]
            step = min(step, c["decay_steps"] + ws)
            if step < ws:
                return (c["warmup_target"] - init) * step / ws + init
            return decay(step - ws, c["warmup_target"])
    elif name == "CosineDecayRestarts":
        def fn(step):
            t_mul, m_mul, alpha = c["t_mul"], c["m_mul"], c["alpha"]
            frac = step / c["first_decay_steps"]
            if t_mul == 1.0:
                i = math.floor(frac)
                frac -= i
            else:
                i = math.floor(math.log(1 - frac * (1 - t_mul)) / math.log(t_mul))
                sum_r = (1 - t_mul ** i) / (1 - t_mul)
                frac = (frac - sum_r) / t_mul ** i
            cosine = 0.5 * m_mul ** i * (1 + math.cos(math.pi * frac))
            return c["initial_learning_rate"] * ((1 - alpha) * cosine + alpha)
    else:
        raise ValueError(name)
    return fn


def sched(class_name, **config):
    return {"module": "keras.optimizers.schedules", "class_name": class_name, "config": config,
            "registered_name": None}


SCHEDULES = {
    "exponential": sched("ExponentialDecay", initial_learning_rate=0.1, decay_steps=4,
                         decay_rate=0.5, staircase=False, name="ExponentialDecay"),
    "exponential_staircase": sched("ExponentialDecay", initial_learning_rate=0.1, decay_steps=3,
                                   decay_rate=0.7, staircase=True, name="ExponentialDecay"),
    "inverse_time": sched("InverseTimeDecay", initial_learning_rate=0.2, decay_steps=2,
                          decay_rate=0.5, staircase=False, name="InverseTimeDecay"),
    "inverse_time_staircase": sched("InverseTimeDecay", initial_learning_rate=0.2, decay_steps=3,
                                    decay_rate=1.5, staircase=True, name="InverseTimeDecay"),
    "piecewise": sched("PiecewiseConstantDecay", boundaries=[2, 5, 9], values=[1.0, 0.5, 0.1, 0.01],
                       name="PiecewiseConstant"),
    "polynomial": sched("PolynomialDecay", initial_learning_rate=0.1, decay_steps=10,
                        end_learning_rate=0.001, power=2.0, cycle=False, name="PolynomialDecay"),
    "polynomial_cycle": sched("PolynomialDecay", initial_learning_rate=0.1, decay_steps=4,
                              end_learning_rate=0.01, power=0.5, cycle=True, name="PolynomialDecay"),
    "cosine": sched("CosineDecay", initial_learning_rate=0.1, decay_steps=10, alpha=0.1,
                    name="CosineDecay", warmup_target=None, warmup_steps=0),
    "cosine_warmup": sched("CosineDecay", initial_learning_rate=0.0, decay_steps=8, alpha=0.0,
                           name="CosineDecay", warmup_target=0.2, warmup_steps=4),
    "cosine_restarts": sched("CosineDecayRestarts", initial_learning_rate=0.1,
                             first_decay_steps=3, t_mul=2.0, m_mul=0.8, alpha=0.05,
                             name="SGDRDecay"),
    "cosine_restarts_tmul1": sched("CosineDecayRestarts", initial_learning_rate=0.1,
                                   first_decay_steps=4, t_mul=1.0, m_mul=0.5, alpha=0.0,
                                   name="SGDRDecay"),
}

steps = np.array([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 13, 20, 31], dtype=np.int64)
for key, record in SCHEDULES.items():
    fn = schedule_fn(record)
    values = np.array([fn(int(s)) for s in steps], dtype=np.float32)
    f.case("schedule_" + key, "schedule", [steps], [values], schedule=record, rtol=1e-5, atol=1e-7)


# ---- the Keras optimizer pipeline in NumPy --------------------------------------------------

DEFAULTS = {
    "SGD": dict(learning_rate=0.01, momentum=0.0, nesterov=False),
    "Adam": dict(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False),
    "AdamW": dict(learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                  amsgrad=False),
    "Adamax": dict(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
    "Nadam": dict(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
    "RMSprop": dict(learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False),
    "Adagrad": dict(learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7),
    "Adadelta": dict(learning_rate=0.001, rho=0.95, epsilon=1e-7),
    "Adafactor": dict(learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                      clip_threshold=1.0, relative_step=True),
    "Ftrl": dict(learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0),
    "Lamb": dict(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
    "Lion": dict(learning_rate=0.001, beta_1=0.9, beta_2=0.99),
}
COMMON = dict(weight_decay=None, clipnorm=None, global_clipnorm=None, clipvalue=None, use_ema=False,
              ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
              gradient_accumulation_steps=None)


def full_config(cls, kw):
    c = dict(COMMON)
    c.update(DEFAULTS[cls])
    c.update(kw)
    return c


def rms(x):
    return np.sqrt(np.mean(np.square(x)))


class Rule:
    """One optimizer's slots and update_step (Keras's formulas)."""

    def __init__(self, cls, c, variables):
        self.cls, self.c = cls, c
        self.s = [self.init_slots(v) for v in variables]
        self.u_product = 1.0

    def init_slots(self, v):
        z = np.zeros_like(v)
        cls, c = self.cls, self.c
        if cls == "SGD":
            return {"m": z.copy()}
        if cls in ("Adam", "AdamW", "Lamb", "Nadam"):
            return {"m": z.copy(), "v": z.copy(), "vh": z.copy()}
        if cls == "Adamax":
            return {"m": z.copy(), "u": z.copy()}
        if cls == "RMSprop":
            return {"vel": z.copy(), "mom": z.copy(), "avg": z.copy()}
        if cls == "Adagrad":
            return {"acc": z + c["initial_accumulator_value"]}
        if cls == "Adadelta":
            return {"ag": z.copy(), "ad": z.copy()}
        if cls == "Adafactor":
            if v.ndim >= 2:
                return {"r": np.zeros(v.shape[:-1]), "c": np.zeros(v.shape[:-2] + v.shape[-1:]), "v": z.copy()}
            return {"v": z.copy()}
        if cls == "Ftrl":
            return {"acc": z + c["initial_accumulator_value"], "lin": z.copy()}
        if cls == "Lion":
            return {"m": z.copy()}
        raise ValueError(cls)

    def before_all(self, t):
        if self.cls == "Nadam":
            self.u_product *= self.c["beta_1"] * (1 - 0.5 * 0.96 ** t)

    def update(self, i, g, var, lr, t, has_schedule):
        c, s, cls = self.c, self.s[i], self.cls
        if cls == "SGD":
            mu = c["momentum"]
            if mu != 0:
                s["m"] = s["m"] * mu - g * lr
                return var + (s["m"] * mu - g * lr if c["nesterov"] else s["m"])
            return var - g * lr
        if cls in ("Adam", "AdamW"):
            b1, b2 = c["beta_1"], c["beta_2"]
            alpha = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
            s["m"] += (g - s["m"]) * (1 - b1)
            s["v"] += (g * g - s["v"]) * (1 - b2)
            v = s["v"]
            if c["amsgrad"]:
                s["vh"] = np.maximum(s["vh"], s["v"])
                v = s["vh"]
            return var - s["m"] * alpha / (np.sqrt(v) + c["epsilon"])
        if cls == "Adamax":
            b1, b2 = c["beta_1"], c["beta_2"]
            s["m"] += (g - s["m"]) * (1 - b1)
            s["u"] = np.maximum(b2 * s["u"], np.abs(g))
            return var - lr * s["m"] / ((1 - b1 ** t) * (s["u"] + c["epsilon"]))
        if cls == "Nadam":
            b1, b2 = c["beta_1"], c["beta_2"]
            u_t = b1 * (1 - 0.5 * 0.96 ** t)
            u_t1 = b1 * (1 - 0.5 * 0.96 ** (t + 1))
            up_t = self.u_product
            up_t1 = up_t * u_t1
            s["m"] += (g - s["m"]) * (1 - b1)
            s["v"] += (g * g - s["v"]) * (1 - b2)
            m_hat = u_t1 * s["m"] / (1 - up_t1) + (1 - u_t) * g / (1 - up_t)
            v_hat = s["v"] / (1 - b2 ** t)
            return var - m_hat * lr / (np.sqrt(v_hat) + c["epsilon"])
        if cls == "RMSprop":
            rho = c["rho"]
            s["vel"] = rho * s["vel"] + (1 - rho) * g * g
            if c["centered"]:
                s["avg"] = rho * s["avg"] + (1 - rho) * g
                den = s["vel"] - s["avg"] ** 2 + c["epsilon"]
            else:
                den = s["vel"] + c["epsilon"]
            inc = lr * g / np.sqrt(den)
            if c["momentum"] > 0:
                s["mom"] = c["momentum"] * s["mom"] + inc
                return var - s["mom"]
            return var - inc
        if cls == "Adagrad":
            s["acc"] += g * g
            return var - lr * g / np.sqrt(s["acc"] + c["epsilon"])
        if cls == "Adadelta":
            rho, eps = c["rho"], c["epsilon"]
            s["ag"] = rho * s["ag"] + (1 - rho) * g * g
            delta = -np.sqrt(s["ad"] + eps) * g / np.sqrt(s["ag"] + eps)
            s["ad"] = rho * s["ad"] + (1 - rho) * delta * delta
            return var + lr * delta
        if cls == "Adafactor":
            if not has_schedule and c["relative_step"]:
                lr = min(lr, 1 / math.sqrt(t))
            rho_t = min(lr, 1 / math.sqrt(t))
            alpha_t = max(c["epsilon_2"], rms(var)) * rho_t
            reg = g * g + c["epsilon_1"]
            beta = 1 - t ** c["beta_2_decay"]
            if var.ndim >= 2:
                s["r"] = beta * s["r"] + (1 - beta) * reg.mean(-1)
                s["c"] = beta * s["c"] + (1 - beta) * reg.mean(-2)
                s["v"] = (s["r"] / s["r"].mean(-1, keepdims=True))[..., None] * s["c"][..., None, :]
            else:
                s["v"] = beta * s["v"] + (1 - beta) * reg
            u = g / np.sqrt(s["v"])
            u_hat = u / max(1.0, rms(u) / c["clip_threshold"])
            return var - alpha_t * u_hat
        if cls == "Ftrl":
            p = c["learning_rate_power"]
            l2 = c["l2_regularization_strength"] + c["beta"] / (2 * lr)
            g2 = g + 2 * c["l2_shrinkage_regularization_strength"] * var
            new_acc = s["acc"] + g * g
            s["lin"] += g2 - (new_acc ** -p - s["acc"] ** -p) / lr * var
            quad = new_acc ** -p / lr + 2 * l2
            l1 = c["l1_regularization_strength"]
            out = (np.clip(s["lin"], -l1, l1) - s["lin"]) / quad
            s["acc"] = new_acc
            return out
        if cls == "Lamb":
            b1, b2 = c["beta_1"], c["beta_2"]
            s["m"] += (g - s["m"]) * (1 - b1)
            s["v"] += (g * g - s["v"]) * (1 - b2)
            upd = (s["m"] / (1 - b1 ** t)) / (np.sqrt(s["v"] / (1 - b2 ** t)) + c["epsilon"])
            w_norm, g_norm = np.linalg.norm(var), np.linalg.norm(upd)
            ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else 1.0
            return var - ratio * lr * upd
        if cls == "Lion":
            b1, b2 = c["beta_1"], c["beta_2"]
            out = var - lr * np.sign(s["m"] * b1 + g * (1 - b1))
            s["m"] = s["m"] * b2 + g * (1 - b2)
            return out
        raise ValueError(cls)


def keras_numpy(cls, c, variables, grad_seq):
    """Runs Keras's apply() len(grad_seq) times; returns the variables after each step and the
    EMA averages at the end."""
    variables = [v.astype(np.float64) for v in variables]
    rule = Rule(cls, c, variables)
    lr_record = c["learning_rate"]
    lr_of = schedule_fn(lr_record) if isinstance(lr_record, dict) else (lambda it: lr_record)
    n = c["gradient_accumulation_steps"]
    acc = [np.zeros_like(v) for v in variables]
    avg = [np.zeros_like(v) for v in variables]
    history = [[] for _ in variables]
    for it, grads in enumerate(grad_seq):
        grads = [g.astype(np.float64) for g in grads]
        if c["loss_scale_factor"]:
            grads = [g / c["loss_scale_factor"] for g in grads]
        lr = lr_of(it)
        step_count = it // n if n else it

        def update(grads):
            if c["clipnorm"]:
                grads = [g * c["clipnorm"] / max(np.linalg.norm(g), c["clipnorm"]) for g in grads]
            elif c["global_clipnorm"]:
                norm = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
                scale = c["global_clipnorm"] * min(1 / norm, 1 / c["global_clipnorm"])
                grads = [g * scale for g in grads]
            elif c["clipvalue"]:
                grads = [np.clip(g, -c["clipvalue"], c["clipvalue"]) for g in grads]
            if c["weight_decay"] is not None:
                for i in range(len(variables)):
                    variables[i] = variables[i] - variables[i] * c["weight_decay"] * lr
            t = step_count + 1
            rule.before_all(t)
            for i, g in enumerate(grads):
                variables[i] = rule.update(i, g, variables[i], lr, t, isinstance(lr_record, dict))

        if n:
            if (it + 1) % n == 0:
                update([(g + a) / n for g, a in zip(grads, acc)])
                acc = [np.zeros_like(a) for a in acc]
            else:
                acc = [a + g for a, g in zip(acc, grads)]
        else:
            update(grads)
        if c["use_ema"]:
            mom = c["ema_momentum"] if step_count != 0 else 0.0
            avg = [mom * a + (1 - mom) * v for a, v in zip(avg, variables)]
            freq = c["ema_overwrite_frequency"]
            if freq and (step_count + 1) % freq == 0:
                variables = [a.copy() for a in avg]
        for i, v in enumerate(variables):
            history[i].append(v.copy())
    return [np.stack(h) for h in history], avg


def torch_run(cls, c, variables, grad_seq):
    params = [torch.tensor(v.astype(np.float64), requires_grad=True) for v in variables]
    lr = c["learning_rate"]
    if cls == "SGD":
        opt = torch.optim.SGD(params, lr=lr, momentum=c["momentum"], nesterov=c["nesterov"])
    elif cls == "Adam":
        opt = torch.optim.Adam(params, lr=lr, betas=(c["beta_1"], c["beta_2"]), eps=c["epsilon"],
                               amsgrad=c["amsgrad"])
    elif cls == "AdamW":
        opt = torch.optim.AdamW(params, lr=lr, betas=(c["beta_1"], c["beta_2"]), eps=c["epsilon"],
                                amsgrad=c["amsgrad"], weight_decay=c["weight_decay"])
    elif cls == "Adamax":
        opt = torch.optim.Adamax(params, lr=lr, betas=(c["beta_1"], c["beta_2"]), eps=c["epsilon"])
    elif cls == "Nadam":
        opt = torch.optim.NAdam(params, lr=lr, betas=(c["beta_1"], c["beta_2"]), eps=c["epsilon"],
                                momentum_decay=1.0)
    elif cls == "RMSprop":
        opt = torch.optim.RMSprop(params, lr=lr, alpha=c["rho"], eps=c["epsilon"],
                                  momentum=c["momentum"], centered=c["centered"])
    elif cls == "Adagrad":
        opt = torch.optim.Adagrad(params, lr=lr, eps=c["epsilon"],
                                  initial_accumulator_value=c["initial_accumulator_value"])
    elif cls == "Adadelta":
        opt = torch.optim.Adadelta(params, lr=lr, rho=c["rho"], eps=c["epsilon"])
    else:
        raise ValueError(cls)
    history = [[] for _ in params]
    for grads in grad_seq:
        for p, g in zip(params, grads):
            p.grad = torch.tensor(g.astype(np.float64))
        opt.step()
        for i, p in enumerate(params):
            history[i].append(p.detach().numpy().copy())
    return [np.stack(h) for h in history]


def opt_case(name, cls, steps=5, torch_ref=False, finalize=False, grad_scale=1.0, zero_step=None,
             **kw):
    c = full_config(cls, kw)
    c["name"] = name
    variables = [f.randn(*s) for s in SHAPES]
    grad_seq = [[f.randn(*s) * grad_scale for s in SHAPES] for _ in range(steps)]
    if zero_step is not None:  # one variable gets an all-zero gradient at this step
        grad_seq[zero_step][1] = np.zeros(SHAPES[1], np.float32)
    history, avg = keras_numpy(cls, c, variables, grad_seq)
    reference = "numpy"
    if torch_ref:
        th = torch_run(cls, c, variables, grad_seq)
        for a, b in zip(history, th):
            assert np.allclose(a, b, rtol=1e-10, atol=1e-12), (name, np.abs(a - b).max())
        history = th
        reference = "torch"
    grads = [np.stack([gs[i] for gs in grad_seq]).astype(np.float32) for i in range(len(SHAPES))]
    outs = [h.astype(np.float32) for h in history]
    if finalize:
        outs += [a.astype(np.float32) for a in avg]
    record = {"module": "keras.optimizers", "class_name": cls, "config": c, "registered_name": None}
    f.case(name, "optimizer", variables + grads, outs, optimizer=record, finalize=finalize,
           reference=reference, rtol=RTOL, atol=ATOL)


# SGD
opt_case("sgd", "SGD", torch_ref=True, learning_rate=0.1)
opt_case("sgd_momentum", "SGD", torch_ref=True, learning_rate=0.05, momentum=0.9)
opt_case("sgd_nesterov", "SGD", torch_ref=True, learning_rate=0.05, momentum=0.8, nesterov=True)
opt_case("sgd_weight_decay", "SGD", learning_rate=0.1, momentum=0.5, weight_decay=0.1)
opt_case("sgd_clipnorm", "SGD", learning_rate=0.1, clipnorm=0.5)
opt_case("sgd_clipnorm_zero_gradient", "SGD", learning_rate=0.1, momentum=0.5, clipnorm=0.5,
         zero_step=1)
opt_case("sgd_clipvalue", "SGD", learning_rate=0.1, clipvalue=0.3)
opt_case("sgd_global_clipnorm", "SGD", learning_rate=0.1, global_clipnorm=1.0)
opt_case("sgd_loss_scale", "SGD", learning_rate=0.1, momentum=0.9, loss_scale_factor=128.0,
         grad_scale=128.0)
opt_case("sgd_schedule", "SGD", learning_rate=SCHEDULES["exponential"], momentum=0.9)
opt_case("sgd_accumulation", "SGD", steps=7, learning_rate=0.1, momentum=0.9,
         gradient_accumulation_steps=3)
opt_case("sgd_ema", "SGD", steps=6, finalize=True, learning_rate=0.1, use_ema=True,
         ema_momentum=0.9)
opt_case("sgd_ema_overwrite", "SGD", steps=6, finalize=True, learning_rate=0.1, use_ema=True,
         ema_momentum=0.8, ema_overwrite_frequency=2)
# Adam family
opt_case("adam", "Adam", learning_rate=0.01)
opt_case("adam_torch", "Adam", torch_ref=True, learning_rate=0.01, epsilon=0.0)
opt_case("adam_amsgrad", "Adam", learning_rate=0.01, amsgrad=True)
opt_case("adam_amsgrad_torch", "Adam", torch_ref=True, learning_rate=0.01, amsgrad=True, epsilon=0.0)
opt_case("adam_weight_decay", "Adam", learning_rate=0.01, weight_decay=0.05)
opt_case("adam_clipnorm", "Adam", learning_rate=0.01, clipnorm=0.5, beta_1=0.8, beta_2=0.95)
opt_case("adam_global_clipnorm", "Adam", learning_rate=0.01, global_clipnorm=0.7)
opt_case("adam_clipvalue", "Adam", learning_rate=0.01, clipvalue=0.5)
opt_case("adam_schedule_cosine", "Adam", learning_rate=SCHEDULES["cosine_warmup"])
opt_case("adam_schedule_piecewise", "Adam", steps=7,
         learning_rate=sched("PiecewiseConstantDecay", boundaries=[1, 3, 4],
                             values=[0.1, 0.05, 0.01, 0.001], name="PiecewiseConstant"))
opt_case("adam_accumulation", "Adam", steps=6, learning_rate=0.01, gradient_accumulation_steps=2)
opt_case("adamw_accumulation_schedule", "AdamW", steps=8, weight_decay=0.1,
         learning_rate=SCHEDULES["exponential"], gradient_accumulation_steps=3)
opt_case("adam_ema", "Adam", steps=5, finalize=True, learning_rate=0.01, use_ema=True)
opt_case("adam_accumulation_ema", "Adam", steps=6, finalize=True, learning_rate=0.01,
         gradient_accumulation_steps=2, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=2)
opt_case("adamw", "AdamW", learning_rate=0.01)
opt_case("adamw_torch", "AdamW", torch_ref=True, learning_rate=0.01, weight_decay=0.1, epsilon=0.0)
opt_case("adamw_amsgrad_torch", "AdamW", torch_ref=True, learning_rate=0.01, weight_decay=0.1,
         epsilon=0.0, amsgrad=True)
opt_case("adamw_schedule", "AdamW", learning_rate=SCHEDULES["polynomial"], weight_decay=0.5)
opt_case("adamax", "Adamax", learning_rate=0.01)
opt_case("adamax_torch", "Adamax", torch_ref=True, learning_rate=0.01, epsilon=0.0)
opt_case("nadam", "Nadam", learning_rate=0.01)
opt_case("nadam_betas", "Nadam", learning_rate=0.02, beta_1=0.8, beta_2=0.9)
opt_case("nadam_accumulation", "Nadam", steps=6, learning_rate=0.01, gradient_accumulation_steps=2)
# RMSprop
opt_case("rmsprop", "RMSprop", learning_rate=0.01)
opt_case("rmsprop_torch", "RMSprop", torch_ref=True, learning_rate=0.01, epsilon=0.0)
opt_case("rmsprop_momentum", "RMSprop", learning_rate=0.01, momentum=0.9)
opt_case("rmsprop_momentum_torch", "RMSprop", torch_ref=True, learning_rate=0.01, momentum=0.9,
         epsilon=0.0)
opt_case("rmsprop_centered", "RMSprop", learning_rate=0.01, centered=True)
opt_case("rmsprop_centered_momentum_torch", "RMSprop", torch_ref=True, learning_rate=0.01,
         centered=True, momentum=0.5, epsilon=0.0)
# Adagrad, Adadelta
opt_case("adagrad", "Adagrad", learning_rate=0.1)
opt_case("adagrad_torch", "Adagrad", torch_ref=True, learning_rate=0.1, epsilon=0.0,
         initial_accumulator_value=0.5)
opt_case("adagrad_weight_decay", "Adagrad", learning_rate=0.1, weight_decay=0.2)
opt_case("adadelta", "Adadelta", torch_ref=True, learning_rate=1.0)
opt_case("adadelta_rho", "Adadelta", torch_ref=True, learning_rate=0.5, rho=0.8, epsilon=1e-4)
# Adafactor
opt_case("adafactor", "Adafactor", learning_rate=0.01)
opt_case("adafactor_no_relative_step", "Adafactor", learning_rate=0.5, relative_step=False,
         clip_threshold=0.5)
opt_case("adafactor_schedule", "Adafactor", learning_rate=SCHEDULES["inverse_time"])
# Ftrl
opt_case("ftrl", "Ftrl", learning_rate=0.1)
opt_case("ftrl_regularized", "Ftrl", learning_rate=0.1, l1_regularization_strength=0.01,
         l2_regularization_strength=0.1, l2_shrinkage_regularization_strength=0.05, beta=0.2,
         learning_rate_power=-0.7, initial_accumulator_value=0.3)
# Lamb, Lion
opt_case("lamb", "Lamb", learning_rate=0.01)
opt_case("lamb_zero_gradient", "Lamb", learning_rate=0.01, zero_step=0)
opt_case("lamb_weight_decay", "Lamb", learning_rate=0.01, weight_decay=0.1, global_clipnorm=1.0)
opt_case("lion", "Lion", learning_rate=0.01)
opt_case("lion_betas", "Lion", learning_rate=0.01, beta_1=0.5, beta_2=0.9, weight_decay=0.1)
opt_case("lion_clipnorm", "Lion", learning_rate=0.01, clipnorm=0.5)

f.save()

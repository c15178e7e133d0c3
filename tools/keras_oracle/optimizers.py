"""Optimizers and learning-rate schedules against real Keras: the cases of
tests/golden/optimizers.npz replayed through keras.optimizers / keras.optimizers.schedules built
from the same serialized record, plus a grid the golden lacks, written to
tests/oracle/fixtures/optimizers.npz under the same names.

"optimizer" cases: inputs are the initial variables (shapes (3, 4) and (4,), float32) then each
variable's gradients stacked over the steps; optimizer.apply(grads, variables) runs once per
step and the outputs are each variable's values after every step (stacked), then, with
"finalize", the values after finalize_variable_values (the EMA averages). kwargs "optimizer" is
the keras.optimizers.serialize record, "reference" is now "keras".
"schedule" cases: the schedule's value at each step of the int64 input.

New cases ("grid_<optimizer>_<option>"): every one of the 12 optimizers under each of
weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema (with finalize),
gradient_accumulation_steps (2, over 6 steps) and plain, 4 steps otherwise; and every schedule
class at further steps.

Tolerance: the golden's 2e-5 relative / 2e-6 absolute (float32 steps; keras-cpp may reduce
norms in another order).

Run: ./scripts/oracle.sh optimizers
"""

import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up the JAX backend before keras)

import keras  # noqa: E402
import numpy as np  # noqa: E402

RTOL, ATOL = 2e-5, 2e-6
SHAPES = [(3, 4), (4,)]


def run_optimizer(record, variables, grads, finalize, make_variables=None):
    """Keras's apply() once per step; each variable's history, then the finalized values.
    `make_variables(values)` makes the keras.Variables (default: named v0, v1, ...)."""
    # from_config of the class: keras.optimizers.deserialize cannot read "Lamb" (missing from
    # its ALL_OBJECTS in 3.15) and edits the record it is given.
    cls = getattr(keras.optimizers, record["class_name"])
    optimizer = cls.from_config(copy.deepcopy(record["config"]))
    if make_variables is None:
        kvars = [keras.Variable(v, name=f"v{i}") for i, v in enumerate(variables)]
    else:
        kvars = make_variables(variables)
    steps = grads[0].shape[0]
    history = [[] for _ in kvars]
    for s in range(steps):
        optimizer.apply([g[s] for g in grads], kvars)
        for i, v in enumerate(kvars):
            history[i].append(np.asarray(v.value))
    outs = [np.stack(h).astype(np.float32) for h in history]
    if finalize:
        optimizer.finalize_variable_values(kvars)
        outs += [np.asarray(v.value, np.float32) for v in kvars]
    return outs


def run_schedule(record, steps):
    schedule = keras.optimizers.schedules.deserialize(copy.deepcopy(record))
    return np.array([np.asarray(schedule(int(s))) for s in steps], np.float32)


def keras_outputs(op, kw, ins):
    if op == "schedule":
        return [run_schedule(kw["schedule"], ins[0])]
    n = len(ins) // 2
    return run_optimizer(kw["optimizer"], ins[:n], ins[n:], kw.get("finalize", False))


def rel_diff(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b) / (np.abs(b) + 1e-3), initial=0.0))


OPTIONS = {
    "plain": {},
    "weight_decay": {"weight_decay": 0.05},
    "clipnorm": {"clipnorm": 0.5},
    "clipvalue": {"clipvalue": 0.2},
    "global_clipnorm": {"global_clipnorm": 0.8},
    "use_ema": {"use_ema": True, "ema_momentum": 0.7},
    "accumulation": {"gradient_accumulation_steps": 2},
}
OPTIMIZERS = {
    "SGD": {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True},
    "Adam": {"learning_rate": 0.01, "amsgrad": True},
    "AdamW": {"learning_rate": 0.01},
    "Adamax": {"learning_rate": 0.01},
    "Nadam": {"learning_rate": 0.01},
    "RMSprop": {"learning_rate": 0.01, "momentum": 0.5, "centered": True},
    "Adagrad": {"learning_rate": 0.1},
    "Adadelta": {"learning_rate": 0.5},
    "Adafactor": {"learning_rate": 0.05},
    "Ftrl": {"learning_rate": 0.1, "l1_regularization_strength": 0.01,
             "l2_regularization_strength": 0.01},
    "Lamb": {"learning_rate": 0.01},
    "Lion": {"learning_rate": 0.01},
}


def grid(f):
    n = 0
    for cls, base in OPTIMIZERS.items():
        for option, extra in OPTIONS.items():
            if cls == "AdamW" and option == "weight_decay":
                extra = {"weight_decay": 0.2}  # AdamW always decays: a non-default value
            steps = 6 if option == "accumulation" else 4
            config = dict(base, **extra, name=f"{cls.lower()}_{option}")
            optimizer = getattr(keras.optimizers, cls)(**config)
            record = keras.optimizers.serialize(optimizer)
            variables = [f.randn(*s) for s in SHAPES]
            grads = [np.stack([f.randn(*s) for _ in range(steps)]) for s in SHAPES]
            finalize = option == "use_ema"
            outs = run_optimizer(record, variables, grads, finalize)
            f.case(f"grid_{cls.lower()}_{option}", "optimizer", variables + grads, outs,
                   optimizer=record, finalize=finalize, reference="keras", rtol=RTOL, atol=ATOL)
            n += 1
    return n


def sched(class_name, **config):
    return keras.optimizers.schedules.serialize(
        getattr(keras.optimizers.schedules, class_name)(**config))


def more_schedules(f):
    steps = np.array([0, 1, 2, 5, 8, 12, 17, 25, 40, 64, 100, 1000], np.int64)
    records = {
        "exponential_long": sched("ExponentialDecay", initial_learning_rate=0.05, decay_steps=7,
                                  decay_rate=0.9),
        "piecewise_float_boundaries": sched("PiecewiseConstantDecay", boundaries=[5, 20, 50],
                                            values=[0.3, 0.2, 0.1, 0.05]),
        "polynomial_linear": sched("PolynomialDecay", initial_learning_rate=0.2, decay_steps=30),
        "polynomial_cycle_long": sched("PolynomialDecay", initial_learning_rate=0.2,
                                       decay_steps=9, end_learning_rate=0.02, power=1.5,
                                       cycle=True),
        "inverse_time_long": sched("InverseTimeDecay", initial_learning_rate=0.5, decay_steps=4,
                                   decay_rate=0.25),
        "cosine_long": sched("CosineDecay", initial_learning_rate=0.2, decay_steps=50, alpha=0.0),
        "cosine_warmup_long": sched("CosineDecay", initial_learning_rate=0.01, decay_steps=40,
                                    alpha=0.05, warmup_target=0.1, warmup_steps=10),
        "cosine_restarts_long": sched("CosineDecayRestarts", initial_learning_rate=0.1,
                                      first_decay_steps=5, t_mul=1.5, m_mul=0.9, alpha=0.01),
    }
    for key, record in records.items():
        f.case("schedule_" + key, "schedule", [steps], [run_schedule(record, steps)],
               schedule=record, rtol=1e-5, atol=1e-7)
    return len(records)


def main():
    f = oracle.Fixture("optimizers", seed=13)
    golden = oracle.load_cases(os.path.join(oracle.GOLDEN_DIR, "optimizers.npz"))
    worst, worst_case = 0.0, ""
    for name, (op, kw, ins, outs) in sorted(golden.items()):
        got = keras_outputs(op, kw, ins)
        for a, b in zip(got, outs):
            d = rel_diff(a, b)
            if d > worst:
                worst, worst_case = d, name
        if op == "optimizer":
            kw = dict(kw, reference="keras")
        f.case(name, op, ins, got, **kw)
    n = grid(f) + more_schedules(f)
    print(f"optimizers: {len(golden)} golden cases replayed (largest relative gap to the "
          f"NumPy/torch golden {worst:.2e} in {worst_case}), {n} new")
    f.save()


if __name__ == "__main__":
    main()

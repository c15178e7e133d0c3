"""GPTQ and AWQ quantization by Keras 3.15, for the C++ GPTQ/AWQ tests.

A seeded LLM-like toy model (tokens (L,) int32 -> Embedding(V, D) -> two Sequential blocks
[Dense(H, gelu), Dense(D)] -> Dense(V) "head", V=50, L=12, D=24, H=40) is saved once
(tests/oracle/fixtures/gptq_awq/lm_float.keras), reloaded fresh for each setting, quantized by
model.quantize("gptq"|"awq", config) with structure {"pre_block_layers": [embedding],
"sequential_blocks": [block_0, block_1]} and a 600-token int32 calibration array (num_samples 16,
sequence_length L), then saved (gptq_awq/<setting>.keras). The head is outside every block:
Keras quantize()s it to the gptq/awq policy but never calibrates it.

gptq_awq.npz holds:
  float.x                       (3, L) int32   test tokens
  float.y                       (3, L, V)      float model predict
  calib.dataset                 (600,) int32   the calibration tokens given to the config
  <setting>.windows             (16, 1, L) int32  get_dataloader's windows, in the order Keras
                                               feeds them (same process, PYTHONHASHSEED=0)
  <setting>.y                   (3, L, V)      quantized model (in memory) predict on float.x
  <setting>.y_reloaded          predict of <setting>.keras loaded back -- absent: Keras 3.15.1
                                cannot load these files (json settings.<s>.reload_error)
  <setting>.var.<path>          every variable of model.variables, by variable.path; where two
                                variables share a path (the uncalibrated head: its float
                                `_kernel` and its `quantized_kernel` are both named "kernel")
                                the key is <setting>.var.<path>[<attribute>] for each of them
  <setting>.saved.<h5 path>     every dataset of the .keras file's model.weights.h5 (what Keras
                                actually wrote, e.g. layers/dense_2/vars/0 ...)
  <setting>.hooked.y, <setting>.hooked.var.<path>
                                the same setting with the calibration hooks alive (hooked on
                                quantized_call): NOT Keras 3.15.1's result, whose hooks never
                                fire (see hooked_stream); what calibration on the data gives
  einsum.float.y, einsum.<setting>.*   the same keys for a second model of EinsumDense blocks
                                (einsum_model: QKV-style 3-D kernel + Reshape + 2-D; up/down;
                                QKV + attention-output 3-D kernel; EinsumDense head), settings
                                g4_g16 and a_g8; files gptq_awq/einsum_*.keras; json "einsum"
  cqp.<n>.x / .scale / .zero / .maxq      compute_quantization_parameters(x, bits=, symmetric=,
                                per_channel=True, group_size=) -- parameters in json "cqp"
  gqm.<n>.w / .inv_hessian / .quantized / .scale / .zero / .g_idx
                                gptq_quantize_matrix(w (6x20), inv_hessian, blocksize=8,
                                group_size=, activation_order=, compute_scale_zero=
                                GPTQQuantizer(GPTQConfig(weight_bits=4, group_size=, symmetric=
                                )).find_params) -- parameters in json "gqm"
  awq.<n>.w / .magnitudes / .search_scales / .quantized / .scale / .zero / .awq_scales / .g_idx
                                awq_search_optimal_scales and awq_quantize_matrix (w 6x20)
  hessian.batch<i> (3 batches), hessian.after<i>   GPTQ(Dense(7) on 10 inputs)
                                .update_hessian_with_batch: the Hessian after each batch
gptq_awq.json holds per setting: the config kwargs, its get_config(), the quantized model's
get_config() (model_config: for the first gptq and awq setting of each model), each layer's
dtype_policy/quantization_config/variable_serialization_spec/variables (path, attribute,
shape, dtype), layers_calibrated, the saved h5 datasets (shape, dtype), warnings raised,
reload_error; plus "calibration" (window offset and stride), "head_behaviour_gptq"/"_awq" (the
uncalibrated head: in memory and in the file), "cqp"/"gqm"/"awq" case parameters, "errors"
(class and message), "gptq/awq_policy_at_construction", "configs" and "policies".

Run: ./scripts/oracle.sh gptq_awq (re-execs itself with PYTHONHASHSEED=0: get_dataloader's
"strided" offset uses Python's salted hash()).
"""

import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0":
    os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, "PYTHONHASHSEED": "0"})

import contextlib  # noqa: E402
import json  # noqa: E402
import warnings  # noqa: E402
import zipfile  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import h5py  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import quantizers as Q  # noqa: E402
from keras import ops  # noqa: E402
from keras.src.quantizers import awq_core  # noqa: E402
from keras.src.quantizers import gptq_core  # noqa: E402
from keras.src.quantizers.awq import awq_quantize_matrix  # noqa: E402
from keras.src.quantizers.awq import awq_search_optimal_scales  # noqa: E402
from keras.src.quantizers.gptq import GPTQ  # noqa: E402
from keras.src.quantizers.gptq import gptq_quantize_matrix  # noqa: E402
from keras.src.quantizers.quantizers import GPTQQuantizer  # noqa: E402
from keras.src.quantizers.quantizers import compute_quantization_parameters  # noqa: E402

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "gptq_awq")
V, SEQ, D, H = 50, 12, 24, 40
NUM_SAMPLES = 16

GPTQ_SETTINGS = {
    "g4_pc_asym": dict(weight_bits=4, group_size=-1, symmetric=False, activation_order=False),
    "g4_g8_sym_act": dict(weight_bits=4, group_size=8, symmetric=True, activation_order=True),
    "g4_g16": dict(weight_bits=4, group_size=16),  # 16 divides neither 24 nor 40
    "g8_g16_act": dict(weight_bits=8, group_size=16, activation_order=True),
    "g3_pc": dict(weight_bits=3, group_size=-1),
    "g2_g8": dict(weight_bits=2, group_size=8, hessian_damping=0.05),
}
AWQ_SETTINGS = {
    "a_pc": dict(group_size=-1),
    "a_g8": dict(group_size=8, num_grid_points=5),
    "a_g16": dict(group_size=16),
}
# The only attributes a quantized Dense holds variables in (to name colliding paths).
VAR_ATTRS = ["_kernel", "quantized_kernel", "kernel_scale", "kernel_zero", "awq_scales", "g_idx",
             "bias", "embeddings"]


def tokenizer(text):
    # Keras requires a tokenizer even for pre-tokenized data; it is never called on int arrays.
    raise AssertionError("the calibration data is already tokens")


def float_model():
    keras.utils.set_random_seed(0)
    init = keras.initializers.RandomNormal

    def dense(units, name, seed, **kw):
        return L.Dense(units, name=name, kernel_initializer=init(stddev=0.3, seed=seed),
                       bias_initializer=init(stddev=0.1, seed=seed + 100), **kw)

    tokens = keras.Input((SEQ,), dtype="int32", name="tokens")
    x = L.Embedding(V, D, name="embedding",
                    embeddings_initializer=init(stddev=1.0, seed=1))(tokens)
    for i in range(2):
        block = keras.Sequential([dense(H, f"b{i}_up", 10 + 2 * i, activation="gelu"),
                                  dense(D, f"b{i}_down", 11 + 2 * i)], name=f"block_{i}")
        x = block(x)
    logits = dense(V, "head", 20)(x)
    return keras.Model(tokens, logits, name="toy_lm")


def einsum_model():
    """EinsumDense blocks: a QKV-style 3-D kernel (24, 2, 12) then Reshape and a 2-D kernel; an
    up/down pair; a QKV kernel then an attention-output 3-D kernel (2, 12, 24)."""
    keras.utils.set_random_seed(0)
    init = keras.initializers.RandomNormal

    def einsum(eq, shape, bias_axes, name, seed, **kw):
        return L.EinsumDense(eq, shape, bias_axes=bias_axes, name=name,
                             kernel_initializer=init(stddev=0.3, seed=seed),
                             bias_initializer=init(stddev=0.1, seed=seed + 100), **kw)

    tokens = keras.Input((SEQ,), dtype="int32", name="tokens")
    x = L.Embedding(V, D, name="embedding",
                    embeddings_initializer=init(stddev=1.0, seed=1))(tokens)
    blocks = [
        [einsum("abc,cde->abde", (None, 2, 12), "de", "b0_qkv", 30),
         L.Reshape((SEQ, 24), name="b0_merge"),
         einsum("abc,cd->abd", (None, D), "d", "b0_proj", 31)],
        [einsum("abc,cd->abd", (None, H), "d", "b1_up", 32, activation="gelu"),
         einsum("abc,cd->abd", (None, D), "d", "b1_down", 33)],
        [einsum("abc,cde->abde", (None, 2, 12), "de", "b2_qkv", 34),
         einsum("abcd,cde->abe", (None, D), "e", "b2_out", 35)],
    ]
    for i, layers in enumerate(blocks):
        x = keras.Sequential(layers, name=f"block_{i}")(x)
    logits = einsum("abc,cd->abd", (None, V), "d", "head", 36)(x)
    return keras.Model(tokens, logits, name="toy_lm_einsum")


def structure(model):
    return {"pre_block_layers": [model.get_layer("embedding")],
            "sequential_blocks": [l for l in model.layers if l.name.startswith("block_")]}


def leaf_layers(model):
    return [l for l in model._flatten_layers() if len(list(l._flatten_layers())) == 1]


def hooked_stream(update):
    """Keras's stream_hessians/stream_activations, with the hook on `quantized_call` instead of
    `call`. In Keras 3.15.1 model.quantize switches each Dense to the gptq/awq policy before
    calibrating, so Operation.__call__ dispatches to quantized_call and the hooks on `call`
    never run: the Hessians and activation maxima stay zero (GPTQ becomes round-to-nearest,
    AWQ's scales all 1). Fixed upstream after 3.15 (keras-team/keras#23512, with other
    changes this does not copy)."""

    @contextlib.contextmanager
    def stream(layers_map, objects):
        originals = {}

        def make(name, original):
            def hook(*args, **kwargs):
                inp = args[0] if args else kwargs["inputs"]
                getattr(objects[name], update)(ops.reshape(inp, (-1, objects[name].rows)))
                return original(*args, **kwargs)
            return hook
        try:
            for name, layer in layers_map.items():
                originals[name] = layer.quantized_call
                layer.quantized_call = make(name, layer.quantized_call)
            yield
        finally:
            for name, layer in layers_map.items():
                layer.quantized_call = originals[name]
    return stream


@contextlib.contextmanager
def live_hooks():
    saved = gptq_core.stream_hessians, awq_core.stream_activations
    gptq_core.stream_hessians = hooked_stream("update_hessian_with_batch")
    awq_core.stream_activations = hooked_stream("update_activation_magnitudes")
    try:
        yield
    finally:
        gptq_core.stream_hessians, awq_core.stream_activations = saved


def var_attr(layer, v):
    for attr in VAR_ATTRS:
        if getattr(layer, attr, None) is v:
            return attr
    return None


def record_variables(model, key, arrays):
    owners = {}
    for layer in leaf_layers(model):
        for v in layer.variables:
            owners[id(v)] = layer
    paths = [v.path for v in model.variables]
    out = []
    for v in model.variables:
        attr = var_attr(owners[id(v)], v)
        name = v.path if paths.count(v.path) == 1 else f"{v.path}[{attr}]"
        arrays[f"{key}.var.{name}"] = np.asarray(v.numpy())
        out.append({"key": name, "path": v.path, "attribute": attr, "shape": list(v.shape),
                    "dtype": v.dtype})
    return out


def record_saved(path, key, arrays):
    """Every dataset of the .keras file's weights, as Keras wrote them."""
    saved = {}
    with zipfile.ZipFile(path) as z, z.open("model.weights.h5") as f:
        with h5py.File(f, "r") as h5:
            def visit(name, obj):
                if isinstance(obj, h5py.Dataset):
                    value = np.asarray(obj[()])
                    arrays[f"{key}.saved.{name}"] = value
                    saved[name] = {"shape": list(value.shape), "dtype": str(value.dtype)}
            h5.visititems(visit)
    return saved


def model_fixtures(arrays, out):
    rng = np.random.default_rng(5)
    x = rng.integers(0, V, (3, SEQ)).astype("int32")
    dataset = rng.integers(0, V, (600,)).astype("int32")
    arrays["float.x"] = x
    arrays["calib.dataset"] = dataset
    out["calibration"] = {"num_samples": NUM_SAMPLES, "sequence_length": SEQ,
                          "dataset_size": int(dataset.size), "strategy": "strided", "seed": 42,
                          "hash_offset": abs(hash(("gptq-calib", 42))) % (dataset.size - SEQ + 1),
                          "stride": max(1, (dataset.size - SEQ + 1) // NUM_SAMPLES)}
    settings = [("gptq", n, kw) for n, kw in GPTQ_SETTINGS.items()] + \
               [("awq", n, kw) for n, kw in AWQ_SETTINGS.items()]
    quantize_cases(arrays, out, "", float_model(), settings, x, dataset)
    out["einsum"] = {}
    quantize_cases(arrays, out["einsum"], "einsum.", einsum_model(),
                   [("gptq", "g4_g16", GPTQ_SETTINGS["g4_g16"]),
                    ("awq", "a_g8", AWQ_SETTINGS["a_g8"])], x, dataset)


def quantize_cases(arrays, out, prefix, model, settings, x, dataset):
    fy = arrays[f"{prefix}float.y"] = np.asarray(model.predict(x, verbose=0))
    stem = prefix.replace(".", "_") or "lm_"
    float_path = os.path.join(OUT_DIR, f"{stem}float.keras")
    model.save(float_path)
    out["float_model"] = {"file": f"gptq_awq/{stem}float.keras", "config": model.get_config()}
    out["settings"] = {}
    modes_with_config = set()
    for mode, name, kwargs in settings:
        key, file = prefix + name, prefix.replace(".", "_") + name + ".keras"
        q = keras.saving.load_model(float_path)
        make = Q.GPTQConfig if mode == "gptq" else Q.AWQConfig
        # The structure goes through the model hook, not the config: a config holding layers
        # makes the quantized model unsavable (json "errors.gptq_save_with_structure_in_config").
        q.get_quantization_layer_structure = lambda mode, q=q: structure(q)
        config = make(dataset, tokenizer, num_samples=NUM_SAMPLES, sequence_length=SEQ, **kwargs)
        windows = gptq_core.get_dataloader(tokenizer, SEQ, dataset, NUM_SAMPLES)
        arrays[f"{key}.windows"] = windows
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            q.quantize(mode, config=config)
        y = np.asarray(q.predict(x, verbose=0))
        arrays[f"{key}.y"] = y
        variables = record_variables(q, key, arrays)
        path = os.path.join(OUT_DIR, file)
        q.save(path)
        saved = record_saved(path, key, arrays)
        # Keras 3.15.1 cannot load these files back: save_own_variables skips kernel_zero for
        # gptq/awq (only int4's merged zero is written) while load_own_variables expects it.
        try:
            again = keras.saving.load_model(path)
            y_again = np.asarray(again.predict(x, verbose=0))
            arrays[f"{key}.y_reloaded"] = y_again
            reload_error = None
        except Exception as e:  # noqa: BLE001
            y_again = None
            reload_error = {"class": type(e).__name__, "message": str(e)}
        layers = {}
        for layer in leaf_layers(q):
            entry = {"class": type(layer).__name__, "path": layer.path,
                     "dtype_policy": keras.saving.serialize_keras_object(layer.dtype_policy)}
            if isinstance(layer, (L.Dense, L.EinsumDense)):
                spec = layer.variable_serialization_spec.get(layer.quantization_mode)
                entry["variable_serialization_spec"] = spec
                entry["quantization_config"] = layer.get_config()["quantization_config"]
                entry["is_gptq_calibrated"] = bool(getattr(layer, "is_gptq_calibrated", False))
                entry["is_awq_calibrated"] = bool(getattr(layer, "is_awq_calibrated", False))
                entry["has_float_kernel"] = hasattr(layer, "_kernel")
            layers[layer.name] = entry
        calibrated = [n for n, e in layers.items()
                      if e.get("is_gptq_calibrated") or e.get("is_awq_calibrated")]
        cfg = config.get_config()
        out["settings"][name] = {
            "mode": mode, "kwargs": kwargs, "config": cfg,
            "dtype_policy_string": config.dtype_policy_string(),
            "layers": layers, "layers_calibrated": calibrated,
            "variables": variables, "saved_h5": saved, "file": f"gptq_awq/{file}",
            "warnings": [str(w.message) for w in caught],
            "max_abs_y_minus_float": float(np.max(np.abs(y - fy))),
            "reload_error": reload_error,
        }
        if mode not in modes_with_config:
            # The whole model config once per mode (the .keras files hold the others).
            modes_with_config.add(mode)
            out["settings"][name]["model_config"] = q.get_config()
        if y_again is not None:
            out["settings"][name]["max_abs_reloaded_minus_y"] = float(np.max(np.abs(y_again - y)))
        print(f"{key}: calibrated {calibrated}, max |q - float| = "
              f"{np.max(np.abs(y - fy)):.4g}, reload error "
              f"{None if reload_error is None else reload_error['class']}, "
              f"warnings {len(caught)}")
        if not prefix and name in ("g4_pc_asym", "a_pc"):
            head = q.get_layer("head")
            saved_head = {k: v for k, v in saved.items() if k.startswith("layers/dense/")}
            out[f"head_behaviour_{mode}"] = {
                "dtype_policy": head.dtype_policy.name,
                "calibrated": bool(getattr(head, f"is_{mode}_calibrated")),
                "has_float_kernel_in_memory": hasattr(head, "_kernel"),
                "float_kernel_unchanged_in_memory": bool(np.array_equal(
                    np.asarray(head._kernel.numpy()),
                    np.asarray(model.get_layer("head").kernel.numpy()))),
                "quantized_kernel_all_zero": bool(not np.any(head.quantized_kernel.numpy())),
                "kernel_scale_all_one": bool(np.all(head.kernel_scale.numpy() == 1)),
                "saved_h5 (layers/dense is the head)": saved_head,
                "saved_float_kernel": any(v["dtype"].startswith("float") and
                                          v["shape"] == [D, V] for v in saved_head.values()),
                "saved_quantized_kernel_all_zero": bool(not np.any(
                    arrays[f"{key}.saved.layers/dense/vars/1"])),
            }
        # The same setting with the calibration hooks alive (not Keras 3.15.1's result).
        h = keras.saving.load_model(float_path)
        h.get_quantization_layer_structure = lambda mode, h=h: structure(h)
        with live_hooks(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            h.quantize(mode, config=make(dataset, tokenizer, num_samples=NUM_SAMPLES,
                                         sequence_length=SEQ, **kwargs))
        yh = np.asarray(h.predict(x, verbose=0))
        arrays[f"{key}.hooked.y"] = yh
        record_variables(h, f"{key}.hooked", arrays)
        out["settings"][name]["hooked_max_abs_y_minus_float"] = float(
            np.max(np.abs(yh - fy)))
        print(f"  hooked: max |q - float| = {np.max(np.abs(yh - fy)):.4g}")


def cqp_fixtures(arrays, out):
    rng = np.random.default_rng(11)
    xs = [rng.normal(0.0, 1.0, (8, 24)).astype("float32")]
    x = rng.normal(0.2, 0.7, (8, 24)).astype("float32")
    x[2] = 0.5  # constant row: min == max
    x[5] = np.abs(x[5]) + 0.1  # all positive row: min > 0
    x[6, :8] = -0.25  # a constant group (group 8) inside a varying row
    x[7] = -np.abs(x[7]) - 0.1  # all negative row: Keras's unclamped zero point exceeds maxq
    xs.append(x)
    out["cqp"] = {}
    n = 0
    for xi, x in enumerate(xs):
        for bits in (2, 3, 4, 8):
            for symmetric in (False, True):
                for group in (-1, 8, 16):
                    scale, zero, maxq = compute_quantization_parameters(
                        x, bits=bits, symmetric=symmetric, per_channel=True, group_size=group)
                    arrays[f"cqp.{n}.x"] = x
                    arrays[f"cqp.{n}.scale"] = np.asarray(scale)
                    arrays[f"cqp.{n}.zero"] = np.asarray(zero)
                    arrays[f"cqp.{n}.maxq"] = np.asarray(maxq)
                    out["cqp"][str(n)] = {"x": xi, "bits": bits, "symmetric": symmetric,
                                          "per_channel": True, "group_size": group,
                                          "zero_dtype": str(np.asarray(zero).dtype)}
                    n += 1


def gqm_fixtures(arrays, out):
    rng = np.random.default_rng(12)
    w = rng.normal(0.0, 0.5, (6, 20)).astype("float32")
    a = rng.normal(0.0, 1.0, (40, 20)).astype("float32")
    hess = (a.T @ a / 40 + 0.1 * np.eye(20)).astype("float32")
    inv = np.linalg.inv(hess).astype("float32")
    out["gqm"] = {}
    n = 0
    for group in (-1, 4):
        for act in (False, True):
            for symmetric in (False, True):
                cfg = Q.GPTQConfig(None, None, weight_bits=4, group_size=group,
                                   symmetric=symmetric)
                qz, scale, zero, g_idx = gptq_quantize_matrix(
                    w, inv, blocksize=8, group_size=group, activation_order=act,
                    compute_scale_zero=GPTQQuantizer(cfg).find_params)
                arrays[f"gqm.{n}.w"] = w
                arrays[f"gqm.{n}.inv_hessian"] = inv
                arrays[f"gqm.{n}.quantized"] = np.asarray(qz)
                arrays[f"gqm.{n}.scale"] = np.asarray(scale)
                arrays[f"gqm.{n}.zero"] = np.asarray(zero)
                arrays[f"gqm.{n}.g_idx"] = np.asarray(g_idx)
                out["gqm"][str(n)] = {"blocksize": 8, "group_size": group,
                                      "activation_order": act, "weight_bits": 4,
                                      "symmetric": symmetric,
                                      "order_metric": "None: 1 / (diag(inv_hessian) + 1e-12)"}
                n += 1


def awq_fixtures(arrays, out):
    rng = np.random.default_rng(13)
    w = rng.normal(0.0, 0.5, (6, 20)).astype("float32")
    mags = np.abs(rng.normal(0.0, 2.0, (20,))).astype("float32")
    mags[3] = 0.0  # below 1e-8: Keras replaces it by 1
    mags[7] = 9.0  # one salient channel
    out["awq"] = {}
    n = 0
    for group in (-1, 4):
        for grid in (5, 20):
            s = awq_search_optimal_scales(w, mags, num_grid_points=grid, group_size=group)
            qz, scale, zero, awq_scales, g_idx = awq_quantize_matrix(
                w, mags, num_grid_points=grid, group_size=group)
            arrays[f"awq.{n}.w"] = w
            arrays[f"awq.{n}.magnitudes"] = mags
            arrays[f"awq.{n}.search_scales"] = np.asarray(s)
            arrays[f"awq.{n}.quantized"] = np.asarray(qz)
            arrays[f"awq.{n}.scale"] = np.asarray(scale)
            arrays[f"awq.{n}.zero"] = np.asarray(zero)
            arrays[f"awq.{n}.awq_scales"] = np.asarray(awq_scales)
            arrays[f"awq.{n}.g_idx"] = np.asarray(g_idx)
            out["awq"][str(n)] = {"group_size": group, "num_grid_points": grid,
                                  "quantized_dtype": str(np.asarray(qz).dtype)}
            n += 1


def hessian_fixtures(arrays):
    rng = np.random.default_rng(14)
    layer = L.Dense(7)
    layer.build((None, 10))
    g = GPTQ(layer, Q.GPTQConfig(None, None))
    # batches of different sizes and ranks (a rank-3 batch is flattened to rows)
    batches = [rng.normal(0, 1, (5, 10)), rng.normal(0.3, 2, (2, 3, 10)), rng.normal(0, 1, (1, 10))]
    for i, b in enumerate(batches):
        b = b.astype("float32")
        g.update_hessian_with_batch(b)
        arrays[f"hessian.batch{i}"] = b
        arrays[f"hessian.after{i}"] = np.asarray(g.hessian)


def catch(make):
    try:
        make()
        return None
    except Exception as e:  # noqa: BLE001  (record the kind and message)
        return {"class": type(e).__name__, "message": str(e)}


def error_fixtures(out):
    G = lambda **kw: Q.GPTQConfig(None, None, **kw)  # noqa: E731
    A = lambda **kw: Q.AWQConfig(None, None, **kw)  # noqa: E731
    errors = {
        "gptq_weight_bits_5": lambda: G(weight_bits=5),
        "gptq_num_samples_0": lambda: G(num_samples=0),
        "gptq_sequence_length_0": lambda: G(sequence_length=0),
        "gptq_hessian_damping_1.5": lambda: G(hessian_damping=1.5),
        "gptq_group_size_0": lambda: G(group_size=0),
        "gptq_group_size_-2": lambda: G(group_size=-2),
        "awq_weight_bits_8": lambda: A(weight_bits=8),
        "awq_group_size_-2": lambda: A(group_size=-2),
        "awq_num_grid_points_0": lambda: A(num_grid_points=0),
        "policy_gptq_5": lambda: keras.dtype_policies.get("gptq/5/128_from_float32"),
        "policy_gptq_missing_group": lambda: keras.dtype_policies.get("gptq/4_from_float32"),
        "policy_awq_8": lambda: keras.dtype_policies.get("awq/8/128_from_float32"),
    }
    out["errors"] = {k: catch(v) for k, v in errors.items()}
    # Without a structure (not in the config, no get_quantization_layer_structure override).
    for mode, make in (("gptq", Q.GPTQConfig), ("awq", Q.AWQConfig)):
        model = float_model()
        data = np.arange(100, dtype="int32") % V
        err = catch(lambda: model.quantize(mode, config=make(data, tokenizer, num_samples=2,
                                                              sequence_length=SEQ)))
        err["policies_after"] = {l.name: l.dtype_policy.name for l in leaf_layers(model)}
        out["errors"][f"{mode}_without_structure"] = err
        # Without a dataset: Keras refuses it in gptq_quantize/awq_quantize.
        model = float_model()
        out["errors"][f"{mode}_without_dataset"] = catch(
            lambda: model.quantize(mode, config=make(None, tokenizer, num_samples=2,
                                                     sequence_length=SEQ,
                                                     quantization_layer_structure=structure(model))))
        # The layers were quantize()d before that error, each keeping the config, whose
        # get_config() holds the structure's layers: saving recurses.
        path = os.path.join(OUT_DIR, "unsavable.keras")
        out["errors"][f"{mode}_save_with_structure_in_config"] = catch(lambda: model.save(path))
        if os.path.exists(path):
            os.remove(path)
    # Mode "gptq" without a config.
    out["errors"]["gptq_mode_without_config"] = catch(lambda: float_model().quantize("gptq"))
    # A gptq/awq policy set on a built Dense.
    for mode in ("gptq", "awq"):
        layer = L.Dense(4)
        layer.build((None, 8))

        def set_policy(layer=layer, mode=mode):
            layer.dtype_policy = f"{mode}/4/128_from_float32"
        out["errors"][f"{mode}_policy_on_built_dense"] = catch(set_policy)
    # Calibrating a Dense(4) on 8 inputs directly with a policy given at construction.
    for mode in ("gptq", "awq"):
        def build_with_policy(mode=mode):
            layer = L.Dense(4, dtype=f"{mode}/4/128_from_float32")
            layer.build((None, 8))
            return {v.path: list(v.shape) for v in layer.variables}
        try:
            out[f"{mode}_policy_at_construction"] = {"variables": build_with_policy()}
        except Exception as e:  # noqa: BLE001
            out[f"{mode}_policy_at_construction"] = {"class": type(e).__name__,
                                                     "message": str(e)}


def config_fixtures(out):
    ser = keras.saving.serialize_keras_object
    out["configs"] = {
        "gptq_default": Q.GPTQConfig(None, None).get_config(),
        "gptq_custom": Q.GPTQConfig(None, None, weight_bits=3, group_size=-1, symmetric=True,
                                    activation_order=True, hessian_damping=0.05,
                                    num_samples=16, sequence_length=12).get_config(),
        "awq_default": Q.AWQConfig(None, None).get_config(),
        "awq_custom": Q.AWQConfig(None, None, group_size=8, num_grid_points=5).get_config(),
        "gptq_default_serialized": ser(Q.GPTQConfig(None, None)),
        "awq_default_serialized": ser(Q.AWQConfig(None, None)),
    }
    out["policies"] = {}
    for name in ["gptq/4/128_from_float32", "awq/4/128_from_float32", "gptq/2/-1_from_float32",
                 "gptq/8/16_from_mixed_bfloat16", "awq/4/-1_from_float32"]:
        try:
            policy = keras.dtype_policies.get(name)
            out["policies"][name] = {
                "get_works": True, "class": type(policy).__name__, "name": policy.name,
                "serialized": keras.dtype_policies.serialize(policy),
                "quantization_mode": policy.quantization_mode,
                "compute_dtype": policy.compute_dtype, "variable_dtype": policy.variable_dtype}
            for attr in ("weight_bits", "group_size"):
                out["policies"][name][attr] = getattr(policy, attr, None)
            again = keras.dtype_policies.deserialize(keras.dtype_policies.serialize(policy))
            out["policies"][name]["round_trip_name"] = again.name
        except Exception as e:  # noqa: BLE001
            out["policies"][name] = {"get_works": False, "class": type(e).__name__,
                                     "message": str(e)}


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    arrays, out = {}, {}
    model_fixtures(arrays, out)
    cqp_fixtures(arrays, out)
    gqm_fixtures(arrays, out)
    awq_fixtures(arrays, out)
    hessian_fixtures(arrays)
    error_fixtures(out)
    config_fixtures(out)
    path = os.path.join(oracle.ORACLE_DIR, "gptq_awq.npz")
    np.savez_compressed(path, **arrays)
    print(os.path.relpath(path, oracle.ROOT), len(arrays), "arrays")
    oracle.write_json("gptq_awq", json.loads(json.dumps(out, default=str)))


if __name__ == "__main__":
    main()

"""The Python peers of the benchmark: the same workloads as bench_keras, written as a user of each
engine writes them, one workload per process, printing `key: value` lines for bench_runner.

    python peers.py <workload> --peer torch_eager|torch_compile|jax|keras_jax|onnxruntime
                    [--threads N] [--quick] [--device cpu|cuda] [--batch N]

Workloads and sizes are bench/common's (bench/README.md): the MLP 784-256-128-10 and the CNN
(Conv2D 32 -> MaxPool -> Conv2D 64 -> MaxPool -> Flatten -> Dropout 0.5 -> Dense 10) on
Fashion-MNIST from Debian's dataset-fashion-mnist, Adam(1e-3), cross-entropy on logits, batch
128; the LSTM(128) over (64, 32) synthetic sequences at batch 64; CNN inference over the 10 000
test images at batch 1024, then batch-1 latency. ONNX Runtime runs the inference workload on the
PyTorch CNN exported to ONNX, the same CNN over batch sizes 1 to 1024 (cnn_sweep), and the models
of KERAS_BENCH_MODELS (../shared/models, loaded by Keras on its torch backend and exported to
ONNX) at batch 1 and 128 (shared_models).

On a GPU (bench/gpu/gpu_bench.py): --device cuda runs the PyTorch peers there (TF32 off, as
keras-cpp computes float32), --batch sets the training batch, and two more workloads measure
PyTorch eager alone: op_overhead (a one-element add) and gemm (torch.mm, float32).
KERAS_BENCH_SYNTHETIC_IMAGES=1 draws images instead of reading Fashion-MNIST (the GPU machine
lacks the dataset; the figures depend on shapes only).
"""

import argparse
import gzip
import os
import sys
import tempfile
import time

import numpy as np

TRAIN_BATCH, WARMUP = 128, 5
INFER_BATCH, INFER_IMAGES = 1024, 10000
LSTM_BATCH, LSTM_STEPS, LSTM_FEATURES, LSTM_UNITS = 64, 64, 32, 128
TF_BATCH, TF_SEQ, TF_WIDTH, TF_HEADS, TF_FF = 32, 64, 128, 4, 512


def steps(args, name):
    full = {"mlp": 200, "cnn": 60, "lstm": 20, "latency": 200, "transformer": 30}[name]
    quick = {"mlp": 3, "cnn": 2, "lstm": 2, "latency": 5, "transformer": 2}[name]
    return quick if args.quick else full


def report(key, value):
    print(f"{key}: {value:.6g}", flush=True)


def fashion_mnist(train, n):
    if os.environ.get("KERAS_BENCH_SYNTHETIC_IMAGES") == "1":
        rng = np.random.default_rng(4321)
        n = min(n, 60000 if train else 10000)
        return (rng.random((n, 28, 28), dtype=np.float32),
                rng.integers(0, 10, n).astype(np.int64))
    root = os.environ.get("KERAS_DATASETS_DIR")
    folder = os.path.join(root, "fashion-mnist") if root else "/usr/share/datasets/fashion-mnist"
    prefix = os.path.join(folder, "train" if train else "t10k")
    with gzip.open(prefix + "-images-idx3-ubyte.gz") as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(prefix + "-labels-idx1-ubyte.gz") as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    return (images[:n].astype(np.float32) / 255.0), labels[:n].astype(np.int64)


def sequences(n, length=LSTM_STEPS, features=LSTM_FEATURES):
    rng = np.random.default_rng(1234)
    x = rng.standard_normal((n, length, features), dtype=np.float32)
    return x, rng.integers(0, 10, n).astype(np.int64)


def workload_data(args):
    """(x, y, batch, warmup, timed steps) of a training workload."""
    w = args.workload
    if w == "lstm_train":
        timed, warm = steps(args, "lstm"), 2
        x, y = sequences((warm + timed) * LSTM_BATCH)
        return x, y, LSTM_BATCH, warm, timed
    if w == "transformer_train":
        timed, warm, batch = steps(args, "transformer"), 2, args.batch or TF_BATCH
        x, y = sequences((warm + timed) * batch, TF_SEQ, TF_WIDTH)
        return x, y, batch, warm, timed
    timed = steps(args, "mlp" if w == "mlp_train" else "cnn")
    batch = args.batch or TRAIN_BATCH
    x, y = fashion_mnist(True, (WARMUP + timed) * batch)
    x = x.reshape(-1, 784) if w == "mlp_train" else x.reshape(-1, 28, 28, 1)
    return x, y, batch, WARMUP, timed


def timed_loop(step, batches, warmup, sync=lambda: None):
    """Runs step over every batch; the clock's start after the warm-up ones. `sync` waits for a
    device's queued work (at the start, and at the end before the caller reads the clock)."""
    start = None
    for i, (xb, yb) in enumerate(batches):
        step(xb, yb)
        if i == warmup - 1:
            sync()
            start = time.perf_counter()
    sync()
    return start


# ---- PyTorch (eager and torch.compile) --------------------------------------------------------

def torch_models(torch, w):
    nn = torch.nn
    if w == "mlp_train":
        return nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                             nn.Linear(128, 10))
    if w == "lstm_train":
        class Lstm(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(LSTM_FEATURES, LSTM_UNITS, batch_first=True)
                self.dense = nn.Linear(LSTM_UNITS, 10)

            def forward(self, x):
                _, (h, _) = self.lstm(x)
                return self.dense(h[-1])
        return Lstm()
    if w == "transformer_train":
        class Transformer(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.TransformerEncoderLayer(TF_WIDTH, TF_HEADS, TF_FF, 0.1,
                                                          batch_first=True)
                self.dense = nn.Linear(TF_WIDTH, 10)

            def forward(self, x):
                return self.dense(self.encoder(x).mean(1))
        return Transformer()
    return nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3),
                         nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.5),
                         nn.Linear(64 * 5 * 5, 10))


def torch_device(torch, args):
    """The device of --device; on a GPU, float32 as keras-cpp computes it (no TF32 anywhere)."""
    if args.device == "cpu":
        return torch.device("cpu"), lambda: None
    if not torch.cuda.is_available():
        raise SystemExit(f"peers.py: --device {args.device}: this PyTorch sees no GPU")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    device = torch.device(args.device)
    return device, lambda: torch.cuda.synchronize(device)


def run_torch(args, compiled):
    capped_avx2 = os.environ.get("ATEN_CPU_CAPABILITY") == "avx2"
    if compiled and capped_avx2:
        # torch 2.9.1's inductor code crashes (SIGSEGV) under ATEN_CPU_CAPABILITY=avx2: cap the
        # code inductor generates at 256-bit vectors (AVX2) instead, and ATen's kernels stay
        # at the CPU's best (bench.sh --isa avx2 says so in its ISA line).
        del os.environ["ATEN_CPU_CAPABILITY"]
    import torch
    if compiled and capped_avx2:
        import torch._inductor.config
        torch._inductor.config.cpp.simdlen = 256
    torch.set_num_threads(args.threads)
    torch.manual_seed(1337)
    device, sync = torch_device(torch, args)
    if args.workload in ("op_overhead", "gemm"):
        return torch_primitives(torch, args, device, sync)
    model = torch_models(torch, "cnn_train" if args.workload == "cnn_infer" else args.workload)
    model.to(device)
    fn = torch.compile(model) if compiled else model
    on_device = lambda a: torch.from_numpy(a).to(device)
    to_nchw = (lambda a: torch.from_numpy(a).permute(0, 3, 1, 2).contiguous().to(device)) \
        if args.workload.startswith("cnn") else on_device
    if args.workload == "cnn_infer":
        model.eval()
        x, _ = fashion_mnist(False, INFER_BATCH if args.quick else INFER_IMAGES)
        x = to_nchw(x.reshape(-1, 28, 28, 1))
        with torch.no_grad():
            fn(x[:INFER_BATCH])
            sync()
            t0 = time.perf_counter()
            torch.cat([fn(x[i:i + INFER_BATCH]) for i in range(0, len(x), INFER_BATCH)])
            sync()
            report("samples_per_s", len(x) / (time.perf_counter() - t0))
            one = x[:1]
            for _ in range(10):
                fn(one)
            n = steps(args, "latency")
            sync()
            t0 = time.perf_counter()
            for _ in range(n):
                fn(one)
            sync()
            report("latency_ms", (time.perf_counter() - t0) * 1e3 / n)
        report_device_memory(torch, device)
        return
    x, y, batch, warmup, timed = workload_data(args)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    model.train()

    def step(xb, yb):
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(fn(xb), yb)
        loss.backward()
        opt.step()

    order = np.random.default_rng(0).permutation(len(x))
    batches = [(to_nchw(x[order[i:i + batch]]), on_device(y[order[i:i + batch]]))
               for i in range(0, len(x), batch)]
    start = timed_loop(step, batches, warmup, sync)
    report("samples_per_s", timed * batch / (time.perf_counter() - start))
    report_device_memory(torch, device)


def report_device_memory(torch, device):
    """The most memory tensors held at once (keras-cpp's cuda backend reports the same)."""
    if device.type == "cuda":
        report("peak_device_mb", torch.cuda.max_memory_allocated(device) / 2**20)


def torch_primitives(torch, args, device, sync):
    """op_overhead and gemm as bench_keras measures them, for PyTorch eager."""
    if args.workload == "op_overhead":
        x = torch.ones(1, device=device)
        y = torch.full((1,), 2.0, device=device)
        with torch.no_grad():
            for _ in range(1000):
                z = x + y
            n = 1000 if args.quick else 200000
            sync()
            t0 = time.perf_counter()
            for _ in range(n):
                z = x + y
            sync()
        del z
        report("us", (time.perf_counter() - t0) * 1e6 / n)
        return
    for m, k, n, name in ((1024, 1024, 1024, "gemm1024"), (4096, 256, 4096, "gemm4096x256")):
        a = torch.rand(m, k, device=device) * 2 - 1
        b = torch.rand(k, n, device=device) * 2 - 1
        torch.mm(a, b)
        reps, inner = (1, 1) if args.quick else (9, 3)
        rates = []
        for _ in range(reps):
            sync()
            t0 = time.perf_counter()
            for _ in range(inner):
                torch.mm(a, b)
            sync()
            rates.append(2.0 * m * n * k * inner / (time.perf_counter() - t0) / 1e9)
        report(name + "_gflops", sorted(rates)[len(rates) // 2])


# ---- JAX with jax.jit and optax ---------------------------------------------------------------

def run_jax(args):
    import jax
    import jax.numpy as jnp
    import optax
    key = jax.random.PRNGKey(1337)

    def dense_init(k, n_in, n_out):
        limit = np.sqrt(6.0 / (n_in + n_out))
        return {"w": jax.random.uniform(k, (n_in, n_out), jnp.float32, -limit, limit),
                "b": jnp.zeros((n_out,), jnp.float32)}

    def conv_init(k, kh, c_in, c_out):
        limit = np.sqrt(6.0 / (kh * kh * (c_in + c_out)))
        return {"w": jax.random.uniform(k, (kh, kh, c_in, c_out), jnp.float32, -limit, limit),
                "b": jnp.zeros((c_out,), jnp.float32)}

    def conv(p, x):
        y = jax.lax.conv_general_dilated(x, p["w"], (1, 1), "VALID",
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return y + p["b"]

    def pool(x):
        return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    w = args.workload
    ks = jax.random.split(key, 8)
    if w == "mlp_train":
        params = [dense_init(ks[0], 784, 256), dense_init(ks[1], 256, 128), dense_init(ks[2], 128, 10)]

        def forward(p, x, rng, training):
            h = jax.nn.relu(x @ p[0]["w"] + p[0]["b"])
            h = jax.nn.relu(h @ p[1]["w"] + p[1]["b"])
            return h @ p[2]["w"] + p[2]["b"]
    elif w == "lstm_train":
        params = {"wx": dense_init(ks[0], LSTM_FEATURES, 4 * LSTM_UNITS)["w"],
                  "wh": dense_init(ks[1], LSTM_UNITS, 4 * LSTM_UNITS)["w"],
                  "b": jnp.zeros((4 * LSTM_UNITS,), jnp.float32),
                  "out": dense_init(ks[2], LSTM_UNITS, 10)}

        def forward(p, x, rng, training):
            xz = jnp.einsum("btf,fg->btg", x, p["wx"]) + p["b"]

            def cell(carry, z):
                h, c = carry
                i, f, g, o = jnp.split(z + h @ p["wh"], 4, axis=-1)
                c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
                h = jax.nn.sigmoid(o) * jnp.tanh(c)
                return (h, c), None
            zeros = jnp.zeros((x.shape[0], LSTM_UNITS), jnp.float32)
            (h, _), _ = jax.lax.scan(cell, (zeros, zeros), jnp.swapaxes(xz, 0, 1))
            return h @ p["out"]["w"] + p["out"]["b"]
    elif w == "transformer_train":
        params = {"q": dense_init(ks[0], TF_WIDTH, TF_WIDTH), "k": dense_init(ks[1], TF_WIDTH, TF_WIDTH),
                  "v": dense_init(ks[2], TF_WIDTH, TF_WIDTH), "o": dense_init(ks[3], TF_WIDTH, TF_WIDTH),
                  "f1": dense_init(ks[4], TF_WIDTH, TF_FF), "f2": dense_init(ks[5], TF_FF, TF_WIDTH),
                  "ln1": {"g": jnp.ones((TF_WIDTH,)), "b": jnp.zeros((TF_WIDTH,))},
                  "ln2": {"g": jnp.ones((TF_WIDTH,)), "b": jnp.zeros((TF_WIDTH,))},
                  "out": dense_init(ks[6], TF_WIDTH, 10)}

        def norm(p, x):
            mean = x.mean(-1, keepdims=True)
            var = ((x - mean) ** 2).mean(-1, keepdims=True)
            return (x - mean) / jnp.sqrt(var + 1e-3) * p["g"] + p["b"]

        def drop(rng, h, training):
            if not training:
                return h
            return jnp.where(jax.random.bernoulli(rng, 0.9, h.shape), h / 0.9, 0.0)

        def forward(p, x, rng, training):
            r1, r2 = jax.random.split(rng) if training else (None, None)
            b, t, _ = x.shape
            heads = lambda h: h.reshape(b, t, TF_HEADS, TF_WIDTH // TF_HEADS)
            q, k, v = (heads(x @ p[n]["w"] + p[n]["b"]) for n in ("q", "k", "v"))
            att = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(TF_WIDTH // TF_HEADS))
            a = jnp.einsum("bhqk,bkhd->bqhd", att, v).reshape(b, t, TF_WIDTH)
            h = norm(p["ln1"], x + drop(r1, a @ p["o"]["w"] + p["o"]["b"], training))
            f = jax.nn.relu(h @ p["f1"]["w"] + p["f1"]["b"]) @ p["f2"]["w"] + p["f2"]["b"]
            h = norm(p["ln2"], h + drop(r2, f, training))
            return h.mean(1) @ p["out"]["w"] + p["out"]["b"]
    else:
        params = [conv_init(ks[0], 3, 1, 32), conv_init(ks[1], 3, 32, 64),
                  dense_init(ks[2], 5 * 5 * 64, 10)]

        def forward(p, x, rng, training):
            h = pool(jax.nn.relu(conv(p[0], x)))
            h = pool(jax.nn.relu(conv(p[1], h)))
            h = h.reshape(h.shape[0], -1)
            if training:
                keep = jax.random.bernoulli(rng, 0.5, h.shape)
                h = jnp.where(keep, h / 0.5, 0.0)
            return h @ p[2]["w"] + p[2]["b"]

    if w == "cnn_infer":
        predict = jax.jit(lambda p, x: forward(p, x, None, False))
        x, _ = fashion_mnist(False, INFER_BATCH if args.quick else INFER_IMAGES)
        x = x.reshape(-1, 28, 28, 1)
        predict(params, x[:INFER_BATCH]).block_until_ready()
        t0 = time.perf_counter()
        outs = [predict(params, x[i:i + INFER_BATCH]) for i in range(0, len(x), INFER_BATCH)]
        np.concatenate([np.asarray(o) for o in outs])
        report("samples_per_s", len(x) / (time.perf_counter() - t0))
        one = x[:1]
        for _ in range(10):
            predict(params, one).block_until_ready()
        n = steps(args, "latency")
        t0 = time.perf_counter()
        for _ in range(n):
            predict(params, one).block_until_ready()
        report("latency_ms", (time.perf_counter() - t0) * 1e3 / n)
        return

    tx = optax.adam(1e-3)
    state = {"params": params, "opt": tx.init(params), "rng": ks[3]}

    @jax.jit
    def train_step(state, xb, yb):
        rng, sub = jax.random.split(state["rng"])

        def loss_fn(p):
            logits = forward(p, xb, sub, True)
            return optax.softmax_cross_entropy_with_integer_labels(logits, yb).mean()
        loss, grads = jax.value_and_grad(loss_fn)(state["params"])
        updates, opt = tx.update(grads, state["opt"], state["params"])
        return {"params": optax.apply_updates(state["params"], updates), "opt": opt, "rng": rng}, loss

    x, y, batch, warmup, timed = workload_data(args)
    order = np.random.default_rng(0).permutation(len(x))
    box = [state]

    def step(xb, yb):
        box[0], loss = train_step(box[0], xb, yb)
        loss.block_until_ready()

    batches = [(x[order[i:i + batch]], y[order[i:i + batch]].astype(np.int32))
               for i in range(0, len(x), batch)]
    start = timed_loop(step, batches, warmup)
    report("samples_per_s", timed * batch / (time.perf_counter() - start))


# ---- Keras 3 on JAX, jit_compile=True ---------------------------------------------------------

def run_keras(args):
    os.environ["KERAS_BACKEND"] = "jax"
    # Keras writes keras.json into its home on import; not into the user's ~/.keras.
    os.environ.setdefault("KERAS_HOME", os.path.join(tempfile.gettempdir(), "keras-cpp-bench-keras"))
    import keras
    keras.utils.set_random_seed(1337)
    layers = keras.layers
    w = args.workload
    if w == "mlp_train":
        model = keras.Sequential([keras.Input((784,)), layers.Dense(256, activation="relu"),
                                  layers.Dense(128, activation="relu"), layers.Dense(10)])
    elif w == "lstm_train":
        model = keras.Sequential([keras.Input((LSTM_STEPS, LSTM_FEATURES)),
                                  layers.LSTM(LSTM_UNITS), layers.Dense(10)])
    elif w == "transformer_train":
        inputs = keras.Input((TF_SEQ, TF_WIDTH))
        attended = layers.Dropout(0.1)(
            layers.MultiHeadAttention(TF_HEADS, TF_WIDTH // TF_HEADS)(inputs, inputs))
        h = layers.LayerNormalization()(layers.Add()([inputs, attended]))
        ff = layers.Dropout(0.1)(layers.Dense(TF_WIDTH)(layers.Dense(TF_FF, activation="relu")(h)))
        h = layers.LayerNormalization()(layers.Add()([h, ff]))
        model = keras.Model(inputs, layers.Dense(10)(layers.GlobalAveragePooling1D()(h)))
    else:
        model = keras.Sequential([
            keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"),
            layers.MaxPooling2D(2), layers.Conv2D(64, 3, activation="relu"),
            layers.MaxPooling2D(2), layers.Flatten(), layers.Dropout(0.5), layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.Adam(1e-3),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  jit_compile=True)
    if w == "cnn_infer":
        x, _ = fashion_mnist(False, INFER_BATCH if args.quick else INFER_IMAGES)
        x = x.reshape(-1, 28, 28, 1)
        model.predict(x[:INFER_BATCH], batch_size=INFER_BATCH, verbose=0)
        t0 = time.perf_counter()
        model.predict(x, batch_size=INFER_BATCH, verbose=0)
        report("samples_per_s", len(x) / (time.perf_counter() - t0))
        one = x[:1]
        for _ in range(10):
            model.predict_on_batch(one)
        n = steps(args, "latency")
        t0 = time.perf_counter()
        for _ in range(n):
            model.predict_on_batch(one)
        report("latency_ms", (time.perf_counter() - t0) * 1e3 / n)
        return
    x, y, batch, warmup, timed = workload_data(args)
    clock = {}

    class Timer(keras.callbacks.Callback):
        def on_train_batch_end(self, b, logs=None):
            if b == warmup - 1:
                clock["start"] = time.perf_counter()
            clock["end"] = time.perf_counter()

    model.fit(x, y, batch_size=batch, epochs=1, verbose=0, callbacks=[Timer()])
    report("samples_per_s", timed * batch / (clock["end"] - clock["start"]))


# ---- ONNX Runtime (inference of the PyTorch CNN exported to ONNX) ----------------------------

def ort_session(args, module, example):
    """An ONNX Runtime session of a torch module exported with a dynamic batch axis."""
    import onnxruntime as ort
    import torch
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.onnx")
        torch.onnx.export(module, example, path, input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": {0: "n"}, "y": {0: "n"}}, dynamo=False)
        options = ort.SessionOptions()
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
        return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def seconds_per_run(session, x, iters):
    for _ in range(5):
        session.run(None, {"x": x})
    t0 = time.perf_counter()
    for _ in range(iters):
        session.run(None, {"x": x})
    return (time.perf_counter() - t0) / iters


SERVE_BATCH, SWEEP_BATCHES = 128, [1, 4, 16, 64, 256, 1024]


def run_onnxruntime(args):
    import torch
    torch.manual_seed(1337)
    if args.workload == "shared_models":
        return run_onnxruntime_shared_models(args)
    model = torch_models(torch, "cnn_train").eval()
    session = ort_session(args, model, torch.zeros(1, 1, 28, 28))
    if args.workload == "cnn_sweep":
        x, _ = fashion_mnist(False, SWEEP_BATCHES[-1])
        x = np.ascontiguousarray(x.reshape(-1, 1, 28, 28))
        for b in SWEEP_BATCHES:
            iters = 2 if args.quick else max(8, 2048 // b)
            report(f"b{b}_us_per_sample", 1e6 * seconds_per_run(session, x[:b], iters) / b)
        return
    x, _ = fashion_mnist(False, INFER_BATCH if args.quick else INFER_IMAGES)
    x = np.ascontiguousarray(x.reshape(-1, 1, 28, 28))
    session.run(None, {"x": x[:INFER_BATCH]})
    t0 = time.perf_counter()
    np.concatenate([session.run(None, {"x": x[i:i + INFER_BATCH]})[0]
                    for i in range(0, len(x), INFER_BATCH)])
    report("samples_per_s", len(x) / (time.perf_counter() - t0))
    one = x[:1]
    for _ in range(10):
        session.run(None, {"x": one})
    n = steps(args, "latency")
    t0 = time.perf_counter()
    for _ in range(n):
        session.run(None, {"x": one})
    report("latency_ms", (time.perf_counter() - t0) * 1e3 / n)


def run_onnxruntime_shared_models(args):
    """The models saved by Python Keras in KERAS_BENCH_MODELS, loaded by Keras on its torch
    backend and exported to ONNX: batch-1 latency and batch-128 throughput."""
    os.environ["KERAS_BACKEND"] = "torch"
    os.environ.setdefault("KERAS_HOME", os.path.join(tempfile.gettempdir(), "keras-cpp-bench-keras"))
    import keras
    import torch
    folder = os.environ.get("KERAS_BENCH_MODELS", "")
    files = sorted(f for f in os.listdir(folder) if f.endswith((".keras", ".h5")))
    rng = np.random.default_rng(7)
    for name in files:
        model = keras.saving.load_model(os.path.join(folder, name), compile=False)
        model.eval()
        shape = tuple(model.inputs[0].shape[1:])
        session = ort_session(args, model, (torch.zeros((1,) + shape),))
        stem = os.path.splitext(name)[0]
        # Each model on its own kind of data, as bench_keras: images for a (28, 28, 1) input.
        batch = rng.standard_normal((SERVE_BATCH,) + shape, dtype=np.float32)
        if shape == (28, 28, 1):
            batch = np.ascontiguousarray(fashion_mnist(False, SERVE_BATCH)[0].reshape(batch.shape))
        one = batch[:1]
        report(f"{stem}_latency_ms", 1e3 * seconds_per_run(session, one, 3 if args.quick else 400))
        iters = 3 if args.quick else max(20, 400 // SERVE_BATCH)
        report(f"{stem}_b128_samples_per_s", SERVE_BATCH / seconds_per_run(session, batch, iters))


def versions():
    """One line naming every peer and its version (bench_runner prints it)."""
    import importlib.metadata as md
    names = ["torch", "jax", "jaxlib", "optax", "keras", "onnxruntime", "onnx"]

    def version(name):
        try:
            return md.version(name)
        except md.PackageNotFoundError:  # the GPU machine has PyTorch alone
            return "absent"
    return ", ".join(f"{n} {version(n)}" for n in names)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workload")
    p.add_argument("--peer", default="torch_eager")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--quick", action="store_true")
    p.add_argument("--device", default="cpu")
    p.add_argument("--batch", type=int, default=0)
    args = p.parse_args()
    if args.workload == "versions":
        print("peers: " + versions())
        return
    run = {"torch_eager": lambda: run_torch(args, False),
           "torch_compile": lambda: run_torch(args, True),
           "jax": lambda: run_jax(args), "keras_jax": lambda: run_keras(args),
           "onnxruntime": lambda: run_onnxruntime(args)}[args.peer]
    run()


if __name__ == "__main__":
    sys.exit(main())

"""The GPU benchmark (issue 22): keras-cpp on `cuda` and `torch:cuda` against PyTorch eager and
torch.compile on the same GPU (and LibTorch C++, when the GPU build has it), same models, batch
256 for training; GEMM against cuBLAS called directly. One workload per process, alternating
implementations, medians of --runs; prints a table and then `name: value` lines (as
bench_runner does for the CPU suite).

    python3 bench/gpu/gpu_bench.py --build build-gpu [--runs 3] [--deadline 240] [--quick]
                                   [--backends cuda,torch:cuda] [--device cuda]

scripts/gpu_check.sh runs it with the Python of the machine's PyTorch. The workloads are
bench_keras's and peers.py's (bench/README.md); every side computes float32 without TF32.
--deadline: seconds after which no new process starts, and none runs more than 20 s past it
(the GPU check has a time budget); the figures then say what was left out. A side that fails or is missing is reported; the exit
status is 1 when a keras-cpp process failed. `--backends cpu --device cpu --quick` runs the
same plumbing on a machine without a GPU (a check of the script, not a measurement).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "..", "peers", "peers.py")
TRAIN_BATCH = 256
# (workload, figure key, label, higher is better), in the order they run: the quick ones first,
# then the models, so that a deadline cuts the last model workloads only.
ROWS = [
    ("gemm", "gemm1024_gflops", "GEMM 1024^3 (GFLOP/s)", True),
    ("gemm", "gemm4096x256_gflops", "GEMM 4096x256x4096 (GFLOP/s)", True),
    ("op_overhead", "us", "1-element add (us/op)", False),
    ("mlp_train", "samples_per_s", "MLP train b256 (samples/s)", True),
    ("cnn_train", "samples_per_s", "CNN train b256 (samples/s)", True),
    ("transformer_train", "samples_per_s", "Transformer train b256 (samples/s)", True),
    ("cnn_infer", "samples_per_s", "CNN inference b1024 (samples/s)", True),
    ("cnn_infer", "latency_ms", "CNN latency b1 (ms)", False),
    ("mlp_train", "peak_device_mb", "MLP train peak device memory (MiB)", False),
    ("cnn_train", "peak_device_mb", "CNN train peak device memory (MiB)", False),
    ("transformer_train", "peak_device_mb", "Transformer peak device memory (MiB)", False),
]
WORKLOADS = list(dict.fromkeys(w for w, _, _, _ in ROWS))
TRAINING = ("mlp_train", "cnn_train", "transformer_train")


class Impl:
    def __init__(self, label, command, workloads, keras, runs=None, timeout=180, env=None):
        self.label, self.command, self.workloads = label, command, workloads
        self.keras = keras    # a keras-cpp column (ratios divide these by the peers)
        self.runs = runs      # None: --runs
        self.timeout = timeout
        self.env = env or {}  # added to the environment of its processes


def keras_backends(binary):
    try:
        out = subprocess.run([binary, "backends"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"gpu_bench: {binary} backends: {e}", file=sys.stderr)
        return []
    return [line.split()[1] for line in out.stdout.splitlines() if line.startswith("backend ")]


def implementations(args):
    keras_bin = os.path.join(args.build, "bench", "bench_keras_gpu")
    impls = []
    if os.access(keras_bin, os.X_OK):
        backends = keras_backends(keras_bin)
        print(f"keras-cpp backends: {', '.join(backends) or 'none'}")
        for name in args.backends.split(","):
            if name not in backends:
                print(f"gpu_bench: no '{name}' backend in {keras_bin}: its column is left out")
                continue
            impls.append(Impl(f"keras-cpp {name}", [keras_bin, "{w}", "--backend", name],
                              WORKLOADS, True))
            # Eager (jit_compile=false) on the model workloads: which mode is faster on a GPU.
            impls.append(Impl(f"{name} eager", [keras_bin, "{w}", "--backend", name, "--jit",
                                               "false"], list(TRAINING) + ["cnn_infer"], True,
                              runs=1))
            if name == "cuda":  # compiled steps replayed call by call: what CUDA graphs bring
                impls.append(Impl("cuda no graphs", [keras_bin, "{w}", "--backend", name],
                                  list(TRAINING), True, runs=1,
                                  env={"KERAS_CUDA_DISABLE": "graphs"}))
    else:
        print(f"gpu_bench: {keras_bin} is not built: keras-cpp's columns are left out")
    libtorch_bin = os.path.join(args.build, "bench", "bench_libtorch")
    if os.access(libtorch_bin, os.X_OK):  # LibTorch C++ on the GPU: the C++ peer
        impls.append(Impl("LibTorch C++", [libtorch_bin, "{w}", "--device", args.device],
                          WORKLOADS, False))
    python = args.python
    probe = subprocess.run(
        [python, "-c", "import numpy, torch; d = torch.device('%s'); "
         "assert d.type != 'cuda' or torch.cuda.is_available(), 'this PyTorch sees no GPU'; "
         "print(torch.__version__)" % args.device], capture_output=True, text=True)
    if probe.returncode != 0:
        reason = (probe.stderr.strip().splitlines() or ["failed"])[-1]
        print(f"gpu_bench: {python} cannot run the PyTorch peers ({reason}): they are left out")
        return impls
    print(f"PyTorch {probe.stdout.strip()} ({python}), device {args.device}")
    peer = [python, PEERS, "{w}", "--device", args.device, "--peer"]
    impls.append(Impl("PyTorch eager", peer + ["torch_eager"], WORKLOADS, False))
    # torch.compile compiles afresh in every process (tens of seconds): one run.
    impls.append(Impl("torch.compile", peer + ["torch_compile"], list(TRAINING) + ["cnn_infer"],
                      False, runs=1, timeout=150))
    return impls


def run_one(impl, workload, args, env, timeout):
    cmd = [c.replace("{w}", workload) for c in impl.command]
    if workload in TRAINING:
        cmd += ["--batch", str(TRAIN_BATCH)]
    if args.quick:
        cmd.append("--quick")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           env={**env, **impl.env})
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:.0f} s"
    if p.returncode != 0:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        return None, f"exit {p.returncode}: {' | '.join(tail)}"
    values = {}
    for line in p.stdout.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            try:
                values[key] = float(value)
            except ValueError:
                pass
    return values, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build-gpu")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--deadline", type=float, default=0, help="seconds; 0: none")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--python", default=sys.executable, help="the Python of the PyTorch peers")
    ap.add_argument("--backends", default="cuda,torch:cuda", help="keras-cpp's columns")
    ap.add_argument("--device", default="cuda", help="the PyTorch peers' device")
    args = ap.parse_args()
    start = time.monotonic()
    env = dict(os.environ)
    if not os.path.isdir("/usr/share/datasets/fashion-mnist") and "KERAS_DATASETS_DIR" not in env:
        env["KERAS_BENCH_SYNTHETIC_IMAGES"] = "1"
        print("images: synthetic (no Fashion-MNIST on this machine; the figures depend on shapes)")
    impls = implementations(args)
    if not impls:
        print("gpu_bench: nothing to measure")
        return 1
    # results[(workload, impl index)] = list of value dicts; problems: what failed or was cut.
    results, problems, failed = {}, [], False
    for w in WORKLOADS:
        for r in range(args.runs):
            order = list(range(len(impls)))
            if r % 2:
                order.reverse()
            for i in order:
                impl = impls[i]
                if w not in impl.workloads or r >= (impl.runs or args.runs):
                    continue
                timeout = impl.timeout
                if args.deadline:
                    left = args.deadline - (time.monotonic() - start)
                    if left <= 0:
                        problems.append(f"{w} run {r + 1} {impl.label}: past the deadline, not run")
                        continue
                    timeout = min(timeout, left + 20)  # a process started late ends near it
                print(f"[gpu_bench +{time.monotonic() - start:.0f}s] {w} run {r + 1}: {impl.label}",
                      file=sys.stderr, flush=True)
                values, error = run_one(impl, w, args, env, timeout)
                if error:
                    problems.append(f"{w} {impl.label}: {error}")
                    failed |= impl.keras
                else:
                    results.setdefault((w, i), []).append(values)

    def med(w, i, key):
        v = [r[key] for r in results.get((w, i), []) if key in r]
        return statistics.median(v) if v else float("nan")

    def best_keras(w, key, higher):
        vals = [med(w, i, key) for i, impl in enumerate(impls) if impl.keras]
        vals = [v for v in vals if v == v]
        return (max(vals) if higher else min(vals)) if vals else float("nan")

    def peer(label):
        return next((i for i, impl in enumerate(impls) if impl.label == label), None)

    peers = [(p, suffix, column) for p, suffix, column in (
        (peer("PyTorch eager"), "ratio_eager", "/eager"),
        (peer("torch.compile"), "ratio_compile", "/compile"),
        (peer("LibTorch C++"), "ratio_libtorch", "/LibTorch")) if p is not None]
    print(f"\nkeras-cpp vs PyTorch on the GPU: medians of {args.runs} runs (keras-cpp eager and torch.compile: 1)"
          f"{' (QUICK: not a measurement)' if args.quick else ''}; ratios: keras-cpp's best column"
          " over the peer's (higher is better for rates, lower for times and memory)")
    print(f"{'figure':42}" + "".join(f" {impl.label:>18}" for impl in impls) +
          "".join(f" {column:>9}" for _, _, column in peers))
    lines = []
    for w, key, label, higher in ROWS:
        cells = [med(w, i, key) for i in range(len(impls))]
        if all(c != c for c in cells):
            continue
        ours = best_keras(w, key, higher)
        ratios = [ours / med(w, p, key) for p, _, _ in peers]
        print(f"{label:42}" + "".join(f" {c:18.4g}" for c in cells) +
              "".join(f" {r:9.3f}" for r in ratios))
        slug = key if w == "gemm" else w + ("" if key == "samples_per_s" else "_" + key)
        for (_, suffix, _), r in zip(peers, ratios):
            if r == r:
                lines.append((f"{slug}_{suffix}", r))
        for i, impl in enumerate(impls):
            tag = impl.label.lower().replace("keras-cpp ", "")
            tag = "".join(c if c.isalnum() else "_" for c in tag)
            if cells[i] == cells[i]:
                lines.append((f"{slug}_{tag}", cells[i]))
    for w, key in (("gemm", "gemm1024"), ("gemm", "gemm4096x256")):
        for i, impl in enumerate(impls):
            v = med(w, i, key + "_ratio_cublas")
            if v == v:  # keras-cpp's product over cuBLAS's, paired in one process
                lines.append((f"{key}_ratio_cublas_{impl.label.split()[-1]}", v))
                print(f"{key} {impl.label} / cuBLAS direct (paired): {v:.3f}")
    print()
    for name, value in lines:
        print(f"{name}: {value:.4g}")
    print(f"seconds: {time.monotonic() - start:.0f}")
    for p in problems:
        print(f"problem: {p}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

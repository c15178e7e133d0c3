#!/usr/bin/env bash
# The distribution benchmarks (issue 18), on this machine's loopback:
#  - all-reduce: Gloo's own ring all-reduce beside keras-cpp's (the same ring, plus the tensor
#    copies in and out), 2 processes, sizes 1 KB ... 32 MB;
#  - CNN training (bench/keras_bench.cpp's CNN, global batch 128): 1 process x 2 threads against
#    2 processes x 1 thread (scaling efficiency = their ratio); the same for a wide MLP whose
#    7 MB of gradients fill several buckets, with the all-reduce overlapped with the backward
#    pass and without (KERAS_DISTRIBUTION_OVERLAP=0);
#  - a ring all-reduce cost model from the measured per-message latency and bandwidth: what the
#    CNN's gradient exchange would cost per step on 8, 64 and 512 processes.
# Runs alternate, --runs N times each (default 3); medians. Output also in
# bench/results/latest-distributed.txt. Nothing else should run meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
[ "${1:-}" = "--runs" ] && runs="$2"
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target keras-cpp bench_distributed > /dev/null
launch=build/tools/cli/keras-cpp
bench=build/bench/distributed/bench_distributed
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
raw=$(mktemp)
for r in $(seq "$runs"); do
  rm -rf "$store"/*
  KERAS_BENCH_STORE="$store" KERAS_CPU_THREADS=1 $launch launch -n 2 -- $bench allreduce |
    sed "s/^/allreduce /" >> "$raw"
  KERAS_CPU_THREADS=2 $launch launch -n 1 -- $bench cnn 20 | sed "s/^/p1t2 /" >> "$raw"
  KERAS_CPU_THREADS=1 $launch launch -n 2 -- $bench cnn 20 | sed "s/^/p2t1 /" >> "$raw"
  KERAS_CPU_THREADS=2 $launch launch -n 1 -- $bench wide_mlp 20 | sed "s/^/p1t2 /" >> "$raw"
  KERAS_CPU_THREADS=1 $launch launch -n 2 -- $bench wide_mlp 20 | sed "s/^/p2t1 /" >> "$raw"
  KERAS_DISTRIBUTION_OVERLAP=0 KERAS_CPU_THREADS=1 $launch launch -n 2 -- $bench wide_mlp 20 |
    sed "s/^/p2t1_no_overlap /" >> "$raw"
done
mkdir -p bench/results
python3 - "$raw" "$runs" <<'PY' | tee bench/results/latest-distributed.txt
import collections, statistics, sys
values = collections.defaultdict(list)
for line in open(sys.argv[1]):
    group, name, value, unit = line.split()
    values[(group, name)].append(float(value))
med = {k: statistics.median(v) for k, v in values.items()}
print(f"# distribution benchmarks, medians of {sys.argv[2]} alternating runs (loopback, this machine)")
print("\n## all-reduce of float32, 2 processes")
print(f"{'bytes':>10} {'Gloo us':>10} {'keras-cpp us':>13} {'keras/Gloo':>11} {'Gloo GB/s':>10}")
sizes = sorted({int(n.split('_')[2][:-1]) for (g, n) in med if g == 'allreduce'})
for b in sizes:
    g = med[('allreduce', f'allreduce_gloo_{b}B_us')]
    k = med[('allreduce', f'allreduce_keras_{b}B_us')]
    print(f"{b:>10} {g:>10.1f} {k:>13.1f} {k / g:>11.2f} {b / g / 1e3:>10.2f}")
p1 = med[('p1t2', 'cnn_train_samples_per_s')]
p2 = med[('p2t1', 'cnn_train_samples_per_s')]
print("\n## CNN training, global batch 128 (samples/s)")
print(f"1 process x 2 threads: {p1:.0f}")
print(f"2 processes x 1 thread: {p2:.0f}")
print(f"2 processes / 1 process: {p2 / p1:.2f}")
w1 = med[('p1t2', 'wide_mlp_train_samples_per_s')]
w2 = med[('p2t1', 'wide_mlp_train_samples_per_s')]
w0 = med[('p2t1_no_overlap', 'wide_mlp_train_samples_per_s')]
wn = med[('p1t2', 'wide_mlp_gradient_bytes')]
print(f"\n## wide MLP training ({wn / 1e6:.1f} MB of gradients: 1 MB buckets), global batch 128 (samples/s)")
print(f"1 process x 2 threads: {w1:.0f}")
print(f"2 processes x 1 thread, all-reduce overlapped with the backward pass: {w2:.0f} ({w2 / w1:.2f})")
print(f"2 processes x 1 thread, one all-reduce after the backward pass: {w0:.0f} ({w0 / w1:.2f})")
print(f"overlapped / not: {w2 / w0:.2f}")
# Ring all-reduce on P processes: 2(P-1) messages of n/P bytes each: T = 2(P-1) a + 2(P-1)/P n/B.
# From P = 2: the smallest size gives a (latency per message), the largest B (bandwidth).
small, large = sizes[0], sizes[-1]
a = med[('allreduce', f'allreduce_gloo_{small}B_us')] * 1e-6 / 2
t_large = med[('allreduce', f'allreduce_gloo_{large}B_us')] * 1e-6
B = large / (t_large - 2 * a)
n = med[('p1t2', 'cnn_gradient_bytes')]
step_1 = 128 / p1
print(f"\n## ring all-reduce model: a = {a * 1e6:.1f} us per message, B = {B / 1e9:.2f} GB/s")
print(f"the CNN's gradient: {n / 1e3:.0f} KB; its step on 1 process: {step_1 * 1e3:.1f} ms (batch 128)")
print(f"{'processes':>10} {'all-reduce ms':>14} {'share of a batch-128-per-process step':>38}")
for P in (2, 8, 64, 512):
    t = 2 * (P - 1) * a + 2 * (P - 1) / P * n / B
    print(f"{P:>10} {t * 1e3:>14.2f} {t / (t + step_1) * 100:>37.1f}%")
PY

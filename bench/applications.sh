#!/usr/bin/env bash
# keras.applications inference against PyTorch and ONNX Runtime (issue 20):
#   ./bench/applications.sh [--runs R] [--threads T] [--models resnet50,mobilenet_v2,...]
# For each model: batch-1 latency (ms per call) and batch-32 throughput (images/s) of
# keras-cpp's predict_on_batch (bench_applications), torchvision's model of the same
# architecture in PyTorch eager (inference_mode), and ONNX Runtime running keras-cpp's own
# model exported to ONNX by keras-cpp (the same weights). Every measurement is a fresh process;
# the order of the three engines flips every run; the table gives medians of R runs (default 3)
# and ratios: latency keras-cpp / peer (lower is better for keras-cpp), throughput
# keras-cpp / peer (higher is better). The peers come from bench/peers/requirements.txt plus
# torchvision, in ~/.cache/keras-cpp/peers-venv (as ./scripts/bench.sh installs them).
# Output: bench/results/latest-applications.txt and a dated copy.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
threads=$(nproc)
models=resnet50,mobilenet_v2,efficientnet_b0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    *) echo "usage: bench/applications.sh [--runs R] [--threads T] [--models a,b]" >&2; exit 2 ;;
  esac
done
./scripts/install_deps.sh
venv="${XDG_CACHE_HOME:-$HOME/.cache}/keras-cpp/peers-venv"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r bench/peers/requirements.txt \
  torchvision==0.24.1
py="$venv/bin/python"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DKERAS_BUILD_BENCH=ON > /dev/null
cmake --build build-bench -j"$(nproc)" --target bench_applications > /dev/null
bin=build-bench/bench/bench_applications
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
raw="$work/raw.txt"
IFS=, read -r -a model_list <<< "$models"
for m in "${model_list[@]}"; do "$bin" "$m" --export "$work/$m.onnx"; done

measure() {  # engine model batch iters -> appends "engine model batch ms samples/s"
  local engine=$1 m=$2 b=$3 n=$4 out
  case "$engine" in
    keras) out=$("$bin" "$m" --batch "$b" --iters "$n" --threads "$threads") ;;
    torch) out=$("$py" bench/peers/applications.py "$m" --peer torch --batch "$b" --iters "$n" \
                   --threads "$threads") ;;
    ort) out=$("$py" bench/peers/applications.py "$m" --peer onnxruntime --batch "$b" \
                 --iters "$n" --threads "$threads" --onnx "$work/$m.onnx") ;;
  esac
  echo "$engine $m $b $(echo "$out" | awk '/^ms_per_batch/ {ms=$2} /^samples_per_s/ {s=$2} END {print ms, s}')" >> "$raw"
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 0; r < runs; r++)); do
  engines=(keras torch ort)
  ((r % 2)) && engines=(ort torch keras)
  for m in "${model_list[@]}"; do
    for e in "${engines[@]}"; do
      measure "$e" "$m" 1 30
      measure "$e" "$m" 32 4
    done
  done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

stamp=$(date -u +%Y-%m-%d-%H%M)
result=bench/results/$stamp-applications.txt
{
  echo "bench/applications.sh: $runs runs, $threads threads, $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
  echo "load average at start: $load_start; at end: $load_end"
  "$py" - "$raw" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    engine, model, batch, ms, sps = line.split()
    rows[(model, int(batch), engine)].append((float(ms), float(sps)))
med = {k: (statistics.median(v[0] for v in vs), statistics.median(v[1] for v in vs))
       for k, vs in rows.items()}
models = sorted({k[0] for k in med}, key=lambda m: list(dict.fromkeys(k[0] for k in rows)).index(m))
print()
print("| model | batch-1 ms: keras-cpp | PyTorch | ONNX Runtime | ratio vs PyTorch | ratio vs ORT |"
      " batch-32 img/s: keras-cpp | PyTorch | ONNX Runtime | ratio vs PyTorch | ratio vs ORT |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
lines = []
for m in models:
    k1, t1, o1 = (med[(m, 1, e)][0] for e in ("keras", "torch", "ort"))
    k32, t32, o32 = (med[(m, 32, e)][1] for e in ("keras", "torch", "ort"))
    print(f"| {m} | {k1:.2f} | {t1:.2f} | {o1:.2f} | {k1 / t1:.2f} | {k1 / o1:.2f} "
          f"| {k32:.1f} | {t32:.1f} | {o32:.1f} | {k32 / t32:.2f} | {k32 / o32:.2f} |")
    lines += [f"{m}_latency_b1_ratio_torch: {k1 / t1:.3f}", f"{m}_latency_b1_ratio_onnxruntime: {k1 / o1:.3f}",
              f"{m}_b32_ratio_torch: {k32 / t32:.3f}", f"{m}_b32_ratio_onnxruntime: {k32 / o32:.3f}"]
print()
print("latency ratios: keras-cpp ms / peer ms (lower is better); b32 ratios: keras-cpp img/s / peer img/s (higher is better)")
print("\n".join(lines))
PY
} | tee "$result"
cp "$result" bench/results/latest-applications.txt

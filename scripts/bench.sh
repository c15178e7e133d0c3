#!/usr/bin/env bash
# Builds the benchmark suite in Release (build-bench/) and runs it: keras-cpp (cpu backend
# compiled and eager, and the torch backend when built) against the same models in LibTorch C++
# and in the engines users pick today (PyTorch eager and torch.compile, JAX with jax.jit, Keras 3
# on JAX, ONNX Runtime: bench/peers/, installed into ~/.cache/keras-cpp/peers-venv from
# bench/peers/requirements.txt; --no-peers leaves them out), medians of alternating runs, each
# in a fresh process. Prints a table, then `name: value` lines.
# Arguments go to bench_runner: --runs N (default 3), --threads N (default all cores),
# --only mlp_train,gemm, --quick (a few steps of each: checks the suite, measures nothing),
# --keep-openblas-core (keep OPENBLAS_CORETYPE from the environment; removed by default).
# --isa avx2 (read here, not by bench_runner): every side capped at AVX2, to measure the AVX2
# paths on an AVX-512 machine (bench/README.md, "Measuring the AVX2 paths").
# The full output is also written to bench/results/latest.txt (latest-avx2.txt with --isa avx2;
# not with --quick or --only).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
partial=0
peers=1
isa=""
args=()
while [ $# -gt 0 ]; do
  a="$1"
  shift
  [[ "$a" == --quick || "$a" == --only ]] && partial=1
  case "$a" in
    --no-peers) peers=0 ;;
    --isa)
      [ $# -gt 0 ] || { echo "bench.sh: --isa needs a value (avx2)" >&2; exit 2; }
      isa="$1"
      shift
      ;;
    --isa=*) isa="${a#--isa=}" ;;
    *) args+=("$a") ;;
  esac
done
cpu_isa="$(grep -m1 -o -w -E 'avx512f' /proc/cpuinfo || grep -m1 -o -w avx2 /proc/cpuinfo || echo baseline)"
isa_note=""
if [ -n "$isa" ]; then
  if [ "$isa" != avx2 ]; then
    echo "bench.sh: --isa takes avx2 (got '$isa')" >&2
    exit 2
  fi
  if [ "$cpu_isa" = baseline ]; then
    echo "bench.sh: --isa avx2: this CPU has no AVX2" >&2
    exit 2
  fi
  # Each engine's own cap, set for every child process (bench_runner passes its environment
  # on). OpenBLAS reads OPENBLAS_CORETYPE when it loads, so it must be in the environment of
  # the process, and bench_runner must keep it (--keep-openblas-core).
  export KERAS_CPU_ISA=avx2            # keras-cpp's own vector kernels (backends/cpu/src/isa.h)
  export OPENBLAS_CORETYPE=Haswell     # OpenBLAS (keras-cpp, Debian's LibTorch): AVX2 + FMA
  export ATEN_CPU_CAPABILITY=avx2      # ATen's kernels and torch.compile's generated code
  export ONEDNN_MAX_CPU_ISA=AVX2       # oneDNN (convolutions of LibTorch and PyTorch)
  export MKL_ENABLE_INSTRUCTIONS=AVX2  # MKL (GEMMs of the PyTorch wheel)
  export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_cpu_max_isa=AVX2"  # JAX, Keras on JAX
  args+=(--keep-openblas-core)
  isa_note="forced with --isa avx2 on an $cpu_isa CPU"
fi
set -- "${args[@]+"${args[@]}"}"
if [ "$peers" = 1 ]; then
  # Outside the checkout: the wheels bring LibTorch's and CUDA's headers, which have no place
  # in keras-cpp's tree (only backends/torch includes LibTorch).
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/keras-cpp/peers-venv"
  # (Keras writes keras.json into KERAS_HOME on import: not into the user's ~/.keras.)
  if ! KERAS_HOME="$PWD/.cache/peers-keras-home" "$venv/bin/python" \
      -c 'import torch, jax, optax, keras, onnxruntime' 2>/dev/null; then
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q -r bench/peers/requirements.txt
  fi
  export KERAS_BENCH_PYTHON="$venv/bin/python"
  # The wheel's own LibTorch is the C++ peer at PyTorch's current version.
  wheel_torch="$(KERAS_HOME="$PWD/.cache/peers-keras-home" "$venv/bin/python" -c \
    'import os, torch; print(os.path.dirname(torch.__file__))')"
  wheel_version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("torch"))')"
  if [ -n "$isa" ]; then
    # What the Python peers make of their caps: ATen reports its level; XLA rejects a flag it
    # does not know (then JAX runs uncapped, and the ISA line says so).
    aten="$(KERAS_HOME="$PWD/.cache/peers-keras-home" "$venv/bin/python" -c \
      'import torch; print(torch.backends.cpu.get_cpu_capability())' 2>/dev/null || echo unknown)"
    isa_note+="; PyTorch's ATen reports $aten (torch.compile: inductor's code at 256-bit vectors, ATen uncapped: it crashes under ATEN_CPU_CAPABILITY=avx2)"
    if ! jax_error="$("$venv/bin/python" -c \
        'import jax.numpy as jnp; jnp.zeros(1).block_until_ready()' 2>&1 > /dev/null)" &&
        grep -q xla_cpu_max_isa <<< "$jax_error"; then
      export XLA_FLAGS="${XLA_FLAGS/--xla_cpu_max_isa=AVX2/}"
      isa_note+="; JAX not capped (this jaxlib rejects --xla_cpu_max_isa)"
    fi
    isa_note+="; ONNX Runtime not capped (it has no setting for it)"
  fi
fi
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DKERAS_BUILD_BENCH=ON \
  -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF \
  -DKERAS_BENCH_WHEEL_TORCH="${wheel_torch:-}" > /dev/null
cmake --build build-bench -j"$(nproc)" --target bench_all > /dev/null
header() {
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
    "$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo ' (modified)')"
  echo "LibTorch C++: Debian libtorch-dev $(dpkg-query -W -f='${Version}' libtorch-dev 2>/dev/null)" \
    "${wheel_version:+and the one in the PyTorch wheel, torch $wheel_version}"
  if [ -n "$isa" ]; then
    echo "ISA: $isa ($isa_note)"
    echo "ISA caps: KERAS_CPU_ISA=$KERAS_CPU_ISA OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE" \
      "ATEN_CPU_CAPABILITY=$ATEN_CPU_CAPABILITY ONEDNN_MAX_CPU_ISA=$ONEDNN_MAX_CPU_ISA" \
      "MKL_ENABLE_INSTRUCTIONS=$MKL_ENABLE_INSTRUCTIONS XLA_FLAGS=${XLA_FLAGS:-}"
  else
    echo "ISA: $cpu_isa"
  fi
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [ "$partial" = 1 ]; then
  header
  build-bench/bench/bench_runner "$@"
else
  mkdir -p bench/results
  { header; build-bench/bench/bench_runner "$@"; } | tee "bench/results/latest${isa:+-$isa}.txt"
fi

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
# The full output is also written to bench/results/latest.txt (not with --quick or --only).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
partial=0
peers=1
args=()
for a in "$@"; do
  [[ "$a" == --quick || "$a" == --only ]] && partial=1
  if [[ "$a" == --no-peers ]]; then peers=0; else args+=("$a"); fi
done
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
  echo "ISA: $(grep -m1 -o -w -E 'avx512f' /proc/cpuinfo || grep -m1 -o -w avx2 /proc/cpuinfo)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [ "$partial" = 1 ]; then
  header
  build-bench/bench/bench_runner "$@"
else
  mkdir -p bench/results
  { header; build-bench/bench/bench_runner "$@"; } | tee bench/results/latest.txt
fi

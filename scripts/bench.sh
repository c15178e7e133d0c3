#!/usr/bin/env bash
# Builds the benchmark suite in Release (build-bench/) and runs it: keras-cpp (cpu backend, and
# the torch backend when built) against the same models in LibTorch, medians of alternating
# runs, each in a fresh process. Prints a table, then `name: value` lines (issue 8's names).
# Arguments go to bench_runner: --runs N (default 3), --threads N (default all cores),
# --only mlp_train,gemm, --quick (a few steps of each: checks the suite, measures nothing),
# --keep-openblas-core (keep OPENBLAS_CORETYPE from the environment; removed by default).
# The full output is also written to bench/results/latest.txt (not with --quick or --only).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DKERAS_BUILD_BENCH=ON \
  -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF > /dev/null
cmake --build build-bench -j"$(nproc)" --target bench_all > /dev/null

partial=0
for a in "$@"; do [[ "$a" == --quick || "$a" == --only ]] && partial=1; done
header() {
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
    "$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo ' (modified)')"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [ "$partial" = 1 ]; then
  header
  build-bench/bench/bench_runner "$@"
else
  mkdir -p bench/results
  { header; build-bench/bench/bench_runner "$@"; } | tee bench/results/latest.txt
fi

#!/bin/bash
# Builds a fuzz target the quick way (the g++ libkeras.a plus the target's instrumented
# sources) and runs it for SECONDS in fork mode, which keeps going past findings and writes each
# to build-fuzz/<target>-artifacts/ (see fuzz/README.md).
#   tools/run_fuzzer.sh [TARGET] [SECONDS]
#   TARGET: load_model (the default), npy, csv, idx or json_config; SECONDS: default 1800.
#   tools/run_fuzzer.sh SECONDS   (one number: load_model, as before)
# The scratch corpus build-fuzz/<target>-corpus-run starts from the committed corpus
# (fuzz/corpus for load_model, fuzz/<target>_corpus for the others) and keeps what earlier runs
# found; load_model's also gets the real Keras files of ../shared/models when present (run time
# only: never commit them or inputs made from them). The fuzzer runs under nice -n 19.
set -euo pipefail
cd "$(dirname "$0")/.."
target=load_model
if [[ $# -ge 1 && ! $1 =~ ^[0-9]+$ ]]; then
  target=$1
  shift
fi
seconds=${1:-1800}
# A config may declare layers of any size: for json_config, ASan refuses allocations over
# 512 MiB (a tensor's then becomes keras's ResourceExhaustedError, as it would past the
# machine's memory) instead of filling gigabytes of weights for each such input.
asan=allocator_may_return_null=1
case $target in
  load_model) seeds=fuzz/corpus; limits=(-rss_limit_mb=4096 -max_len=200000) ;;
  npy | csv | idx) seeds=fuzz/${target}_corpus; limits=(-rss_limit_mb=2048 -max_len=65536) ;;
  json_config)
    seeds=fuzz/${target}_corpus; limits=(-rss_limit_mb=2048 -max_len=65536)
    asan=$asan:max_allocation_size_mb=512 ;;
  *) echo "unknown target '$target': load_model, npy, csv, idx or json_config" >&2; exit 2 ;;
esac
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work} CCACHE_NOHASHDIR=1
cmake -S . -B build -DKERAS_BUILD_TESTS=ON -DKERAS_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build -j2 --target keras >/dev/null
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DKERAS_BUILD_FUZZERS=ON \
      -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF \
      -DKERAS_FUZZ_LIBRARY="$PWD/build/libkeras.a" >/dev/null
cmake --build build-fuzz -j2 --target "${target}_fuzzer" >/dev/null
run=build-fuzz/${target}-corpus-run
artifacts=build-fuzz/${target}-artifacts
mkdir -p "$run" "$artifacts"
cp "$seeds"/* "$run"/
if [[ $target == load_model ]]; then
  for f in ../shared/models/*.keras ../shared/models/*.h5; do
    [ -f "$f" ] && cp "$f" "$run"/
  done
fi
dict=()
[ -f "fuzz/${target}.dict" ] && dict=(-dict="../fuzz/${target}.dict")
cd build-fuzz
log=${target}-fuzz.log
echo "fuzzing $target for ${seconds}s; log: build-fuzz/$log, findings: $artifacts/"
LSAN_OPTIONS=suppressions=../fuzz/lsan.supp ASAN_OPTIONS=$asan \
  nice -n 19 "./fuzz/${target}_fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -timeout=10 "${limits[@]}" "${dict[@]}" \
  -artifact_prefix="${target}-artifacts/" "${target}-corpus-run/" > "$log" 2>&1
grep '^#' "$log" | tail -1

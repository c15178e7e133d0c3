#!/bin/bash
# Builds (quick way: the g++ libkeras.a plus instrumented src/saving) and runs the loader
# fuzzer for SECONDS (default 1800) in the background-friendly fork mode; see fuzz/README.md.
#   tools/run_fuzzer.sh [SECONDS]
# The scratch corpus build-fuzz/corpus-run gets fuzz/corpus plus, when present, the real Keras
# files of ../shared/models (run time only: never commit them or inputs made from them).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work} CCACHE_NOHASHDIR=1
cmake -S . -B build -DKERAS_BUILD_TESTS=ON -DKERAS_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build -j2 --target keras >/dev/null
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DKERAS_BUILD_FUZZERS=ON \
      -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF \
      -DKERAS_FUZZ_LIBRARY="$PWD/build/libkeras.a" >/dev/null
cmake --build build-fuzz -j2 --target load_model_fuzzer >/dev/null
mkdir -p build-fuzz/corpus-run build-fuzz/artifacts
cp fuzz/corpus/* build-fuzz/corpus-run/
for f in ../shared/models/*.keras ../shared/models/*.h5; do
  [ -f "$f" ] && cp "$f" build-fuzz/corpus-run/
done
cd build-fuzz
echo "fuzzing for ${seconds}s; log: build-fuzz/fuzz.log, findings: build-fuzz/artifacts/"
LSAN_OPTIONS=suppressions=../fuzz/lsan.supp ASAN_OPTIONS=allocator_may_return_null=1 \
  ./fuzz/load_model_fuzzer -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 -max_len=200000 \
  -artifact_prefix=artifacts/ corpus-run/ > fuzz.log 2>&1
grep '^#' fuzz.log | tail -1

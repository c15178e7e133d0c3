#!/usr/bin/env bash
# Fuzzes keras-cpp serve's request handler for SECONDS (default 60; CI runs it bounded):
#   ./scripts/fuzz_serve.sh [SECONDS]
# Builds serve_request_fuzzer with clang (libFuzzer + ASan + UBSan on tools/serve and the
# target) in build-fuzz/, linking the libkeras.a of the normal build (./scripts/build.sh first),
# starts from the committed corpus fuzz/serve_corpus, and fails on the first finding: a reply
# that breaks the rules (a 500, a body that is not JSON), a crash, a sanitizer report, a hang
# (-timeout) or an out-of-memory. Findings land in build-fuzz/serve-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
./scripts/install_deps.sh clang libclang-rt-14-dev
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
[ -f build/libkeras.a ] || ./scripts/build.sh
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DKERAS_BUILD_FUZZERS=ON \
  -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF -DKERAS_WITH_TORCH=OFF -DKERAS_WITH_CUDA=OFF \
  -DKERAS_FUZZ_LIBRARY="$PWD/build/libkeras.a" > /dev/null
cmake --build build-fuzz -j"$(nproc)" --target serve_request_fuzzer > /dev/null
rm -rf build-fuzz/serve-corpus-run build-fuzz/serve-artifacts
mkdir -p build-fuzz/serve-corpus-run build-fuzz/serve-artifacts
cp fuzz/serve_corpus/* build-fuzz/serve-corpus-run/
cd build-fuzz
echo "fuzzing keras-cpp serve's request handler for ${seconds}s (log: build-fuzz/serve-fuzz.log)"
status=0
LSAN_OPTIONS="suppressions=$PWD/../fuzz/lsan.supp" \
  ./fuzz/serve_request_fuzzer -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 \
  -max_len=16384 -dict=../fuzz/serve_request.dict -artifact_prefix=serve-artifacts/ \
  serve-corpus-run/ > serve-fuzz.log 2>&1 || status=$?
grep -E '^#[0-9]+' serve-fuzz.log | tail -1 || true
if [ "$status" -ne 0 ]; then
  tail -60 serve-fuzz.log
  echo "serve_request_fuzzer found a bug (exit $status): build-fuzz/serve-artifacts/" >&2
  exit 1
fi
grep -E '^Done [0-9]+ runs' serve-fuzz.log || true

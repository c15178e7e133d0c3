#!/usr/bin/env bash
# The long runs of issue 23 (docs/reliability.md#long-runs): 20,000 training steps of each
# training workload and 200,000 calls of each inference workload of tools/soak, with resident
# memory sampled, then the same under LeakSanitizer.
#   ./scripts/soak.sh              # the full version (about 5 + 5 minutes on 2 busy cores)
#   ./scripts/soak.sh --predicts 20000 --train-steps 2000   # shorter; arguments go to both runs
# Builds keras-soak and keras-soak-lsan in build/ (Release). Prints each run's table: RSS after
# warm-up (the first 10% of each workload's calls), at the end, the growth and the peak; fails
# when a workload's RSS grew more than 2% after warm-up, or when LSan reports a leak at exit.
# The runs use glibc's default malloc arenas, as a deployed program does (the ctest entry
# "soak" pins one arena to see smaller leaks in a short run; see tools/soak/CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target keras-soak keras-soak-lsan > /dev/null
status=0
echo "== keras-soak: RSS over the long run (bound: 2% after warm-up)"
./build/tools/soak/keras-soak --max-growth 2 "$@" || status=$?
echo
echo "== keras-soak-lsan: the same under LeakSanitizer (leaks reported at exit; RSS not bounded:"
echo "   LSan's allocator is not the glibc malloc a deployed program runs on)"
LSAN_OPTIONS="suppressions=$PWD/tools/soak/lsan.supp print_suppressions=1" \
  ./build/tools/soak/keras-soak-lsan --max-growth -1 "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "soak: FAILED (exit status $status)" >&2
else
  echo "soak: RSS flat after warm-up in every workload, LSan clean at exit"
fi
exit "$status"

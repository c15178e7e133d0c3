#!/usr/bin/env bash
# Runs the whole test suite of a built tree N times in a row (default 20), as CI runs it
# (ctest -j$(nproc)), to find tests that do not give the same answer every time: every test is
# seeded, so a test that fails in one run and passes in another depends on timing, threads or
# state left by another test. Prints one line per run and, at the end, each test that failed
# with the runs it failed in; the log of each run is kept in build/repeat/. Exits 1 if any run
# failed.
#   ./scripts/repeat_suite.sh [RUNS] [ctest arguments]    # after ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"
shift || true
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "repeat_suite: RUNS must be a positive number, got '$runs'" >&2; exit 2; }
[ -f build/CTestTestfile.cmake ] || { echo "repeat_suite: no built suite in build/: run ./scripts/test.sh first" >&2; exit 2; }
mkdir -p build/repeat
declare -A failed_in=()
for ((run = 1; run <= runs; run++)); do
  log="build/repeat/run-$run.log"
  start=$(date +%s)
  status=passed
  (cd build && ctest --output-on-failure -j"$(nproc)" "$@") > "$log" 2>&1 || status=failed
  summary=$(grep -E "tests passed|tests failed" "$log" | tail -1)
  echo "run $run/$runs: $status in $(($(date +%s) - start)) s: ${summary:-no summary}"
  while read -r name; do
    failed_in[$name]+=" $run"
  done < <(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*)$/\1/p' "$log")
done
if [ "${#failed_in[@]}" -eq 0 ]; then
  echo "repeat_suite: $runs runs, every test passed every time"
  exit 0
fi
echo "repeat_suite: tests that failed (runs):"
for name in "${!failed_in[@]}"; do echo "  $name:${failed_in[$name]}"; done
exit 1

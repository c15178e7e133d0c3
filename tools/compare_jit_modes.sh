#!/usr/bin/env bash
# Runs a program twice, compiled (keras::jit and jit_compile as they default) and with
# KERAS_DISABLE_JIT=1 (everything eager), and checks that the lines where it reports losses and
# metrics are the same: the test that every example trains the same way in both modes.
# Timings ("12ms/step", "in 0.03 s") and the replay count are taken out before comparing.
# Usage: tools/compare_jit_modes.sh PROGRAM [ARGS...]
set -euo pipefail
report() {
  grep -aiE 'loss|mse|mae|accuracy' |
    sed -E 's/[0-9]+(\.[0-9]+)?(e-?[0-9]+)? ?(ms|s|us)(\/(step|sample))?([^a-z]|$)/\6/g;
            s/\([0-9]+ of [0-9]+ steps replayed\)//' || true
}
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
"$@" > "$output" || { echo "compare_jit_modes: $1 failed compiled (exit $?)" >&2; exit 1; }
compiled="$(report < "$output")"
KERAS_DISABLE_JIT=1 "$@" > "$output" ||
  { echo "compare_jit_modes: $1 failed with KERAS_DISABLE_JIT=1 (exit $?)" >&2; exit 1; }
eager="$(report < "$output")"
if [ -z "$compiled" ]; then
  echo "compare_jit_modes: $1 printed no loss or metric line to compare" >&2
  exit 1
fi
if [ "$compiled" != "$eager" ]; then
  echo "compare_jit_modes: $1 reports different losses or metrics compiled (<) and eager (>):" >&2
  diff <(echo "$compiled") <(echo "$eager") >&2 || true
  exit 1
fi
echo "$compiled" | tail -n 3
echo "compiled and eager runs report the same $(echo "$compiled" | wc -l) lines"

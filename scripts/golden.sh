#!/usr/bin/env bash
# Regenerates every golden fixture in tests/golden from tools/golden (needs python3-numpy,
# and python3-torch for the scripts that use it).
set -euo pipefail
cd "$(dirname "$0")/../tools/golden"
for s in *.py; do
  [ "$s" = fixture.py ] && continue
  /usr/bin/python3 -W ignore "$s"
done

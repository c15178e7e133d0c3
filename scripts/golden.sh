#!/usr/bin/env bash
# Regenerates every golden fixture in tests/golden from the scripts in tools/golden, with
# Debian's NumPy, PyTorch and mpmath (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/../tools/golden"
missing=()
for p in python3-numpy python3-torch python3-mpmath python3-rich; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi
for s in *.py; do
  [ "$s" = fixture.py ] && continue
  /usr/bin/python3 -W ignore "$s"
done
